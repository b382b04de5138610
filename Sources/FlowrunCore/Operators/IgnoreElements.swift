/// `ignoreElements` (`ignoreValues`): no values, only the source's completion or error.
///
/// ```
/// source:         -a-b-|
/// ignoreElements: -----|
/// ```
public final class IgnoreElementsSource: Source {
  private let upstream: any Source

  public init(_ upstream: any Source) {
    self.upstream = upstream
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let ignore = IgnoreElementsObserver(downstream: observer)
    ignore.link.attach(upstream.subscribe(ignore))
    return ignore
  }
}

private final class IgnoreElementsObserver: Observer, Disposable {
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
