/// `filter: expr`: only the values for which the predicate is true.
///
/// ```
/// source: -1-2-3-4-|
/// filter: ---2---4-|   (filter: '$0 % 2 == 0')
/// ```
extension Source {
  public func filter(_ predicate: @escaping Predicate) -> any Source {
    OperatorSource(self) { FilterObserver(downstream: $0, predicate: predicate) }
  }
}

private final class FilterObserver: UnaryOperator {
  let downstream: any Observer
  let predicate: Predicate
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, predicate: @escaping Predicate) {
    self.downstream = downstream
    self.predicate = predicate
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    // A `switch` with the predicate inside its case borrows the value from `event` (see Map).
    switch event {
    case .next(let value):
      do throws(StepFailure) {
        let passes = try predicate(value, index)
        index += 1
        if passes { downstream.receive(event) }
      } catch {
        link.end(with: .error(error.value), to: downstream)
      }
    case .error, .completed:
      link.finish()
      downstream.receive(event)
    }
  }

  func dispose() {
    link.dispose()
  }
}

extension FilterObserver: DemandingObserver {
  var wantsValue: Bool { !link.isFinished && FlowrunCore.wantsValue(downstream) }
  var isOpen: Bool { !link.isFinished && FlowrunCore.isOpen(downstream) }
  func whenWanting(_ resume: @escaping () -> Void) {
    (downstream as? any DemandingObserver)?.whenWanting(resume)
  }
}
