public import FlowrunCore
import Foundation

/// Runs the Swift concurrency jobs of code bound into a scenario one at a time, in a defined
/// order, on the scenario's virtual time.
///
/// While ``withJobs(_:)`` runs, every job the calling thread enqueues — a new `Task`, a resumed
/// continuation, a task hopping to the global executor or to the main actor — goes to this
/// runtime's first-in, first-out queue instead of a thread pool or Dispatch's main queue: on
/// that thread the main actor's executor is the run's, so `@MainActor` code runs among the
/// run's jobs, and `MainActor.assumeIsolated` holds in the run's synchronous code. The queue
/// is drained by an action of the scenario's scheduler, due at the frame the first waiting job
/// arrived: it runs jobs until none is ready (a pass that makes no progress), so everything the
/// code does at one instant finishes before time moves. ``FrameClock`` sleeps are actions at
/// their deadline frame in the scheduler's `(frame, sequence)` queue, so advancing time is the
/// scheduler jumping to the next deadline. Same-frame order: the frame's inputs in scheduling
/// order (top to bottom of the file), then the jobs they made ready, first in, first out
/// (main-actor and nonisolated jobs in one queue), except that a task which suspends to hop to
/// the global executor (a nonisolated `async` call from the run's serial executor) goes on
/// right after: on a thread of the pool there would be no hop, and code that holds a lock
/// across such a call (swift-async-algorithms' `merge`) must find no other job between.
///
/// It is single-threaded, like the run: every use checks that it is on the thread running the
/// scenario. What it does not cover is written in docs/testing-real-code.md ("Async code").
public final class AsyncRuntime: @unchecked Sendable {
  /// The run's scheduler: its frame is the clock's instant (nil until attached).
  public private(set) var scheduler: VirtualTimeScheduler?
  /// The length of a frame in nanoseconds.
  public private(set) var tick: Int64
  private var jobs: [(job: UnownedJob, onMainActor: Bool)] = []
  private var head = 0
  private var drainPending = false
  private var isDraining = false
  /// The job running now, and the task it gave up to hop to the global executor.
  private var running: UnownedJob?
  private var hopping: UnownedJob?
  private var nextToken = 0
  private var sleepers: [Int: Sleeper] = [:]
  /// The sleeps of the default clocks armed on the run's frames (``VirtualDefaultExecutor``).
  private var jobSleepers: [Int: JobSleeper] = [:]
  /// The real instants the running job began at, against which a default clock's deadline is
  /// read.
  private(set) var jobStart: (continuous: ContinuousClock.Instant, suspending: SuspendingClock.Instant)?
  /// How many sleeps of the run's thread went to the runtime's real-time delay or deadline
  /// queue: where the runtime cannot give a default clock's sleeps to the run
  /// (``sleepsOfDefaultClocksAreVirtual`` false), they are counted here; the code needs
  /// `flow.clock`.
  public private(set) var realTimeSleeps = 0
  /// What was still armed when the run ended (``finish()``).
  public private(set) var armedAtEnd: [ArmedSleep] = []
  private var tombstones: Set<Int> = []
  private let thread = pthread_self()
  let owner = NodeLabel("AsyncRuntime")
  /// How many jobs ran (for tests and limits).
  public private(set) var jobsRun = 0
  /// The frame the run ended at, what the clock reads once the scheduler is gone.
  private var endFrame: Int?

  /// A runtime on `scheduler`, whose frames last `tick` nanoseconds.
  public init(scheduler: VirtualTimeScheduler, tick: Int64) {
    self.scheduler = scheduler
    self.tick = max(tick, 1)
  }

  /// A runtime whose scheduler is attached later (``attach(to:tick:)``), when the run that
  /// owns it has started: jobs enqueued before wait for it.
  public init() {
    tick = 1
  }

  /// Puts the runtime on `scheduler`'s frames of `tick` nanoseconds.
  public func attach(to scheduler: VirtualTimeScheduler, tick: Int64) {
    checkThread()
    self.scheduler = scheduler
    self.tick = max(tick, 1)
    endFrame = nil
    if pendingJobs > 0 { scheduleDrain() }
  }

