import Foundation

/// The Swift runtime's enqueue hooks, pointed at the ``AsyncRuntime`` of the calling thread.
///
/// The runtime calls `swift_task_enqueueGlobal_hook` for every job bound for the global
/// concurrent executor (a new `Task`, a resumed continuation, a task hopping off an actor).
/// Main-actor jobs take another road: Swift 6.3 asks `swift_task_getMainExecutor` which
/// executor the main actor is, every time it hops to it or creates a task on it, and enqueues
/// on the answer's own `enqueue` (on Linux, Dispatch's main queue) without calling
/// `swift_task_enqueueMainExecutor_hook` (only `MainActor.shared.enqueue(_:)` calls that one).
/// So while a run is active on a thread, `swift_task_getMainExecutor_hook` answers
/// ``MainRunExecutor`` on that thread, and a job enqueued from that thread on the global
/// executor or on the main actor goes to the run's queue; any other job (another thread's,
/// another test's) goes on to the original executor, and on any other thread the main actor
/// stays Dispatch's. The hooks are set while at least one run is active and restored when the
/// last one ends, so parallel tests each keep their own jobs: the thread a job is enqueued from
/// says whose it is.
enum EnqueueHook {
  typealias Original = @convention(thin) (UnownedJob) -> Void
  typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
  typealias MainOriginal = @convention(thin) () -> UnownedSerialExecutor
  typealias MainHook = @convention(thin) (MainOriginal) -> UnownedSerialExecutor
  typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
  typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
  typealias DeadlineOriginal = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
  typealias DeadlineHook = @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void

  private struct Installed {
    var count = 0
    var savedGlobal: Hook?
    var savedMain: Hook?
    var savedGetMain: MainHook?
    var savedDelay: DelayHook?
    var savedDeadline: DeadlineHook?
  }

  // An `NSLock` (a pthread mutex), not `Synchronization.Mutex`, whose futex the thread
  // sanitizer cannot see on Linux (it reported the count's updates as a race).
  private static let lock = NSLock()
  nonisolated(unsafe) private static var installed = Installed()

  /// The thread-local slot holding the current thread's run.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  // Written only while `lock` is held.
  nonisolated(unsafe) private static let globalHook = slot(named: "swift_task_enqueueGlobal_hook")
  nonisolated(unsafe) private static let mainHook = slot(named: "swift_task_enqueueMainExecutor_hook")
  nonisolated(unsafe) private static let getMainHook = slot(
    named: "swift_task_getMainExecutor_hook", as: MainHook.self)
  // A runtime that sends the default clocks' sleeps through these (before Swift 6.2, where no
  // default executor can be installed) sleeps in real time: the run counts them, and the check
  // says so (``AsyncRuntime/realTimeSleeps``).
  nonisolated(unsafe) private static let delayHook = slot(
    named: "swift_task_enqueueGlobalWithDelay_hook", as: DelayHook.self)
  nonisolated(unsafe) private static let deadlineHook = slot(
    named: "swift_task_enqueueGlobalWithDeadline_hook", as: DeadlineHook.self)

  private static func slot<H>(named name: String, as type: H.Type = Hook.self) -> UnsafeMutablePointer<H?>? {
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
    return symbol.assumingMemoryBound(to: H?.self)
  }

  /// Whether this platform's runtime exposes the hooks.
  static var isAvailable: Bool { globalHook != nil && mainHook != nil && getMainHook != nil }

  /// The run of the calling thread, if any.
  static var current: AsyncRuntime? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<AsyncRuntime>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Sends the calling thread's jobs to `runtime` while `body` runs, then restores what was
  /// there before.
  static func with<R>(_ runtime: AsyncRuntime, _ body: () throws -> R) rethrows -> R {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(runtime).toOpaque())
    install()
    defer {
      uninstall()
      pthread_setspecific(key, previous)
    }
    return try body()
  }

  /// Gives `job` to the calling thread's run; false when the thread has none (the job is then
  /// the caller's to send on).
  static func takeIntoRun(_ job: UnownedJob, onMainActor: Bool) -> Bool {
    guard let runtime = current, runtime.accepts(job) else { return false }
    runtime.enqueue(job, onMainActor: onMainActor)
    return true
  }

  /// Gives `job`, enqueued on the global executor, to the calling thread's run; false when the
  /// thread has none.
  static func takeGlobalIntoRun(_ job: UnownedJob) -> Bool {
    guard let runtime = current, runtime.accepts(job) else { return false }
    runtime.enqueueGlobal(job)
    return true
  }

  /// Runs `body` with no run on the calling thread, so what it enqueues goes past the hooks
  /// to the executors the runtime would use without them (the global concurrent executor,
  /// Dispatch's main actor).
  static func outsideRuns(_ body: () -> Void) {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, nil)
    defer { pthread_setspecific(key, previous) }
    body()
  }

  private static func install() {
    lock.withLock {
      installed.count += 1
      guard installed.count == 1 else { return }
      installed.savedGlobal = globalHook?.pointee
      installed.savedMain = mainHook?.pointee
      installed.savedGetMain = getMainHook?.pointee
      installed.savedDelay = delayHook?.pointee
      installed.savedDeadline = deadlineHook?.pointee
      delayHook?.pointee = { delay, job, original in
        EnqueueHook.current?.noteRealTimeSleep()
        original(delay, job)
      }
      deadlineHook?.pointee = { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
        EnqueueHook.current?.noteRealTimeSleep()
        original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
      }
      globalHook?.pointee = { job, original in
        if !EnqueueHook.takeGlobalIntoRun(job) { original(job) }
      }
      mainHook?.pointee = { job, original in
        if !EnqueueHook.takeIntoRun(job, onMainActor: true) { original(job) }
      }
      getMainHook?.pointee = { original in
        EnqueueHook.current == nil ? original() : MainRunExecutor.shared.asUnownedSerialExecutor()
      }
    }
  }

  private static func uninstall() {
    lock.withLock {
      installed.count -= 1
      guard installed.count == 0 else { return }
      globalHook?.pointee = installed.savedGlobal
      mainHook?.pointee = installed.savedMain
      getMainHook?.pointee = installed.savedGetMain
      delayHook?.pointee = installed.savedDelay
      deadlineHook?.pointee = installed.savedDeadline
    }
  }
}

/// The main actor's executor on a thread running a scenario: what is enqueued on it from that
/// thread goes to the run's queue and runs there, one job at a time among the run's others.
/// The runtime keeps a task's executor unretained, so there is one, never freed, for every run;
/// a job reaching it from a thread with no run (a task of the run resumed after the run ended)
/// goes on to the real main actor, past the hooks.
final class MainRunExecutor: SerialExecutor, @unchecked Sendable {
  static let shared = MainRunExecutor()

  private init() {}

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if !EnqueueHook.takeIntoRun(job, onMainActor: true) {
      EnqueueHook.outsideRuns { MainActor.shared.enqueue(job) }
    }
  }

  /// On the run's thread, the code is on the main actor (as an app's main thread is), so
  /// `MainActor.assumeIsolated` and the compiler's isolation checks pass there.
  func checkIsolated() {
    precondition(
      EnqueueHook.current != nil,
      "AsyncRuntime: main-actor code ran off the thread that runs the scenario")
  }

  func isIsolatingCurrentContext() -> Bool? {
    EnqueueHook.current != nil
  }
}
