import FlowrunCore
import Foundation
public import OpenCombineShim

/// A Combine `Scheduler` whose clock is a scenario's frames: `now` is the current frame times
/// the scenario's `tick`, and an action scheduled for an instant runs at the first frame not
/// before it, in the run's `(frame, sequence)` order. So `debounce`, `throttle`, `delay`,
/// `timeout` and `receive(on:)` in the code run in virtual time, deterministically, without
/// sleeping.
///
/// It is shaped like combine-schedulers' `TestScheduler`, but the run advances it: the code
/// never calls `advance`. Like the run it belongs to, it is single-threaded: it is `Sendable`
/// so that it can be stored where Combine asks for it, and every use checks that it is on the
/// thread running the scenario (a use from another thread stops the test at once instead of
/// racing). Anything scheduled after the run has ended is dropped.
public struct FlowScheduler: Scheduler, @unchecked Sendable {
  public typealias SchedulerOptions = Never

  /// An instant of the run: nanoseconds since frame 0.
  public struct SchedulerTimeType: Strideable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since frame 0 (frame n is n × the scenario's tick).
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after frame 0.
    public init(nanoseconds: Int64) {
      self.nanoseconds = nanoseconds
    }

    public func distance(to other: Self) -> Stride { Stride(nanoseconds: other.nanoseconds - nanoseconds) }
    public func advanced(by n: Stride) -> Self { Self(nanoseconds: nanoseconds + n.nanoseconds) }
    public var description: String { "\(nanoseconds)ns" }

    /// A length of time, as Combine operators take it (`.milliseconds(300)`); an integer or
    /// decimal literal is in seconds, as for `DispatchQueue`'s scheduler.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
      Hashable, Sendable
    {
      public var nanoseconds: Int64

      public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
      }

      public static func seconds(_ s: Int) -> Self { Self(nanoseconds: Int64(s) * 1_000_000_000) }
      public static func seconds(_ s: Double) -> Self { Self(nanoseconds: Int64((s * 1e9).rounded())) }
      public static func milliseconds(_ ms: Int) -> Self { Self(nanoseconds: Int64(ms) * 1_000_000) }
      public static func microseconds(_ us: Int) -> Self { Self(nanoseconds: Int64(us) * 1_000) }
      public static func nanoseconds(_ ns: Int) -> Self { Self(nanoseconds: Int64(ns)) }

      public init(integerLiteral value: Int64) { self = .seconds(Int(value)) }
      public init(floatLiteral value: Double) { self = .seconds(value) }
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = Int(exactly: source) else { return nil }
        self = .seconds(seconds)
      }

      public var magnitude: UInt64 { nanoseconds.magnitude }
      public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
      public static func + (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.nanoseconds + rhs.nanoseconds) }
      public static func - (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.nanoseconds - rhs.nanoseconds) }
      public static func * (lhs: Self, rhs: Self) -> Self {
        Self(nanoseconds: lhs.nanoseconds * rhs.nanoseconds / 1_000_000_000)
      }
      public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
      public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
      public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }
    }
  }

  let clock: FlowClock

  init(clock: FlowClock) {
    self.clock = clock
  }

  /// The current frame's instant.
  public var now: SchedulerTimeType {
    clock.checkThread()
    return SchedulerTimeType(nanoseconds: Int64(clock.scheduler?.now ?? clock.lastFrame) * clock.tick)
  }

  /// The current frame.
  public var frame: Int {
    clock.checkThread()
    return clock.scheduler?.now ?? clock.lastFrame
  }

  /// Zero: an action runs at its frame exactly, whatever tolerance the code asks for.
  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// Runs `action` later in the current frame, after what is already due (as combine-schedulers'
  /// `TestScheduler` does: nothing runs inside the call).
  public func schedule(options: Never?, _ action: @escaping () -> Void) {
    clock.schedule(atFrame: clock.scheduler?.now ?? 0, action)
  }

  /// Runs `action` at the first frame not before `date` (Combine gives an absolute instant).
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) {
    clock.schedule(atFrame: clock.frame(of: date), action)
  }

  /// Runs `action` at `date` and then every `interval`, until cancelled.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    let repeating = RepeatingAction(clock: clock, first: date, interval: interval, body: action)
    let token = clock.pending.begin(
      PendingWork.Item(
        since: frame, what: "a repeating timer of flow.scheduler (every \(interval.nanoseconds) ns)",
        name: "FlowScheduler"))
    clock.schedule(repeating, atFrame: clock.frame(of: date))
    return AnyCancellable { [pending = clock.pending] in
      pending.end(token)
      repeating.cancel()
    }
  }
}

/// The run's scheduler seen from the code: its tick, its thread.
final class FlowClock {
  weak var scheduler: VirtualTimeScheduler?
  /// The length of a frame in nanoseconds.
  let tick: Int64
  /// The frame the run ended at (what `now` reads afterwards).
  var lastFrame = 0
  private let thread = pthread_self()
  let owner = NodeLabel("FlowScheduler")
  let pending: PendingWork

  init(scheduler: VirtualTimeScheduler, tick: Int64, pending: PendingWork) {
    self.scheduler = scheduler
    self.tick = max(tick, 1)
    self.pending = pending
  }

  func checkThread() {
    precondition(
      pthread_equal(pthread_self(), thread) != 0,
      "FlowScheduler: used off the thread that runs the scenario (the run is single-threaded)")
  }

  /// The first frame not before `date`: a time between two frames rounds up, so that nothing
  /// runs early.
  func frame(of date: FlowScheduler.SchedulerTimeType) -> Int {
    let nanoseconds = max(date.nanoseconds, 0)
    let (quotient, remainder) = nanoseconds.quotientAndRemainder(dividingBy: tick)
    return Int(remainder == 0 ? quotient : quotient + 1)
  }

  func schedule(atFrame frame: Int, _ action: @escaping () -> Void) {
    checkThread()
    guard let scheduler else { return }
    let pending = self.pending
    let token = pending.begin(
      PendingWork.Item(
        since: scheduler.now, due: max(frame, scheduler.now), what: "an action of flow.scheduler", name: "FlowScheduler"
      ))
    scheduler.schedule(
      at: frame,
      ClosureAction(owner: owner) {
        pending.end(token)
        action()
      })
  }

  func schedule(_ action: RepeatingAction, atFrame frame: Int) {
    checkThread()
    scheduler?.schedule(at: frame, action)
  }
}

/// An action that reschedules itself every `interval` until cancelled.
final class RepeatingAction: ScheduledAction {
  private let clock: FlowClock
  private var next: FlowScheduler.SchedulerTimeType
  private let interval: FlowScheduler.SchedulerTimeType.Stride
  private let body: () -> Void
  private(set) var isCancelled = false
  var owner: NodeLabel { clock.owner }

  init(
    clock: FlowClock, first: FlowScheduler.SchedulerTimeType, interval: FlowScheduler.SchedulerTimeType.Stride,
    body: @escaping () -> Void
  ) {
    self.clock = clock
    self.next = first
    self.interval = interval.nanoseconds > 0 ? interval : .nanoseconds(Int(clock.tick))
    self.body = body
  }

  func perform(_ argument: Int) {
    guard !isCancelled else { return }
    next = next.advanced(by: interval)
    clock.schedule(self, atFrame: clock.frame(of: next))
    body()
  }

  func cancel() {
    isCancelled = true
  }
}
