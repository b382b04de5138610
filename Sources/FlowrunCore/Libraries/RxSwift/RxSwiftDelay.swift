/// RxSwift's `delay(_:scheduler:)` (`Observables/Delay.swift`, `DelaySink`): values and the
/// completion are queued with their arrival time and drained by **one** timer. The timer is
/// started by the first event of an idle queue; each time it fires it sends one event and, when
/// more are queued, schedules itself for the next one's due time (`scheduleRecursive`). An error
/// is sent at once and drops the queue, unless it arrives while the timer is sending (then it
/// follows that event).
///
/// Because the next value's timer is scheduled only when the previous one fired, an event that
/// was already due at the same frame (a hot marble's error) comes before it:
///
/// ```
/// source:             -5-5-#
/// delay: 2 (rxswift)  ---5-#
/// ```
extension Source {
  public func rxSwiftDelay(_ timing: Timing) -> any Source {
    timed(timing) { RxSwiftDelayObserver(downstream: $0, timer: $1, runtime: timing.runtime) }
  }
}

private final class RxSwiftDelayObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  unowned let runtime: Runtime
  let link = UpstreamLink()
  /// Values and the completion with the frame they arrived at (`queue`).
  let queue = PendingQueue<(frame: Int, event: Event)>()
  /// The timer is scheduled (`active`).
  var active = false
  /// The timer's action is sending an event (`running`).
  var running = false
  var failure: Event?
  var isDone = false

  init(downstream: any Observer, timer: TimerSlot, runtime: Runtime) {
    self.downstream = downstream
    self.timer = timer
    self.runtime = runtime
  }

  func receive(_ event: Event) {
    guard !isDone, !link.isFinished else { return }
    if event.isTerminal { link.finish() }
    if case .error = event {
      queue.removeAll()
      failure = event
      if !running { end(with: event) }
      return
    }
    queue.append((runtime.now, event))
    guard !active else { return }
    active = true
    timer.schedule(target: self)
  }

  /// `drainQueue`: one event, then the next one's timer.
  func timerFired(_ argument: Int) {
    guard !isDone, failure == nil, let first = queue.removeFirst() else { return }
    running = true
    if case .completed = first.event { return end(with: .completed) }
    downstream.receive(first.event)
    guard !isDone else { return }
    running = false
    if let failure { return end(with: failure) }
    if let next = queue.first {
      timer.schedule(after: max(0, timer.duration - (runtime.now - next.frame)), target: self)
    } else {
      active = false
    }
  }

  private func end(with event: Event) {
    isDone = true
    timer.cancel()
    queue.removeAll()
    link.end(with: event, to: downstream)
  }

  func dispose() {
    isDone = true
    timer.cancel()
    queue.removeAll()
    link.dispose()
  }
}
