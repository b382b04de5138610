/// Makes the signal to continue with from an error value (`catch`).
public typealias Recover = (Value) throws(StepFailure) -> any Source

/// `catch: template` and `catchAndReturn: value`: on an error, continue with the signal the
/// error makes (the name `error` is bound to it) instead of failing.
///
/// ```
/// source:                 -a--#
/// catchAndReturn: x       -a--(x|)
/// ```
extension Source {
  public func catchError(_ recover: @escaping Recover) -> any Source {
    OperatorSource(self) { CatchObserver(downstream: $0, recover: recover) }
  }
}

private final class CatchObserver: UnaryOperator {
  let downstream: any Observer
  let recover: Recover
  let link = UpstreamLink()
  var fallback: UpstreamLink?
  var isDisposed = false

  init(downstream: any Observer, recover: @escaping Recover) {
    self.downstream = downstream
    self.recover = recover
  }

  func receive(_ event: Event) {
    guard !link.isFinished, !isDisposed else { return }
    guard case .error(let error) = event else {
      if event.isTerminal { link.finish() }
      return downstream.receive(event)
    }
    // The failed chain is torn down before the fallback is subscribed (RxJS `catchError`).
    link.dispose()
    let source: any Source
    do throws(StepFailure) {
      source = try recover(error)
    } catch {
      return downstream.receive(.error(error.value))
    }
    let fallback = UpstreamLink()
    self.fallback = fallback
    fallback.attach(source.subscribe(FallbackObserver(downstream: downstream, link: fallback)))
  }

  func dispose() {
    isDisposed = true
    link.dispose()
    fallback?.dispose()
  }
}

extension CatchObserver: PassesDemand {}