  /// Whether this platform's Swift runtime lets the jobs be taken (it does on Linux and Apple
  /// platforms with Swift 6).
  public static var isSupported: Bool { EnqueueHook.isAvailable }

  /// Whether the sleeps of the default clocks (`Task.sleep(for:)`, `ContinuousClock`,
  /// `SuspendingClock`) of the code reach the run's frames on this platform's Swift runtime
  /// (they do on Linux with Swift 6.2 and later); where they do not, they would sleep in real
  /// time, and the code needs `flow.clock`.
  public static var sleepsOfDefaultClocksAreVirtual: Bool { DefaultClocks.isInstalled }

  /// The virtual clock of this runtime.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public var clock: FrameClock { FrameClock(runtime: self) }

  /// The current frame.
  public var frame: Int {
    checkThread()
    return endFrame ?? scheduler?.now ?? 0
  }

  /// Runs `body` with the calling thread's jobs going to this runtime, then runs what is still
  /// ready (so nothing of the run is left for a thread pool) and restores the hooks.
  public func withJobs<R>(_ body: () throws -> R) rethrows -> R {
    _ = DefaultClocks.isInstalled
    return try EnqueueHook.with(self) {
      defer { finish() }
      return try body()
    }
  }

  /// Marks the end of the scenario's time: the clock stops at the current frame, sleeps still
  /// pending never end, and ready jobs run at once.
  public func finish() {
    if endFrame == nil { endFrame = scheduler?.now ?? 0 }
    armedAtEnd +=
      sleepers.values.map { $0.armed } + jobSleepers.values.filter { !$0.isCancelled }.map { $0.armed }
    armedAtEnd.sort { $0.token < $1.token }
    for token in sleepers.keys.sorted() { sleepers[token]?.isCancelled = true }
    sleepers = [:]
    // A cancelled sleep's job only frees the sleep's state: run it now, it wakes nobody.
    for token in jobSleepers.keys.sorted() {
      guard let sleeper = jobSleepers.removeValue(forKey: token), sleeper.isCancelled else { continue }
      sleeper.isDone = true
      enqueue(sleeper.job, onMainActor: false)
    }
    for sleeper in jobSleepers.values { sleeper.isDone = true }
    jobSleepers = [:]
    runReadyJobs()
  }

  func noteRealTimeSleep() {
    realTimeSleeps += 1
  }

  func checkThread() {
    precondition(
      pthread_equal(pthread_self(), thread) != 0,
      "AsyncRuntime: used off the thread that runs the scenario (the run is single-threaded)")
  }

  // MARK: - Jobs

  /// Whether the hook should give `job` to this runtime: always, from its own thread.
  func accepts(_ job: UnownedJob) -> Bool {
    pthread_equal(pthread_self(), thread) != 0
  }

  func enqueue(_ job: UnownedJob, onMainActor: Bool) {
    jobs.append((job, onMainActor))
    scheduleDrain()
  }

  /// Takes a job enqueued on the global executor: the task of the running job (it suspended
  /// to hop to the generic executor, the hop a nonisolated `async` call makes from the run's
  /// serial executor) runs next, as on a pool thread it would go on at once without a hop;
  /// any other job waits its turn.
  func enqueueGlobal(_ job: UnownedJob) {
    if let running, hopping == nil, Self.same(job, running) {
      hopping = job
    } else {
      enqueue(job, onMainActor: false)
    }
  }

  private static func same(_ one: UnownedJob, _ other: UnownedJob) -> Bool {
    unsafeBitCast(one, to: UnsafeRawPointer.self) == unsafeBitCast(other, to: UnsafeRawPointer.self)
  }

  private func scheduleDrain() {
    guard !drainPending, !isDraining, endFrame == nil, let scheduler else { return }
    drainPending = true
    scheduler.schedule(
      at: scheduler.now,
      ClosureAction(owner: owner) { [self] in
        drainPending = false
        runReadyJobs()
      })
  }

