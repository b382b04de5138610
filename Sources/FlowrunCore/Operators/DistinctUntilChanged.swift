/// `distinctUntilChanged` (optionally by a key expression): drops a value deeply equal to the
/// previous one.
///
/// ```
/// source:               -a-a-b-a-|
/// distinctUntilChanged: -a---b-a-|
/// ```
extension Source {
  /// Compares the values themselves, or the keys `key` makes of them.
  public func distinctUntilChanged(by key: Transform? = nil) -> any Source {
    OperatorSource(self) { DistinctObserver(downstream: $0, key: key) }
  }
}

private final class DistinctObserver: UnaryOperator {
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
