import OrderedCollections

/// `dematerialize`: the reverse of `materialize` — a `{kind: "next", value: v}` value sends `v`,
/// `{kind: "error", error: e}` fails with `e`, `{kind: "completed"}` completes; any other value
/// fails with `"dematerialize: not a notification: <value>"` (RxJS throws a TypeError).
///
/// ```
/// source:        -n-c-|   (n = {kind: "next", value: a}, c = {kind: "completed"})
/// dematerialize: -a-|
/// ```
public final class DematerializeSource: Source {
  private let upstream: any Source

  public init(_ upstream: any Source) {
    self.upstream = upstream
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let dematerialize = DematerializeObserver(downstream: observer)
    dematerialize.link.attach(upstream.subscribe(dematerialize))
    return dematerialize
  }

  /// The event a notification value stands for, or nil when it is not one.
  static func event(of value: Value) -> Event? {
    guard case .map(let entries) = value, case .string(let kind)? = entries["kind"] else { return nil }
    switch kind {
    case "next": return .next(entries["value"] ?? .null)
    case "error": return .error(entries["error"] ?? .null)
    case "completed": return .completed
    default: return nil
    }
  }
}

private final class DematerializeObserver: Observer, Disposable {
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
    guard let inner = DematerializeSource.event(of: value) else {
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
