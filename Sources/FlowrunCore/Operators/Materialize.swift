import OrderedCollections

/// `materialize`: every event as a value — `{kind: "next", value: v}`,
/// `{kind: "error", error: e}` or `{kind: "completed"}` — then completed after the terminal one.
///
/// ```
/// source:      -a-#
/// materialize: -n-(e|)   (n = {kind: "next", value: a}, e = {kind: "error", error: "error"})
/// ```
extension Source {
  public func materialize() -> any Source {
    OperatorSource(self) { MaterializeObserver(downstream: $0) }
  }
}

extension Event {
  /// The value `materialize` makes of the event.
  public var notification: Value {
    switch self {
    case .next(let value): .map(["kind": .string("next"), "value": value])
    case .error(let error): .map(["kind": .string("error"), "error": error])
    case .completed: .map(["kind": .string("completed")])
    }
  }
}

private final class MaterializeObserver: UnaryOperator {
  let downstream: any Observer
  let link = UpstreamLink()

  init(downstream: any Observer) {
    self.downstream = downstream
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal { link.finish() }
    downstream.receive(.next(event.notification))
    if event.isTerminal { downstream.receive(.completed) }
  }

  func dispose() {
    link.dispose()
  }
}
