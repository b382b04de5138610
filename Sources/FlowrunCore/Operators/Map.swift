/// `map: expr` (and `mapTo: value`): each value transformed; a failing transform sends its
/// error and ends the subscription, as a throwing closure does in ReactiveX.
///
/// ```
/// source: -1-2-3-|
/// map:    -2-4-6-|   (map: '$0 * 2')
/// ```
extension Source {
  public func map(_ transform: @escaping Transform) -> any Source {
    OperatorSource(self) { MapObserver(downstream: $0, transform: transform) }
  }
}

private final class MapObserver: UnaryOperator {
  let downstream: any Observer
  let transform: Transform
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, transform: @escaping Transform) {
    self.downstream = downstream
    self.transform = transform
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    // A `switch` with the transform inside its case borrows the value from `event`; binding it
    // with `guard case` first makes the optimiser copy it (a retain per value).
    switch event {
    case .next(let value):
      do throws(StepFailure) {
        let result = try transform(value, index)
        index += 1
        downstream.receive(.next(result))
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

extension MapObserver: DemandingObserver {
  var wantsValue: Bool { !link.isFinished && FlowrunCore.wantsValue(downstream) }
  var isOpen: Bool { !link.isFinished && FlowrunCore.isOpen(downstream) }
  func whenWanting(_ resume: @escaping () -> Void) {
    (downstream as? any DemandingObserver)?.whenWanting(resume)
  }
}
