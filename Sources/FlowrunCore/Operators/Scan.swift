/// `scan: expr` + optional `seed`: the running accumulation, emitted at every value.
///
/// Without a seed the first value becomes the accumulator and is emitted as it is.
///
/// ```
/// source: -1-2-3-|
/// scan:   -1-3-6-|   (scan: '$0 + $1')
/// ```
extension Source {
  public func scan(seed: Value?, _ accumulate: @escaping Accumulate) -> any Source {
    OperatorSource(self) { ScanObserver(downstream: $0, accumulator: seed, accumulate: accumulate) }
  }
}

private final class ScanObserver: UnaryOperator {
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
    guard case .next(let value) = event else {
      link.finish()
      return downstream.receive(event)
    }
    defer { index += 1 }
    guard let current = accumulator else {
      accumulator = value
      return downstream.receive(event)
    }
    do throws(StepFailure) {
      let next = try accumulate(current, value, index)
      accumulator = next
      downstream.receive(.next(next))
    } catch {
      link.end(with: .error(error.value), to: downstream)
    }
  }

  func dispose() {
    link.dispose()
  }
}
