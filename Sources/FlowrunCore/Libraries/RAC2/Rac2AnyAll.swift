/// RAC2's `-any:` and `-all:` (ReactiveObjC `RACSignal+Operations.m`, over `-materialize`):
/// one Bool, then completed.
///
/// `any`: `true` at the first value that passes the test, `false` when the source finishes
/// first (completes **or fails**). `all`: `false` at the first value that fails the test or at
/// an error, `true` when the source completes.
///
/// ```
/// source:        -a-b-|     -a-#
/// any: $0 == b   ---(t|)    ---(f|)
/// all: $0 == a   ---(f|)    ---(f|)
/// ```
extension Source {
  public func rac2Any(_ predicate: @escaping Predicate) -> any Source {
    OperatorSource(self) { Rac2AnyAllObserver(downstream: $0, isAll: false, predicate: predicate) }
  }

  public func rac2All(_ predicate: @escaping Predicate) -> any Source {
    OperatorSource(self) { Rac2AnyAllObserver(downstream: $0, isAll: true, predicate: predicate) }
  }
}

private final class Rac2AnyAllObserver: UnaryOperator {
  let downstream: any Observer
  let isAll: Bool
  let predicate: Predicate
  let link = UpstreamLink()
  var index = 0

  init(downstream: any Observer, isAll: Bool, predicate: @escaping Predicate) {
    self.downstream = downstream
    self.isAll = isAll
    self.predicate = predicate
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      let passed: Bool
      do throws(StepFailure) {
        passed = try predicate(value, index)
      } catch {
        return link.end(with: .error(error.value), to: downstream)
      }
      index += 1
      if passed != isAll { answer(passed) }
    case .error:
      link.finish()
      answer(false)
    case .completed:
      link.finish()
      answer(isAll)
    }
  }

  private func answer(_ flag: Bool) {
    let upstream = link.detach()
    downstream.receive(.next(.bool(flag)))
    downstream.receive(.completed)
    upstream?.dispose()
  }

  func dispose() {
    link.dispose()
  }
}
