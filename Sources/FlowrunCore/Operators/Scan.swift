/// `scan: expr` + optional `seed`: the running accumulation, emitted at every value.
///
/// Without a seed the first value becomes the accumulator and is emitted as it is.
///
/// ```
/// source: -1-2-3-|
/// scan:   -1-3-6-|   (scan: '$0 + $1')
/// ```
public final class ScanSource: Source {
  /// Combines the accumulator with a value and its index.
  public typealias Accumulate = (Value, Value, Int) throws(StepFailure) -> Value

  private let upstream: any Source
  private let seed: Value?
  private let accumulate: Accumulate

  public init(_ upstream: any Source, seed: Value?, accumulate: @escaping Accumulate) {
    self.upstream = upstream
    self.seed = seed
    self.accumulate = accumulate
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let scan = ScanObserver(downstream: observer, accumulator: seed, accumulate: accumulate)
    scan.link.attach(upstream.subscribe(scan))
    return scan
  }
}

private final class ScanObserver: Observer, Disposable {
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
