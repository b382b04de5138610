/// `distinctUntilChanged` (optionally by a key expression): drops a value deeply equal to the
/// previous one.
///
/// ```
/// source:               -a-a-b-a-|
/// distinctUntilChanged: -a---b-a-|
/// ```
public final class DistinctUntilChangedSource: Source {
  private let upstream: any Source
  private let key: Transform?

  public init(_ upstream: any Source, key: Transform? = nil) {
    self.upstream = upstream
    self.key = key
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let distinct = DistinctObserver(downstream: observer, key: key)
    distinct.link.attach(upstream.subscribe(distinct))
    return distinct
  }
}

private final class DistinctObserver: Observer, Disposable {
  let downstream: any Observer
  let key: Transform?
  var previous: Value?
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, key: Transform?) {
    self.downstream = downstream
    self.key = key
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    // A `switch` with the work inside its case borrows the value from `event` (see Map).
    switch event {
    case .next(let value):
      guard let key else {
        index += 1
        return forward(event, comparing: value)
      }
      do throws(StepFailure) {
        let current = try key(value, index)
        index += 1
        forward(event, comparing: current)
      } catch {
        link.end(with: .error(error.value), to: downstream)
      }
    case .error, .completed:
      link.finish()
      downstream.receive(event)
    }
  }

  /// Sends `event` unless `current` equals the previous value.
  @inline(__always)
  private func forward(_ event: Event, comparing current: Value) {
    if let previous, previous == current { return }
    previous = current
    downstream.receive(event)
  }

  func dispose() {
    link.dispose()
  }
}
