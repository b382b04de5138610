/// `takeLast: n`: the last n values, all sent in the frame the source completes, then completed.
///
/// An error is forwarded at once and the buffer dropped; `takeLast: 0` completes at
/// subscription without subscribing upstream (RxJS 7).
///
/// ```
/// source:      -a-b-c-|
/// takeLast: 2  -------(bc|)
/// ```
extension Source {
  public func takeLast(_ count: Int) -> any Source {
    OperatorSource(self) { TakeLastObserver(downstream: $0, count: count) }
  }
}

private final class TakeLastObserver: UnaryOperator {
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

  /// `takeLast: 0` completes at once, without subscribing upstream.
  func start(_ upstream: any Source) {
    guard count > 0 else {
      link.finish()
      return downstream.receive(.completed)
    }
    link.attach(upstream.subscribe(self))
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
