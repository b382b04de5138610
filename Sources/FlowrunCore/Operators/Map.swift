/// `map: expr` (and `mapTo: value`): each value transformed; a failing transform sends its
/// error and ends the subscription, as a throwing closure does in ReactiveX.
///
/// ```
/// source: -1-2-3-|
/// map:    -2-4-6-|   (map: '$0 * 2')
/// ```
public final class MapSource: Source {
  private let upstream: any Source
  private let transform: Transform

  public init(_ upstream: any Source, transform: @escaping Transform) {
    self.upstream = upstream
    self.transform = transform
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let map = MapObserver(downstream: observer, transform: transform)
    map.link.attach(upstream.subscribe(map))
    return map
  }
}

private final class MapObserver: Observer, Disposable {
  let downstream: any Observer
  let transform: Transform
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, transform: @escaping Transform) {
    self.downstream = downstream
    self.transform = transform
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    guard case .next(let value) = event else {
      link.finish()
      return downstream.receive(event)
    }
    let result: Value
    do throws(StepFailure) {
      result = try transform(value, index)
    } catch {
      return link.end(with: .error(error.value), to: downstream)
    }
    index += 1
    downstream.receive(.next(result))
  }

  func dispose() {
    link.dispose()
  }
}
