/// `first` / `first: expr`: the first value (that passes the test), then completed; an empty
/// source sends the `default:` value, else fails with `"no elements in sequence"` (RxJS 7), or,
/// by `ifEmpty`, finishes (Combine's `first()`: OpenCombine `Publishers.First`, a
/// `ReduceProducer` that sends nothing before `.finished`) or stays silent (a Combine `Future`
/// whose promise is never called).
///
/// ```
/// source:        -1-2-3-|
/// first: '$0>1'  ---(2|)
/// ```
extension Source {
  /// The first value for which `predicate` (when given) holds; on an empty source,
  /// `defaultValue` or an error.
  public func first(
    where predicate: Predicate?, default defaultValue: Value?, ifEmpty: EmptyOutcome = .fails
  ) -> any Source {
    OperatorSource(self) {
      FirstObserver(downstream: $0, predicate: predicate, defaultValue: defaultValue, ifEmpty: ifEmpty)
    }
  }
}

/// What `first` and `last` do when the source completes without a (passing) value and no
/// default is given.
public enum EmptyOutcome: Sendable {
  /// Fail with `"no elements in sequence"` (RxJS 7, RxSwift).
  case fails
  /// Complete without a value (Combine's `first()`, `last()`, `first(where:)`).
  case finishes
  /// Send nothing at all (a Combine `Future` whose promise is never fulfilled).
  case staysSilent

  /// The events sent for an empty source.
  var events: [Event] {
    switch self {
    case .fails: [.error(.noElementsError)]
    case .finishes: [.completed]
    case .staysSilent: []
    }
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
  let ifEmpty: EmptyOutcome
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, predicate: Predicate?, defaultValue: Value?, ifEmpty: EmptyOutcome) {
    self.downstream = downstream
    self.predicate = predicate
    self.defaultValue = defaultValue
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
      let upstream = link.detach()
      downstream.receive(event)
      downstream.receive(.completed)
      upstream?.dispose()
    case .error:
      link.finish()
      downstream.receive(event)
    case .completed:
      link.finish()
      guard let defaultValue else {
        for event in ifEmpty.events { downstream.receive(event) }
        return
      }
      downstream.receive(.next(defaultValue))
      downstream.receive(.completed)
    }
  }

  func dispose() {
    link.dispose()
  }
}

/// A `first` that has its value wants no more (a Combine `prepend` above it stops).
extension FirstObserver: DemandingObserver {
  var wantsValue: Bool { !link.isFinished && FlowrunCore.wantsValue(downstream) }
  var isOpen: Bool { !link.isFinished && FlowrunCore.isOpen(downstream) }
  func whenWanting(_ resume: @escaping () -> Void) {
    guard !link.isFinished else { return }
    (downstream as? any DemandingObserver)?.whenWanting(resume)
  }
}
