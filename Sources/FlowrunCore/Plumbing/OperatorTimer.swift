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
///
/// A class held by a `let`, so that scheduling (which calls into the scheduler) and
/// cancelling (which may release the operator) happen outside any access to the operator's
/// stored properties: none of them needs a dynamic exclusivity check.
final class TimerSlot {
  /// The live timer, or a cancelled one (cancelling keeps the reference: one weak store less
  /// per restart of a `debounce`).
  private weak var timer: OperatorTimer?

  var isPending: Bool {
    guard let timer else { return false }
    return !timer.isCancelled
  }

  func schedule(
    after delay: Int, argument: Int = 0, on runtime: Runtime, owner: NodeLabel, target: any TimerTarget
  ) {
    let live: OperatorTimer
    if let timer, !timer.isCancelled {
      live = timer
    } else {
      live = OperatorTimer(owner: owner, target: target)
      timer = live
    }
    runtime.scheduler.schedule(after: delay, live, argument: argument)
  }

  func cancel() {
    timer?.cancel()
  }
}
