/// RxSwift's one-element operators: `single()` (`Observables/SingleAsync.swift`), `asSingle()`
/// (`AsSingle.swift`) and `asMaybe()` (`AsMaybe.swift`). A second value fails with
/// `"moreThanOneElement"`; a completion without a value fails with `"noElements"` (an `asMaybe`
/// completes). `single` sends the value at once; `asSingle` and `asMaybe` keep it for the
/// completion.
///
/// ```
/// source:         -a--|     -a-b|
/// single          -a--|     -a-#   (# = "moreThanOneElement")
/// asSingle        ----(a|)  ---#
/// ```
extension Source {
  public func rxSwiftSingle(_ kind: RxSwiftSingleKind) -> any Source {
    OperatorSource(self) { RxSwiftSingleObserver(downstream: $0, kind: kind) }
  }
}

/// Which of RxSwift's one-element operators.
public enum RxSwiftSingleKind: Sendable {
  /// `single()`: the value at once.
  case single
  /// `asSingle()`: the value at the completion.
  case asSingle
  /// `asMaybe()`: the value, if any, at the completion.
  case asMaybe
}

private final class RxSwiftSingleObserver: UnaryOperator {
  let downstream: any Observer
  let kind: RxSwiftSingleKind
  let link = UpstreamLink()
  var kept: Value?
  var seen = false

  init(downstream: any Observer, kind: RxSwiftSingleKind) {
    self.downstream = downstream
    self.kind = kind
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      guard !seen else { return link.end(with: .error(.string("moreThanOneElement")), to: downstream) }
      seen = true
      if kind == .single { downstream.receive(event) } else { kept = value }
    case .error:
      link.end(with: event, to: downstream)
    case .completed:
      link.finish()
      if let kept { downstream.receive(.next(kept)) }
      if seen || kind == .asMaybe {
        downstream.receive(.completed)
      } else {
        downstream.receive(.error(.string("noElements")))
      }
    }
  }

  func dispose() {
    link.dispose()
  }
}
