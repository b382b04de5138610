/// `take: n`: the first n values, then completed (and upstream unsubscribed).
///
/// `take: 0` completes at subscription without subscribing upstream (RxJS 7).
///
/// ```
/// source:  -a-b-c-|
/// take: 2  -a-(b|)
/// ```
///
/// Combine's `prefix(n)` (`finishesOnNextValue`) finishes when the value after the n-th arrives
/// (or the source terminates): `prefix: 0` waits for the first value.
extension Source {
  public func take(_ count: Int, finishesOnNextValue: Bool = false) -> any Source {
    OperatorSource(self) {
      TakeObserver(downstream: $0, remaining: count, finishesOnNextValue: finishesOnNextValue)
    }
  }
}

private final class TakeObserver: UnaryOperator {
  let downstream: any Observer
  let link = UpstreamLink()
  var remaining: Int
  let finishesOnNextValue: Bool

  init(downstream: any Observer, remaining: Int, finishesOnNextValue: Bool) {
    self.downstream = downstream
    self.remaining = remaining
    self.finishesOnNextValue = finishesOnNextValue
  }

  /// `take: 0` completes at once, without subscribing upstream.
  func start(_ upstream: any Source) {
    guard remaining > 0 || finishesOnNextValue else {
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
    if finishesOnNextValue, remaining == 0 { return link.end(with: .completed, to: downstream) }
    // A value sent back to the source while the n-th is delivered comes before the completion:
    // past the count it is dropped (RxJS 7 counts before forwarding: `++seen <= count`).
    guard remaining > 0 else { return }
    remaining -= 1
    downstream.receive(event)
    if remaining == 0, !finishesOnNextValue, !link.isFinished {
      link.end(with: .completed, to: downstream)
    }
  }

  func dispose() {
    link.dispose()
  }
}

extension TakeObserver: DemandingObserver {
  var wantsValue: Bool { !link.isFinished && FlowrunCore.wantsValue(downstream) }
  var isOpen: Bool { !link.isFinished && FlowrunCore.isOpen(downstream) }
  func whenWanting(_ resume: @escaping () -> Void) {
    guard !link.isFinished else { return }
    (downstream as? any DemandingObserver)?.whenWanting(resume)
  }
}
