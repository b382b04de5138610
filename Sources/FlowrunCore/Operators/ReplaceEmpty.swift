/// `replaceEmpty: v` (Combine; RxJS `defaultIfEmpty`): when the source completes without a
/// value, `v` then completed; otherwise the source unchanged. With a signal instead of a value
/// (RxSwift `ifEmpty(switchTo:)`, RxS `Observables/SwitchIfEmpty.swift`), an empty source's
/// completion subscribes to that signal, whose events follow.
///
/// ```
/// source:           --|
/// replaceEmpty: z   --(z|)
/// ```
extension Source {
  public func replaceEmpty(with value: Value) -> any Source {
    OperatorSource(self) { ReplaceEmptyObserver(downstream: $0, replacement: .value(value)) }
  }

  public func replaceEmpty(switchingTo other: any Source) -> any Source {
    OperatorSource(self) { ReplaceEmptyObserver(downstream: $0, replacement: .signal(other)) }
  }
}

private final class ReplaceEmptyObserver: UnaryOperator {
  enum Replacement {
    case value(Value)
    case signal(any Source)
  }

  let downstream: any Observer
  let replacement: Replacement
  let link = UpstreamLink()
  var fallback: UpstreamLink?
  var sawValue = false

  init(downstream: any Observer, replacement: Replacement) {
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
      if !sawValue {
        switch replacement {
        case .value(let value): downstream.receive(.next(value))
        case .signal(let other):
          let fallback = UpstreamLink()
          self.fallback = fallback
          return fallback.attach(other.subscribe(FallbackObserver(downstream: downstream, link: fallback)))
        }
      }
    }
    downstream.receive(event)
  }

  func dispose() {
    link.dispose()
    fallback?.dispose()
  }
}
