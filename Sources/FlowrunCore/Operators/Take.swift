/// `take: n`: the first n values, then completed (and upstream unsubscribed).
///
/// `take: 0` completes at subscription without subscribing upstream (RxJS 7).
///
/// ```
/// source:  -a-b-c-|
/// take: 2  -a-(b|)
/// ```
public final class TakeSource: Source {
  private let upstream: any Source
  private let count: Int

  public init(_ upstream: any Source, count: Int) {
    self.upstream = upstream
    self.count = count
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    guard count > 0 else {
      observer.receive(.completed)
      return NoDisposable.shared
    }
    let take = TakeObserver(downstream: observer, remaining: count)
    take.link.attach(upstream.subscribe(take))
    return take
  }
}

private final class TakeObserver: Observer, Disposable {
  let downstream: any Observer
  let link = UpstreamLink()
  var remaining: Int

  init(downstream: any Observer, remaining: Int) {
    self.downstream = downstream
    self.remaining = remaining
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    guard case .next = event else {
      link.finish()
      return downstream.receive(event)
    }
    remaining -= 1
    downstream.receive(event)
    if remaining == 0, !link.isFinished {
      link.end(with: .completed, to: downstream)
    }
  }

  func dispose() {
    link.dispose()
  }
}
