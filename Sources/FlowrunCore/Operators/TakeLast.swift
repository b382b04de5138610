/// `takeLast: n`: the last n values, all sent in the frame the source completes, then completed.
///
/// An error is forwarded at once and the buffer dropped; `takeLast: 0` completes at
/// subscription without subscribing upstream (RxJS 7).
///
/// ```
/// source:      -a-b-c-|
/// takeLast: 2  -------(bc|)
/// ```
public final class TakeLastSource: Source {
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
    let takeLast = TakeLastObserver(downstream: observer, count: count)
    takeLast.link.attach(upstream.subscribe(takeLast))
    return takeLast
  }
}

private final class TakeLastObserver: Observer, Disposable {
  let downstream: any Observer
  let link = UpstreamLink()
  let count: Int
  /// A ring of the last `count` values; `start` is the oldest once full.
  var ring: [Value] = []
  var start = 0

  init(downstream: any Observer, count: Int) {
    self.downstream = downstream
    self.count = count
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      var values = ring.take()  // changed moved out (Exclusivity.swift)
      if values.count < count {
        values.append(value)
      } else {
        values[start] = value
        start = (start + 1) % count
      }
      swap(&values, &ring)
    case .error:
      link.finish()
      _ = ring.take()
      downstream.receive(event)
    case .completed:
      link.finish()
      let ring = self.ring.take()
      let values = ring[start...] + ring[..<start]
      for value in values { downstream.receive(.next(value)) }
      downstream.receive(.completed)
    }
  }

  func dispose() {
    link.dispose()
    _ = ring.take()
  }
}
