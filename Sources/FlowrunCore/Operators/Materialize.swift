import OrderedCollections

/// `materialize`: every event as a value — `{kind: "next", value: v}`,
/// `{kind: "error", error: e}` or `{kind: "completed"}` — then completed after the terminal one.
///
/// ```
/// source:      -a-#
/// materialize: -n-(e|)   (n = {kind: "next", value: a}, e = {kind: "error", error: "error"})
/// ```
public final class MaterializeSource: Source {
  private let upstream: any Source

  public init(_ upstream: any Source) {
    self.upstream = upstream
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let materialize = MaterializeObserver(downstream: observer)
    materialize.link.attach(upstream.subscribe(materialize))
    return materialize
  }

  /// The value `materialize` makes of `event`.
  public static func notification(_ event: Event) -> Value {
    switch event {
    case .next(let value): .map(["kind": .string("next"), "value": value])
    case .error(let error): .map(["kind": .string("error"), "error": error])
    case .completed: .map(["kind": .string("completed")])
    }
  }
}

private final class MaterializeObserver: Observer, Disposable {
  let downstream: any Observer
  let link = UpstreamLink()

  init(downstream: any Observer) {
    self.downstream = downstream
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal { link.finish() }
    downstream.receive(.next(MaterializeSource.notification(event)))
    if event.isTerminal { downstream.receive(.completed) }
  }

  func dispose() {
    link.dispose()
  }
}
