/// `pairwise`: from the second value on, each value with the one before it as a list
/// `[previous, current]` (`$0`, `$1` in the next step).
///
/// ```
/// source:   -a-b-c-|
/// pairwise: ---x-y-|   (x = [a, b], y = [b, c])
/// ```
extension Source {
  public func pairwise() -> any Source {
    OperatorSource(self) { PairwiseObserver(downstream: $0) }
  }
}

private final class PairwiseObserver: UnaryOperator {
  let downstream: any Observer
  let link = UpstreamLink()
  var previous: Value?

  init(downstream: any Observer) {
    self.downstream = downstream
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    guard case .next(let value) = event else {
      link.finish()
      return downstream.receive(event)
    }
    let before = previous
    previous = value
    if let before { downstream.receive(.next(.list([before, value]))) }
  }

  func dispose() {
    link.dispose()
  }
}
