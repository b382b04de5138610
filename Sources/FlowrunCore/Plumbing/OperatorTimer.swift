/// How a time operator's timers run: `duration` frames each, on the scheduler of `runtime`,
/// charged to `owner` (the node a time-limit diagnostic names).
public struct Timing {
  public var duration: Int
  public var owner: NodeLabel
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  public unowned let runtime: Runtime

  public init(_ duration: Int, owner: NodeLabel, runtime: Runtime) {
    self.duration = duration
    self.owner = owner
    self.runtime = runtime
  }
}

extension Source {
  /// A time operator (`debounce`, `throttle`, `delay`, `delaySubscription`, `timeout`,
  /// `timeoutRAC` …) applied to this source: each subscription gets its own timer.
  func timed<Subscription: OperatorSubscription>(
    _ timing: Timing, _ make: @escaping (_ downstream: any Observer, _ timer: TimerSlot) -> Subscription
  ) -> any Source {
    OperatorSource(self) { make($0, TimerSlot(timing)) }
  }
}

/// What a timer calls back when it fires, with the argument it was scheduled with.
protocol TimerTarget: AnyObject {
  func timerFired(_ argument: Int)
}

/// The timer of a time operator (`debounce`, `throttle`, `delay`, `timeout`, `bufferTime` …):
/// a scheduled action that calls its operator back until cancelled. (Once a run failed, the
/// scheduler performs no action any more: no timer fires after a failure.)
///
/// The scheduler holds the timer while it is pending and the timer holds its operator, so a
/// subscription whose only owner is its upstream still fires; the operator holds its timer
/// weakly (`TimerSlot`), so cancelling releases the operator at once and nothing forms a cycle.
///
/// ```
/// source:    -a--|          debounce: 2
/// timer:     -^-x           (scheduled when `a` arrives, fires 2 frames later)
/// ```
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
  var armedWork: String? { "a timer" }
}

/// An operator's handle on its pending timer entries, set to its `Timing`: scheduling reuses
/// the live timer, `cancel()` silences every entry scheduled so far.
///
/// A class held by a `let`, so that scheduling (which calls into the scheduler) and
/// cancelling (which may release the operator) happen outside any access to the operator's
/// stored properties: none of them needs a dynamic exclusivity check.
final class TimerSlot {
  /// How long the timer runs unless told otherwise.
  let duration: Int
  private let owner: NodeLabel
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  private unowned let runtime: Runtime
  /// The live timer, or a cancelled one (cancelling keeps the reference: one weak store less
  /// per restart of a `debounce`).
  private weak var timer: OperatorTimer?

  init(_ timing: Timing) {
    duration = timing.duration
    owner = timing.owner
    runtime = timing.runtime
  }

  @inline(__always)
  var isPending: Bool {
    guard let timer else { return false }
    return !timer.isCancelled
  }

  /// Calls `target` back `delay` frames from now (default: the timing's duration) with
  /// `argument`.
  @inline(__always)
  func schedule(after delay: Int? = nil, argument: Int = 0, target: any TimerTarget) {
    let live: OperatorTimer
    if let timer, !timer.isCancelled {
      live = timer
    } else {
      live = OperatorTimer(owner: owner, target: target)
      timer = live
    }
    runtime.scheduler.schedule(after: delay ?? duration, live, argument: argument)
  }

  @inline(__always)
  func cancel() {
    timer?.cancel()
  }
}
