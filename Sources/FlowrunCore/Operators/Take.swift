/// `take: n`: the first n values, then completed (and upstream unsubscribed).
///
/// `take: 0` completes at subscription without subscribing upstream (RxJS 7).
///
/// ```
/// source:  -a-b-c-|
/// take: 2  -a-(b|)
/// ```
extension Source {
  public func take(_ count: Int) -> any Source {
    OperatorSource(self) { TakeObserver(downstream: $0, remaining: count) }
  }
}

private final class TakeObserver: UnaryOperator {
  let downstream: any Observer
  let link = UpstreamLink()
  var remaining: Int

  init(downstream: any Observer, remaining: Int) {
    self.downstream = downstream
    self.remaining = remaining
  }

  /// `take: 0` completes at once, without subscribing upstream.
  func start(_ upstream: any Source) {
    guard remaining > 0 else {
      link.finish()
      return downstream.receive(.completed)
    }
    link.attach(upstream.subscribe(self))
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
