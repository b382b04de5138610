import OrderedCollections

/// `dematerialize`: the reverse of `materialize` — a `{kind: "next", value: v}` value sends `v`,
/// `{kind: "error", error: e}` fails with `e`, `{kind: "completed"}` completes; any other value
/// fails with `"dematerialize: not a notification: <value>"` (RxJS throws a TypeError).
///
/// ```
/// source:        -n-c-|   (n = {kind: "next", value: a}, c = {kind: "completed"})
/// dematerialize: -a-|
/// ```
extension Source {
  public func dematerialize() -> any Source {
    OperatorSource(self) { DematerializeObserver(downstream: $0) }
  }
}

extension Event {
  /// The event a `materialize` notification value stands for, or nil when it is not one.
  init?(notification value: Value) {
    guard case .map(let entries) = value, case .string(let kind)? = entries["kind"] else { return nil }
    switch kind {
    case "next": self = .next(entries["value"] ?? .null)
    case "error": self = .error(entries["error"] ?? .null)
    case "completed": self = .completed
    default: return nil
    }
  }
}

private final class DematerializeObserver: UnaryOperator {
  let downstream: any Observer
  let link = UpstreamLink()

  init(downstream: any Observer) {
    self.downstream = downstream
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    guard case .next(let value) = event else {
      link.finish()
      return downstream.receive(event)
    }
    guard let inner = Event(notification: value) else {
      return link.end(with: .error(.string("dematerialize: not a notification: \(value)")), to: downstream)
    }
    if inner.isTerminal {
      link.end(with: inner, to: downstream)
    } else {
      downstream.receive(inner)
    }
  }

  func dispose() {
    link.dispose()
  }
}
