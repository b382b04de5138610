/// `debounce: d`: the latest value after `d` frames without a new one (RAC2 `-throttle:`).
///
/// Each value restarts the timer. On completion the pending value is sent, then completed; an
/// error is forwarded at once and the pending value dropped.
///
/// ```
/// source:       -a-b-----c--|
/// debounce: 2   -----b-----c|   (c is still pending at completion: sent with it)
/// ```
///
/// Combine's `debounce(for:)` (`dropsPendingOnEnd`) drops the pending value when the source
/// terminates, and sends the completion or failure as a new scheduler action at the same frame.
///
/// RAC2's `-throttle:valuesPassingTest:` (`valuesPassing`) holds only the values that pass the
/// test; another value drops the pending one and is sent at once (ROC `flushNext(NO)`, then
/// `sendNext:`).
extension Source {
  public func debounce(_ timing: Timing, dropsPendingOnEnd: Bool = false, valuesPassing test: Predicate? = nil)
    -> any Source
  {
    timed(timing) {
      DebounceObserver(downstream: $0, timer: $1, dropsPendingOnEnd: dropsPendingOnEnd, test: test)
    }
  }
}

private final class DebounceObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let dropsPendingOnEnd: Bool
  let test: Predicate?
  let link = UpstreamLink()
  var index = 0
  var pending: Value?
  /// Combine: the terminal event, sent by a timer at the same frame.
  var scheduledEnd: Event?

  init(downstream: any Observer, timer: TimerSlot, dropsPendingOnEnd: Bool, test: Predicate?) {
    self.downstream = downstream
    self.timer = timer
    self.dropsPendingOnEnd = dropsPendingOnEnd
    self.test = test
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    timer.cancel()
    if dropsPendingOnEnd, event.isTerminal {
      link.finish()
      pending = nil
      scheduledEnd = event
      return timer.schedule(after: 0, target: self)
    }
    switch event {
    case .next(let value):
      if let test {
        let position = index
        index += 1
        let throttles: Bool
        do throws(StepFailure) {
          throttles = try test(value, position)
        } catch {
          pending = nil
          link.finish()
          return downstream.receive(.error(error.value))
        }
        guard throttles else {
          pending = nil
          return downstream.receive(event)
        }
      }
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
    if let event = scheduledEnd {
      scheduledEnd = nil
      return downstream.receive(event)
    }
    guard !link.isFinished, let value = pending else { return }
    pending = nil
    downstream.receive(.next(value))
  }

  func dispose() {
    timer.cancel()
    pending = nil
    scheduledEnd = nil
    link.dispose()
  }
}
