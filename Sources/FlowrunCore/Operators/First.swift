/// `first` / `first: expr`: the first value (that passes the test), then completed; an empty
/// source sends the `default:` value, else fails with `"no elements in sequence"` (RxJS 7).
///
/// ```
/// source:        -1-2-3-|
/// first: '$0>1'  ---(2|)
/// ```
extension Source {
  /// The first value for which `predicate` (when given) holds; on an empty source,
  /// `defaultValue` or an error.
  public func first(where predicate: Predicate?, default defaultValue: Value?) -> any Source {
    OperatorSource(self) { FirstObserver(downstream: $0, predicate: predicate, defaultValue: defaultValue) }
  }
}

extension Value {
  /// The error of `first`/`last` on a source with no (passing) value and no default.
  public static let noElementsError = Value.string("no elements in sequence")
}

private final class FirstObserver: UnaryOperator {
  let downstream: any Observer
  let predicate: Predicate?
  let defaultValue: Value?
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, predicate: Predicate?, defaultValue: Value?) {
    self.downstream = downstream
    self.predicate = predicate
    self.defaultValue = defaultValue
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
      let upstream = link.detach()
      downstream.receive(event)
      downstream.receive(.completed)
      upstream?.dispose()
    case .error:
      link.finish()
      downstream.receive(event)
    case .completed:
      link.finish()
      guard let defaultValue else { return downstream.receive(.error(.noElementsError)) }
      downstream.receive(.next(defaultValue))
      downstream.receive(.completed)
    }
  }

  func dispose() {
    link.dispose()
  }
}
