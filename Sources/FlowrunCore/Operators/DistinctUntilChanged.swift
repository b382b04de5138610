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
    guard case .next(let value) = event else {
      link.finish()
      return downstream.receive(event)
    }
    let current: Value
    if let key {
      do throws(StepFailure) {
        current = try key(value, index)
      } catch {
        return link.end(with: .error(error.value), to: downstream)
      }
    } else {
      current = value
    }
    index += 1
    if let previous, previous == current { return }
    previous = current
    downstream.receive(event)
  }

  func dispose() {
    link.dispose()
  }
}
