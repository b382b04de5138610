/// `skip: n`: drops the first n values.
///
/// ```
/// source:  -a-b-c-|
/// skip: 1  ---b-c-|
/// ```
public final class SkipSource: Source {
  private let upstream: any Source
  private let count: Int

  public init(_ upstream: any Source, count: Int) {
    self.upstream = upstream
    self.count = count
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let skip = SkipObserver(downstream: observer, remaining: count)
    skip.link.attach(upstream.subscribe(skip))
    return skip
  }
}

private final class SkipObserver: Observer, Disposable {
  let downstream: any Observer
  let link = UpstreamLink()
  var remaining: Int

  init(downstream: any Observer, remaining: Int) {
    self.downstream = downstream
    self.remaining = remaining
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if case .next = event, remaining > 0 {
      remaining -= 1
      return
    }
    if event.isTerminal { link.finish() }
    downstream.receive(event)
  }

  func dispose() {
    link.dispose()
  }
}
