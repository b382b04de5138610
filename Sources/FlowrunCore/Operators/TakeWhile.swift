/// `takeWhile: expr` (+ `inclusive: true`): values while the predicate holds; the first value
/// that fails it completes the signal (and is emitted first when inclusive).
///
/// ```
/// source:               -1-2-3-1-|
/// takeWhile: '$0 < 3'   -1-2-|
/// ```
extension Source {
  public func takeWhile(inclusive: Bool = false, _ predicate: @escaping Predicate) -> any Source {
    OperatorSource(self) { TakeWhileObserver(downstream: $0, predicate: predicate, inclusive: inclusive) }
  }
}

private final class TakeWhileObserver: UnaryOperator {
  let downstream: any Observer
  let predicate: Predicate
  let inclusive: Bool
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, predicate: @escaping Predicate, inclusive: Bool) {
    self.downstream = downstream
    self.predicate = predicate
    self.inclusive = inclusive
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    guard case .next(let value) = event else {
      link.finish()
      return downstream.receive(event)
    }
    let passes: Bool
    do throws(StepFailure) {
      passes = try predicate(value, index)
    } catch {
      return link.end(with: .error(error.value), to: downstream)
    }
    index += 1
    if passes { return downstream.receive(event) }
    if inclusive { downstream.receive(event) }
    if !link.isFinished { link.end(with: .completed, to: downstream) }
  }

  func dispose() {
    link.dispose()
  }
}

extension TakeWhileObserver: PassesDemand {}
