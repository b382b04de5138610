/// `delay: d`: every value `d` frames later; the completion follows the last delayed value, or
/// comes at once when no value is pending (RxJS 7). An error is forwarded at once and the pending
/// values dropped.
///
/// ```
/// source:    -a-b-|
/// delay: 2   ---a-(b|)
/// ```
///
/// RAC2's and RxSwift's `delay` also delay the completion (`delaysCompletion`: it comes `d`
/// frames after the source's, even with no value pending); Combine's delays the failure too
/// (`delaysError`).
extension Source {
  public func delay(_ timing: Timing, delaysCompletion: Bool = false, delaysError: Bool = false) -> any Source {
    timed(timing) {
      DelayObserver(downstream: $0, timers: $1, delaysCompletion: delaysCompletion, delaysError: delaysError)
    }
  }
}

private final class DelayObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timers: TimerSlot
  let delaysCompletion: Bool
  let delaysError: Bool
  let link = UpstreamLink()
  /// Values waiting for their timer, oldest first (all delays are equal, so timers fire in this
  /// order).
  let queue = PendingQueue<Value>()
  var sourceCompleted = false
  /// A terminal event waiting for its own timer, which fires after every pending value's.
  var delayedTerminal: Event?
  var isDone = false

  init(downstream: any Observer, timers: TimerSlot, delaysCompletion: Bool, delaysError: Bool) {
    self.downstream = downstream
    self.timers = timers
    self.delaysCompletion = delaysCompletion
    self.delaysError = delaysError
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      queue.append(value)
      timers.schedule(target: self)
    case .error where delaysError, .completed where delaysCompletion:
      link.finish()
      delayedTerminal = event
      timers.schedule(target: self)
    case .error:
      end(with: event)
    case .completed:
      link.finish()
      sourceCompleted = true
      if queue.isEmpty { end(with: .completed) }
    }
  }

  func timerFired(_ argument: Int) {
    guard !isDone else { return }
    guard let value = queue.removeFirst() else {
      if let terminal = delayedTerminal { end(with: terminal) }
      return
    }
    downstream.receive(.next(value))
    if sourceCompleted, !isDone, queue.isEmpty { end(with: .completed) }
  }

  private func end(with event: Event) {
    isDone = true
    timers.cancel()
    queue.removeAll()
    link.end(with: event, to: downstream)
  }

  func dispose() {
    isDone = true
    timers.cancel()
    queue.removeAll()
    link.dispose()
  }
}
