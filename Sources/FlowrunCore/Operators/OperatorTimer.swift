/// The timer of a time operator (`debounce`, `throttle`, `delay`, `timeout`, `bufferTime` …):
/// a scheduled action that calls its operator back until cancelled.
///
/// The scheduler holds the timer while it is pending and the timer holds its operator, so a
/// subscription whose only owner is its upstream still fires; the operator holds its timer
/// weakly (`TimerSlot`), so cancelling releases the operator at once and nothing forms a cycle.
///
/// ```
/// source:    -a--|          debounce: 2
/// timer:     -^-x           (scheduled when `a` arrives, fires 2 frames later)
/// ```
protocol TimerTarget: AnyObject {
  func timerFired(_ argument: Int)
}

final class OperatorTimer: ScheduledAction {
  let owner: NodeLabel
  private var target: (any TimerTarget)?

  init(owner: NodeLabel, target: any TimerTarget) {
    self.owner = owner
    self.target = target
  }

  func perform(_ argument: Int) {
    target?.timerFired(argument)
  }

  func cancel() {
    target = nil
  }

  var isCancelled: Bool { target == nil }
}

/// An operator's handle on its pending timer entries: scheduling reuses the live timer,
/// `cancel()` silences every entry scheduled so far.
struct TimerSlot {
  private weak var timer: OperatorTimer?

  var isPending: Bool { timer != nil }

  mutating func schedule(
    after delay: Int, argument: Int = 0, on runtime: Runtime, owner: NodeLabel, target: any TimerTarget
  ) {
    let timer = self.timer ?? OperatorTimer(owner: owner, target: target)
    self.timer = timer
    runtime.scheduler.schedule(after: delay, timer, argument: argument)
  }

  mutating func cancel() {
    timer?.cancel()
    timer = nil
  }
}
