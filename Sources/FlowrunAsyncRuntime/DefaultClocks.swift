import Foundation
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// The sleeps of the code's default clocks — `Task.sleep(for:)`, `Task.sleep(nanoseconds:)`,
/// `Task.sleep(until:clock:)` and `sleep` on `ContinuousClock` or `SuspendingClock`, and
/// everything swift-async-algorithms times with such a clock — on the scenario's frames.
///
/// Swift 6.3 sends such a sleep neither through the runtime's delay or deadline hooks nor to
/// the executor the task runs on, but to the scheduling executor of the task's executor
/// preference, else to the default executor (measured in docs/testing-real-code.md, "Sleeps on
/// the default clocks"). So the first run installs a default executor of its own
/// (``VirtualDefaultExecutor``, through the runtime's `_createExecutors(factory:)`): a sleep
/// that reaches it from the thread of a run waits for the run's frames; any other sleep, and
/// every ordinary job, goes to the executor the process had, in real time, as before.
enum DefaultClocks {
  /// Installs the executor once for the process; true when the sleeps of the default clocks
  /// now reach the runs.
  static let isInstalled: Bool = {
    #if compiler(>=6.2)
      if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *) {
        VirtualDefaultExecutor.original = Task.defaultExecutor
        _createExecutors(factory: VirtualExecutorFactory.self)
        return Task.defaultExecutor is VirtualDefaultExecutor
      }
    #endif
    return false
  }()

  /// The number of nanoseconds a sleep lasts, from its deadline read against the real instant
  /// the run's current job began (`late`, which counts the time the job took before sleeping,
  /// so never short) and against the real instant it reached the executor (`early`, never
  /// long): the roundest duration between them (most trailing zeros), the latest of those,
  /// since the code asked for one of them and code asks for round durations.
  static func duration(early: Int64, late: Int64) -> Int64 {
    let low = max(early, 0)
    let high = max(late, low)
    var power: Int64 = 1_000_000_000_000
    while power > 1 {
      let candidate = high / power * power
      if candidate >= low { return candidate }
      power /= 10
    }
    return high
  }

  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? Int64.min / 2 : Int64.max / 2 }
    return whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
  }
}

#if compiler(>=6.2)
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *)
  enum VirtualExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { MainActor.executor }
    static var defaultExecutor: any TaskExecutor { VirtualDefaultExecutor.shared }
  }

  /// The process's default executor while `FlowrunTesting` is loaded: ordinary jobs go to the
  /// run of the calling thread (as the global enqueue hook sends them) or to the executor the
  /// process had; a sleep on `ContinuousClock` or `SuspendingClock` from the thread of a run is
  /// armed on the run's frames (``AsyncRuntime``), any other on the executor the process had.
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *)
  final class VirtualDefaultExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    static let shared = VirtualDefaultExecutor()
    /// The executor the process had; set once, before this one is installed.
    nonisolated(unsafe) static var original: (any TaskExecutor)?

    private init() {}

    var asSchedulingExecutor: (any SchedulingExecutor)? { self }

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      if !EnqueueHook.takeGlobalIntoRun(job) {
        EnqueueHook.outsideRuns { Self.original?.enqueue(ExecutorJob(job)) }
      }
    }

    func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
      let job = UnownedJob(job)
      if let runtime = EnqueueHook.current, runtime.accepts(job), let delay = delay as? Duration,
        C.self == ContinuousClock.self || C.self == SuspendingClock.self
      {
        let nanoseconds = DefaultClocks.nanoseconds(delay)
        runtime.sleep(job, nanoseconds: nanoseconds, clock: "\(C.self)")
        return
      }
      let scheduling = Self.original as? any SchedulingExecutor
      scheduling?.enqueue(ExecutorJob(job), after: delay, tolerance: tolerance, clock: clock)
    }

    func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
      let job = UnownedJob(job)
      if let runtime = EnqueueHook.current, runtime.accepts(job), let span = Self.span(to: instant) {
        runtime.sleep(
          job, nanoseconds: DefaultClocks.duration(early: span.early, late: span.late(runtime)),
          clock: "\(C.self)")
        return
      }
      let scheduling = Self.original as? any SchedulingExecutor
      scheduling?.enqueue(ExecutorJob(job), at: instant, tolerance: tolerance, clock: clock)
    }

    /// How far `instant` is from now (`early`) and from the start of the run's current job
    /// (`late`), when it is an instant of `ContinuousClock` or `SuspendingClock`.
    private static func span<Instant>(to instant: Instant) -> (early: Int64, late: (AsyncRuntime) -> Int64)? {
      if let instant = instant as? ContinuousClock.Instant {
        let early = DefaultClocks.nanoseconds(ContinuousClock.now.duration(to: instant))
        return (early, { DefaultClocks.nanoseconds(($0.jobStart?.continuous ?? .now).duration(to: instant)) })
      }
      if let instant = instant as? SuspendingClock.Instant {
        let early = DefaultClocks.nanoseconds(SuspendingClock.now.duration(to: instant))
        return (early, { DefaultClocks.nanoseconds(($0.jobStart?.suspending ?? .now).duration(to: instant)) })
      }
      return nil
    }
  }
#endif
