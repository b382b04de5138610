/// `last` / `last: expr`: the last value (that passes the test), sent when the source completes;
/// an empty source sends the `default:` value, else fails with `"no elements in sequence"`.
///
/// ```
/// source:        -1-2-3-|
/// last: '$0<3'   -------(2|)
/// ```
extension Source {
  /// The last value for which `predicate` (when given) holds; on an empty source,
  /// `defaultValue` or an error.
  /// `ifEmpty` as for `first` (Combine's `last()` finishes).
  public func last(where predicate: Predicate?, default defaultValue: Value?, ifEmpty: EmptyOutcome = .fails)
    -> any Source
  {
    OperatorSource(self) { LastObserver(downstream: $0, predicate: predicate, latest: defaultValue, ifEmpty: ifEmpty) }
  }
}

private final class LastObserver: UnaryOperator {
  let downstream: any Observer
  let predicate: Predicate?
  let link = UpstreamLink()
  /// The last passing value, or the default until one passed.
  var latest: Value?
  let ifEmpty: EmptyOutcome
  var index = 0

  init(downstream: any Observer, predicate: Predicate?, latest: Value?, ifEmpty: EmptyOutcome) {
    self.downstream = downstream
    self.predicate = predicate
    self.latest = latest
    self.ifEmpty = ifEmpty
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      defer { index += 1 }
      if let predicate {
        do throws(StepFailure) {
          guard try predicate(value, index) else { return }
        } catch {
          return link.end(with: .error(error.value), to: downstream)
        }
      }
      latest = value
    case .error:
      link.finish()
      downstream.receive(event)
    case .completed:
      link.finish()
      guard let latest else {
        for event in ifEmpty.events { downstream.receive(event) }
        return
      }
      downstream.receive(.next(latest))
      downstream.receive(.completed)
    }
  }

  func dispose() {
    link.dispose()
  }
}
