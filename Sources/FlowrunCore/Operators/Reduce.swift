/// `reduce: expr` + optional `seed`: the accumulation of all values, emitted once when the
/// source completes (RxJS 7: an empty source with a seed emits the seed; without one it just
/// completes).
///
/// ```
/// source:  -1-2-3-|
/// reduce:  -------(6|)   (reduce: '$0 + $1')
/// ```
public final class ReduceSource: Source {
  private let upstream: any Source
  private let seed: Value?
  private let accumulate: ScanSource.Accumulate

  public init(_ upstream: any Source, seed: Value?, accumulate: @escaping ScanSource.Accumulate) {
    self.upstream = upstream
    self.seed = seed
    self.accumulate = accumulate
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let reduce = ReduceObserver(downstream: observer, accumulator: seed, accumulate: accumulate)
    reduce.link.attach(upstream.subscribe(reduce))
    return reduce
  }
}

private final class ReduceObserver: Observer, Disposable {
  let downstream: any Observer
  let accumulate: ScanSource.Accumulate
  var accumulator: Value?
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, accumulator: Value?, accumulate: @escaping ScanSource.Accumulate) {
    self.downstream = downstream
    self.accumulator = accumulator
    self.accumulate = accumulate
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      defer { index += 1 }
      guard let current = accumulator else {
        accumulator = value
        return
      }
      do throws(StepFailure) {
        accumulator = try accumulate(current, value, index)
      } catch {
        link.end(with: .error(error.value), to: downstream)
      }
    case .error:
      link.finish()
      downstream.receive(event)
    case .completed:
      link.finish()
      if let accumulator { downstream.receive(.next(accumulator)) }
      downstream.receive(.completed)
    }
  }

  func dispose() {
    link.dispose()
  }
}
