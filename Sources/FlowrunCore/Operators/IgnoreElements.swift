/// `ignoreElements` (`ignoreValues`): no values, only the source's completion or error.
///
/// ```
/// source:         -a-b-|
/// ignoreElements: -----|
/// ```
extension Source {
  public func ignoreElements() -> any Source {
    OperatorSource(self) { IgnoreElementsObserver(downstream: $0) }
  }
}

private final class IgnoreElementsObserver: UnaryOperator {
  let downstream: any Observer
  let link = UpstreamLink()

  init(downstream: any Observer) {
    self.downstream = downstream
  }

  func receive(_ event: Event) {
    guard !link.isFinished, event.isTerminal else { return }
    link.finish()
    downstream.receive(event)
  }

  func dispose() {
    link.dispose()
  }
}
