/// `skipWhile: expr`: drops values while the predicate holds, then passes everything.
///
/// ```
/// source:               -1-2-3-1-|
/// skipWhile: '$0 < 3'   -----3-1-|
/// ```
extension Source {
  public func skipWhile(_ predicate: @escaping Predicate) -> any Source {
    OperatorSource(self) { SkipWhileObserver(downstream: $0, predicate: predicate) }
  }
}

private final class SkipWhileObserver: UnaryOperator {
  let downstream: any Observer
  let predicate: Predicate
  let link = UpstreamLink()
  var isSkipping = true
  var index = 0

  init(downstream: any Observer, predicate: @escaping Predicate) {
    self.downstream = downstream
    self.predicate = predicate
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    guard case .next(let value) = event else {
      link.finish()
      return downstream.receive(event)
    }
    if isSkipping {
      do throws(StepFailure) {
        isSkipping = try predicate(value, index)
      } catch {
        return link.end(with: .error(error.value), to: downstream)
      }
      index += 1
      if isSkipping { return }
    }
    downstream.receive(event)
  }

  func dispose() {
    link.dispose()
  }
}
