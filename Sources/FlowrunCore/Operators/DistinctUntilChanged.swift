/// `distinctUntilChanged` (optionally by a key expression): drops a value deeply equal to the
/// previous one.
///
/// ```
/// source:               -a-a-b-a-|
/// distinctUntilChanged: -a---b-a-|
/// ```
/// A test of a value against the one before it, with the value's index (Combine's
/// `removeDuplicates(by:)`, `min(by:)`, `max(by:)`).
public typealias Comparison = (Value, Value, Int) throws(StepFailure) -> Bool

extension Source {
  /// Compares the values themselves, or the keys `key` makes of them.
  public func distinctUntilChanged(by key: Transform? = nil) -> any Source {
    OperatorSource(self) { DistinctObserver(downstream: $0, key: key) }
  }

  /// Combine's `removeDuplicates(by:)`: drops a value when `isDuplicate(previous, value)` holds,
  /// `previous` being the value received before it, sent or not (OpenCombine
  /// `Publishers.RemoveDuplicates.swift`: `last` is set to every input).
  public func removeDuplicates(by isDuplicate: @escaping Comparison) -> any Source {
    OperatorSource(self) { DistinctObserver(downstream: $0, key: nil, isDuplicate: isDuplicate) }
  }
}

private final class DistinctObserver: UnaryOperator {
  let downstream: any Observer
  let key: Transform?
  let isDuplicate: Comparison?
  var previous: Value?
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, key: Transform?, isDuplicate: Comparison? = nil) {
    self.downstream = downstream
    self.key = key
    self.isDuplicate = isDuplicate
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    // A `switch` with the work inside its case borrows the value from `event` (see Map).
    switch event {
    case .next(let value):
      if let isDuplicate {
        do throws(StepFailure) {
          let last = previous
          previous = value
          let duplicate = try last.map { last throws(StepFailure) in try isDuplicate(last, value, index) } ?? false
          index += 1
          if !duplicate { downstream.receive(event) }
        } catch {
          link.end(with: .error(error.value), to: downstream)
        }
        return
      }
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
