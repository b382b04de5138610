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
