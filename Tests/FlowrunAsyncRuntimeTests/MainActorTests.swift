import FlowrunAsyncRuntime
import FlowrunCore
import Foundation
import Testing

/// A view model as apps write them: isolated to the main actor, starting tasks that await a
/// nonisolated `async` function and sleep on the clock it is given.
@MainActor
private final class MainActorModel {
  private(set) var log: [String] = []
  private let clock: FrameClock
  private let thread = pthread_self()

  init(clock: FrameClock) {
    self.clock = clock
  }

  func start() {
    Task { @MainActor in
      log.append("a@\(clock.now.frame) \(place())")
      let doubled = await doubledAfterAYield(2)
      log.append("a got \(doubled)@\(clock.now.frame) \(place())")
      try await Task.sleep(for: .milliseconds(200), clock: clock)
      log.append("a woke@\(clock.now.frame) \(place()) \(isolationHolds())")
    }
    Task {  // inherits the main actor
      log.append("b@\(clock.now.frame) \(place())")
      try await Task.sleep(for: .milliseconds(100), clock: clock)
      log.append("b woke@\(clock.now.frame) \(place())")
      Task { self.log.append("c@\(self.clock.now.frame) \(self.place())") }
      try await Task.sleep(for: .seconds(3_600), clock: clock)
      log.append("b woke again@\(clock.now.frame)")
    }
    log.append("started")
  }

  /// Whether the job runs on the thread that made the model (the run's), not on Dispatch's.
  private func place() -> String {
    pthread_equal(pthread_self(), thread) != 0 ? "same thread" : "OTHER THREAD"
  }
}

nonisolated private func doubledAfterAYield(_ value: Int) async -> Int {
  await Task.yield()
  return value * 2
}

/// `MainActor.assumeIsolated` from a synchronous nonisolated function: traps unless the job is
/// on the main actor's executor.
nonisolated private func isolationHolds() -> String {
  MainActor.assumeIsolated { "isolated" }
}

/// Runs a `MainActorModel` on a fresh runtime with 100 ms frames until the scheduler is idle
/// (an hour of virtual time), on the calling thread: inside the run, that thread is the main
/// actor's.
private func runModel() -> (log: [String], jobs: Int) {
  let scheduler = VirtualTimeScheduler()
  let runtime = AsyncRuntime(scheduler: scheduler, tick: 100_000_000)
  let log = runtime.withJobs {
    let model = MainActor.assumeIsolated {
      let model = MainActorModel(clock: runtime.clock)
      model.start()
      return model
    }
    _ = scheduler.run(timeLimit: 100_000, stepLimit: 100_000)
    return MainActor.assumeIsolated { model.log }
  }
  return (log, runtime.jobsRun)
}

private let expectedLog = [
  "started",
  "a@0 same thread",
  "b@0 same thread",
  "a got 4@0 same thread",
  "b woke@1 same thread",
  "c@1 same thread",
  "a woke@2 same thread isolated",
  "b woke again@36001",
]

@Suite struct MainActorTests {
  /// On the main thread (a `@MainActor` test), Dispatch's main queue cannot run while the test
  /// does: the whole log being there when `withJobs` returns shows that the main actor's jobs
  /// ran in the run's queue, in virtual time.
  @MainActor @Test func mainActorTasksRunInTheRunsOrderOnTheMainThread() {
    let (log, jobs) = runModel()
    #expect(log == expectedLog)
    #expect(jobs > 0)
  }

  /// Off the main thread the run's thread is the main actor for the run's jobs, and 100 runs
  /// give one log.
  @Test func mainActorTasksRunInTheRunsOrderOnAnyThreadEveryTime() {
    var logs: Set<[String]> = []
    for _ in 0..<100 {
      logs.insert(runModel().log)
    }
    #expect(logs == [expectedLog])
  }

  /// A detached task started on the run's thread is enqueued from it, so it is the run's, and
  /// so is its hop to the main actor.
  @Test func aDetachedTaskStartedInTheRunIsTheRuns() {
    let scheduler = VirtualTimeScheduler()
    let runtime = AsyncRuntime(scheduler: scheduler, tick: 100_000_000)
    let log = Box<[String]>()
    log.value = []
    runtime.withJobs {
      let clock = runtime.clock
      Task.detached {
        try await Task.sleep(for: .milliseconds(100), clock: clock)
        await MainActor.run { log.value?.append("on the main actor@\(clock.now.frame) \(isolationHolds())") }
      }
      _ = scheduler.run(timeLimit: 10_000, stepLimit: 10_000)
    }
    #expect(log.value == ["on the main actor@1 isolated"])
  }

  /// A main-actor task started from another thread while a run is active is not the run's: it
  /// runs on the real main actor while the run waits for it (so another test's main-actor work
  /// goes on during a run), and the run's queue never sees it. The wait's bound only keeps a
  /// broken hook from hanging the suite.
  @Test func otherThreadsMainActorTasksRunOnTheMainActorDuringARun() {
    let scheduler = VirtualTimeScheduler()
    let runtime = AsyncRuntime(scheduler: scheduler, tick: 100_000_000)
    let runThread = pthread_self()
    let ranOnTheRunsThread = Box<Bool>()
    var waited = DispatchTimeoutResult.timedOut
    var pendingAfterTheOtherTask = -1
    runtime.withJobs {
      let done = DispatchSemaphore(value: 0)
      Thread {
        Task { @MainActor in
          ranOnTheRunsThread.value = pthread_equal(pthread_self(), runThread) != 0
          done.signal()
        }
      }.start()
      waited = done.wait(timeout: .now() + 600)
      pendingAfterTheOtherTask = runtime.pendingJobs
      _ = scheduler.run(timeLimit: 10_000, stepLimit: 10_000)
    }
    #expect(waited == .success)
    #expect(ranOnTheRunsThread.value == false)
    #expect(pendingAfterTheOtherTask == 0)
    #expect(runtime.jobsRun == 0)
  }
}

/// A value set on another thread before a semaphore is signalled, read after the wait.
private final class Box<T>: @unchecked Sendable {
  var value: T?
}
