/// `skip: n`: drops the first n values.
///
/// ```
/// source:  -a-b-c-|
/// skip: 1  ---b-c-|
/// ```
extension Source {
  public func skip(_ count: Int) -> any Source {
    OperatorSource(self) { SkipObserver(downstream: $0, remaining: count) }
  }
}

private final class SkipObserver: UnaryOperator {
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

/// Combine's `dropFirst(n)` asks upstream for the n values it drops: while it drops, it wants
/// values whatever its downstream wants.
extension SkipObserver: DemandingObserver {
  var wantsValue: Bool { !link.isFinished && (remaining > 0 || FlowrunCore.wantsValue(downstream)) }
  var isOpen: Bool { !link.isFinished && FlowrunCore.isOpen(downstream) }
  func whenWanting(_ resume: @escaping () -> Void) {
    guard !link.isFinished else { return }
    guard remaining == 0 else { return resume() }
    (downstream as? any DemandingObserver)?.whenWanting(resume)
  }
}
