/// `debounce: d`: the latest value after `d` frames without a new one (RAC2 `-throttle:`).
///
/// Each value restarts the timer. On completion the pending value is sent, then completed; an
/// error is forwarded at once and the pending value dropped.
///
/// ```
/// source:       -a-b-----c--|
/// debounce: 2   -----b-----c|   (c is still pending at completion: sent with it)
/// ```
extension Source {
  public func debounce(_ timing: Timing) -> any Source {
    timed(timing) { DebounceObserver(downstream: $0, timer: $1) }
  }
}

private final class DebounceObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let link = UpstreamLink()
  var pending: Value?

  init(downstream: any Observer, timer: TimerSlot) {
    self.downstream = downstream
    self.timer = timer
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    timer.cancel()
    switch event {
    case .next(let value):
      pending = value
      timer.schedule(target: self)
    case .error:
      pending = nil
      link.finish()
      downstream.receive(event)
    case .completed:
      link.finish()
      if let value = pending {
        pending = nil
        downstream.receive(.next(value))
      }
      downstream.receive(.completed)
    }
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    guard !link.isFinished, let value = pending else { return }
    pending = nil
    downstream.receive(.next(value))
  }

  func dispose() {
    timer.cancel()
    pending = nil
    link.dispose()
  }
}
