/// `startWith: value` (a list means several values): the values at subscription, then the
/// source (RxJS 7 `concat(of(values), source)`).
///
/// ```
/// source:            ---a-|
/// startWith: [x, y]  (xy)a-|
/// ```
public final class StartWithSource: Source {
  private let upstream: any Source
  private let values: [Value]

  public init(_ upstream: any Source, values: [Value]) {
    self.upstream = upstream
    self.values = values
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let start = StartWithObserver(downstream: observer)
    for value in values {
      guard !start.link.isFinished else { return start }
      observer.receive(.next(value))
    }
    guard !start.link.isFinished else { return start }
    start.link.attach(upstream.subscribe(start))
    return start
  }
}

private final class StartWithObserver: Observer, Disposable {
  let downstream: any Observer
  let link = UpstreamLink()

  init(downstream: any Observer) {
    self.downstream = downstream
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal { link.finish() }
    downstream.receive(event)
  }

  func dispose() {
    link.dispose()
  }
}
