/// `reduce: expr` + optional `seed`: the accumulation of all values, emitted once when the
/// source completes (RxJS 7: an empty source with a seed emits the seed; without one it just
/// completes).
///
/// ```
/// source:  -1-2-3-|
/// reduce:  -------(6|)   (reduce: '$0 + $1')
/// ```
extension Source {
  public func reduce(seed: Value?, _ accumulate: @escaping Accumulate) -> any Source {
    OperatorSource(self) { ReduceObserver(downstream: $0, accumulator: seed, accumulate: accumulate) }
  }
}

private final class ReduceObserver: UnaryOperator {
  let downstream: any Observer
  let accumulate: Accumulate
  var accumulator: Value?
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, accumulator: Value?, accumulate: @escaping Accumulate) {
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