  /// Runs jobs first in, first out until none is left (jobs they make ready included), except
  /// that a task the running job gives up to hop to the global executor runs next.
  private func runReadyJobs() {
    guard !isDraining else { return }
    isDraining = true
    defer { isDraining = false }
    while let next = takeNext() {
      jobsRun += 1
      jobStart = (ContinuousClock.now, SuspendingClock.now)
      running = next.job
      if next.onMainActor {
        next.job.runSynchronously(on: MainRunExecutor.shared.asUnownedSerialExecutor())
      } else {
        next.job.runSynchronously(on: RunExecutor.shared.asUnownedSerialExecutor())
      }
      running = nil
      jobStart = nil
    }
    jobs.removeAll(keepingCapacity: true)
    head = 0
  }

  /// The task hopping off the job that just ran, else the first job waiting.
  private func takeNext() -> (job: UnownedJob, onMainActor: Bool)? {
    if let hop = hopping {
      hopping = nil
      return (hop, false)
    }
    guard head < jobs.count else { return nil }
    let next = jobs[head]
    head += 1
    if head >= 1_024, head * 2 >= jobs.count {
      jobs.removeFirst(head)
      head = 0
    }
    return next
  }

  /// The number of jobs waiting to run.
  public var pendingJobs: Int { jobs.count - head + (hopping == nil ? 0 : 1) }

  // MARK: - Sleeping

  func makeToken() -> Int {
    checkThread()
    defer { nextToken += 1 }
    return nextToken
  }

  /// Resumes `continuation` at `deadline` (a frame), in the scheduler's order; at once with a
  /// `CancellationError` when `token` was cancelled first.
  func sleep(_ token: Int, until deadline: Int, _ continuation: UnsafeContinuation<Void, any Error>) {
    checkThread()
    if tombstones.remove(token) != nil {
      continuation.resume(throwing: CancellationError())
      return
    }
    guard endFrame == nil, let scheduler else { return }  // after the end of time, a sleep never ends
    let armed = ArmedSleep(
      since: scheduler.now, frame: max(deadline, scheduler.now), clock: "FrameClock", task: Self.taskName, token: token)
    let sleeper = Sleeper(armed: armed, continuation: continuation, runtime: self)
    sleepers[token] = sleeper
    scheduler.schedule(at: armed.frame, sleeper)
  }

  /// The name of the running task (`Task(name:)`), where the runtime has names.
  static var taskName: String? {
    #if compiler(>=6.2)
      if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *) { return Task.name }
    #endif
    return nil
  }

  /// Cancels the sleep of `token`: a pending one ends at once with a `CancellationError`, one
  /// not yet enqueued leaves a tombstone.
  func cancel(_ token: Int) {
    checkThread()
    guard let sleeper = sleepers.removeValue(forKey: token) else {
      tombstones.insert(token)
      return
    }
    sleeper.isCancelled = true
    sleeper.continuation.resume(throwing: CancellationError())
  }

  fileprivate func wake(_ sleeper: Sleeper) {
    guard sleepers.removeValue(forKey: sleeper.token) != nil else { return }
    sleeper.continuation.resume()
  }

  /// Arms the job of a default clock's sleep (`Task.sleep(for:)`, a `ContinuousClock` sleep)
  /// at the first frame at or after `nanoseconds` from now; after the end of time it never
  /// runs. A cancelled sleep needs nothing here: the Swift runtime resumes the sleeping task at
  /// once with a `CancellationError`, and the job, when it runs, wakes nobody.
  func sleep(_ job: UnownedJob, nanoseconds: Int64, clock: String) {
    checkThread()
    let token = makeToken()
    guard endFrame == nil, let scheduler else { return }
    let (quotient, remainder) = max(nanoseconds, 0).quotientAndRemainder(dividingBy: tick)
    let frames = Int(clamping: remainder > 0 ? quotient + 1 : quotient)
    let task = withUnsafeCurrentTask { $0 }
    let armed = ArmedSleep(
      since: scheduler.now, frame: scheduler.now.addingClamped(frames), clock: clock, task: Self.taskName, token: token)
    let sleeper = JobSleeper(armed: armed, job: job, task: task, runtime: self)
    jobSleepers[token] = sleeper
    scheduler.schedule(at: armed.frame, sleeper)
  }

  fileprivate func wake(_ sleeper: JobSleeper) {
    guard jobSleepers.removeValue(forKey: sleeper.token) != nil else { return }
    enqueue(sleeper.job, onMainActor: false)
  }
}

