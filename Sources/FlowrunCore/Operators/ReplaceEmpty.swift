/// `replaceEmpty: v` (Combine; RxJS `defaultIfEmpty`): when the source completes without a
/// value, `v` then completed; otherwise the source unchanged.
///
/// ```
/// source:           --|
/// replaceEmpty: z   --(z|)
/// ```
extension Source {
  public func replaceEmpty(with value: Value) -> any Source {
    OperatorSource(self) { ReplaceEmptyObserver(downstream: $0, replacement: value) }
  }
}

private final class ReplaceEmptyObserver: UnaryOperator {
  let downstream: any Observer
  let replacement: Value
  let link = UpstreamLink()
  var sawValue = false

  init(downstream: any Observer, replacement: Value) {
    self.downstream = downstream
    self.replacement = replacement
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next:
      sawValue = true
    case .error:
      link.finish()
    case .completed:
      link.finish()
      if !sawValue { downstream.receive(.next(replacement)) }
    }
    downstream.receive(event)
  }

  func dispose() {
    link.dispose()
  }
}