/// A sleep still armed when a run ended: the frame it was armed at and the one it was due
/// at, the clock it was on (`FrameClock`, `ContinuousClock`, `SuspendingClock`), and the name
/// of the sleeping task, if it has one.
public struct ArmedSleep: Sendable, Equatable {
  public let since: Int
  public let frame: Int
  public let clock: String
  public let task: String?
  let token: Int
}

/// The job of a default clock's sleep, due at a frame. Its task is the sleeping one (kept to
/// tell a cancelled sleep, whose job wakes nobody, from an armed one).
private final class JobSleeper: ScheduledAction {
  let armed: ArmedSleep
  let job: UnownedJob
  let task: UnsafeCurrentTask?
  unowned let runtime: AsyncRuntime
  var isDone = false
  var owner: NodeLabel { runtime.owner }
  var isCancelled: Bool { isDone || task?.isCancelled == true }

  var token: Int { armed.token }

  init(armed: ArmedSleep, job: UnownedJob, task: UnsafeCurrentTask?, runtime: AsyncRuntime) {
    self.armed = armed
    self.job = job
    self.task = task
    self.runtime = runtime
  }

  func perform(_ argument: Int) {
    guard !isDone else { return }
    isDone = true
    runtime.wake(self)
  }
}

/// The serial executor the run's nonisolated jobs run on: a job enqueued on it (a
/// `Task.yield()`, a hop back) from the thread of a run goes to that run's queue; from any
/// other thread (a job arriving after its run ended), to the global concurrent executor, as the
/// runtime would send it. The runtime keeps a job's executor unretained, so, like
/// ``MainRunExecutor``, there is one, never freed, for every run, and it holds no run: a late
/// job can never reach a freed one.
final class RunExecutor: SerialExecutor, @unchecked Sendable {
  static let shared = RunExecutor()

  private init() {}

  /// The thread-local count of the jobs the thread handed to the global concurrent executor.
  private static let lateJobsKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// How many jobs enqueued from the calling thread, which had no run, went to the global
  /// concurrent executor: evidence of the hand-off that needs no pool thread to run the job.
  static var lateJobsHandedOnThisThread: Int { Int(bitPattern: pthread_getspecific(lateJobsKey)) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if !EnqueueHook.takeIntoRun(job, onMainActor: false) {
      let handed = Self.lateJobsHandedOnThisThread + 1
      pthread_setspecific(Self.lateJobsKey, UnsafeRawPointer(bitPattern: handed))
      EnqueueHook.outsideRuns { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }
  }
}

/// A sleeping task's continuation, due at a frame.
private final class Sleeper: ScheduledAction {
  let armed: ArmedSleep
  let continuation: UnsafeContinuation<Void, any Error>
  unowned let runtime: AsyncRuntime
  var isCancelled = false
  var owner: NodeLabel { runtime.owner }

  var token: Int { armed.token }

  init(armed: ArmedSleep, continuation: UnsafeContinuation<Void, any Error>, runtime: AsyncRuntime) {
    self.armed = armed
    self.continuation = continuation
    self.runtime = runtime
  }

  func perform(_ argument: Int) {
    guard !isCancelled else { return }
    isCancelled = true
    runtime.wake(self)
  }
}

extension AsyncRuntime {
  /// How many nanoseconds a default clock's sleep lasts, from its deadline read against the
  /// start of the run's job (`late`) and against the moment it reached the executor (`early`):
  /// the roundest duration between (DefaultClocks.swift).
  public static func sleepDuration(early: Int64, late: Int64) -> Int64 {
    DefaultClocks.duration(early: early, late: late)
  }
}
