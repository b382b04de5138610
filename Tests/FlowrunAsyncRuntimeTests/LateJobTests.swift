import FlowrunCore
import Foundation
import Testing

@testable import FlowrunAsyncRuntime

/// An actor on the executor of the run's nonisolated jobs, so a test can enqueue on it.
@globalActor private actor RunExecutorActor {
  static let shared = RunExecutorActor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { RunExecutor.shared.asUnownedSerialExecutor() }
}

/// An actor on the main actor's executor of a run, so a test can enqueue on it.
@globalActor private actor MainRunExecutorActor {
  static let shared = MainRunExecutorActor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { MainRunExecutor.shared.asUnownedSerialExecutor() }
}

/// Where a job ran, written on its thread before a semaphore is signalled, read after the wait.
private final class Place: @unchecked Sendable {
  var onTheEnqueuingThread: Bool?
  var onTheMainQueue: Bool?
}

/// A mark on Dispatch's main queue, the real main actor's executor on Linux (whose thread is
/// not the process's first one once the test runner's async main has called `dispatchMain()`).
private let mainQueueMark: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the calling code runs on Dispatch's main queue.
private func isOnTheMainQueue() -> Bool {
  DispatchQueue.getSpecific(key: mainQueueMark) == true
}

/// Starts a task on a fresh thread with no run and says where it ran. That thread waits for
/// the task (bounded only so that a broken executor cannot hang the suite), not the test's:
/// a test blocking a thread of the cooperative pool could starve the global executor the task
/// is sent to.
private func placeOfATaskStarted(
  _ start: @escaping @Sendable (_ ran: @escaping @Sendable (_ onTheMainQueue: Bool) -> Void) -> Void
) async -> (waited: DispatchTimeoutResult, place: Place) {
  await withCheckedContinuation { continuation in
    Thread {
      let place = Place()
      let done = DispatchSemaphore(value: 0)
      let thread = pthread_self()
      start { onTheMainQueue in
        place.onTheEnqueuingThread = pthread_equal(pthread_self(), thread) != 0
        place.onTheMainQueue = onTheMainQueue
        done.signal()
      }
      continuation.resume(returning: (done.wait(timeout: .now() + 600), place))
    }.start()
  }
}

/// Runs `body` on a fresh thread with no run and returns what it returned; nothing waits on a
/// thread of the cooperative pool.
private func onAFreshThread<R: Sendable>(_ body: @escaping @Sendable () -> R) async -> R {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// Whether a job ran on the thread that enqueued it, written by the job on whichever thread
/// runs it.
private final class Ran: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Bool?

  var onTheEnqueuingThread: Bool? { lock.withLock { value } }

  func record(onTheEnqueuingThread: Bool) {
    lock.withLock { value = onTheEnqueuingThread }
  }
}

/// A job reaching one of the run's executors once its run is over (its runtime freed) is
/// handed to the executor the Swift runtime would use, never run on the spot or sent to a
/// freed run.
@Suite struct LateJobTests {
  @Test func aJobOnTheRunsExecutorRunsInTheRun() {
    let scheduler = VirtualTimeScheduler()
    let runtime = AsyncRuntime(scheduler: scheduler, tick: 100_000_000)
    let log = Box()
    runtime.withJobs {
      Task { @RunExecutorActor in log.lines.append("ran@\(runtime.frame)") }
      #expect(runtime.pendingJobs == 1)
      _ = scheduler.run(timeLimit: 10_000, stepLimit: 10_000)
    }
    #expect(log.lines == ["ran@0"])
    #expect(runtime.jobsRun == 1)
  }

  /// The job is handed to the global concurrent executor from the thread that enqueued it (a
  /// count on that thread), not run on the spot. The test does not wait for the job to run: a
  /// thread of the cooperative pool may stay busy for minutes on a loaded machine (other tests
  /// block the pool's threads while their child processes run).
  @Test func aLateJobOnTheRunsExecutorGoesToTheGlobalExecutor() async {
    weak let freed = runAndFree()
    #expect(freed == nil)
    let (handed, ranOnTheSpot) = await onAFreshThread {
      let ran = Ran()
      let before = RunExecutor.lateJobsHandedOnThisThread
      let thread = pthread_self()
      Task { @RunExecutorActor in ran.record(onTheEnqueuingThread: pthread_equal(pthread_self(), thread) != 0) }
      return (RunExecutor.lateJobsHandedOnThisThread - before, ran.onTheEnqueuingThread)
    }
    #expect(handed == 1)
    #expect(ranOnTheSpot != true)
  }

  @Test func aLateMainActorJobGoesToTheRealMainActor() async {
    weak let freed = runAndFree()
    #expect(freed == nil)
    let (waited, place) = await placeOfATaskStarted { ran in
      Task { @MainRunExecutorActor in ran(isOnTheMainQueue()) }
    }
    #expect(waited == .success)
    #expect(place.onTheEnqueuingThread == false)
    #expect(place.onTheMainQueue == true)
  }

  /// A run whose runtime is freed when it returns (the result is the runtime, for a weak
  /// reference).
  private func runAndFree() -> AsyncRuntime {
    let scheduler = VirtualTimeScheduler()
    let runtime = AsyncRuntime(scheduler: scheduler, tick: 100_000_000)
    runtime.withJobs {
      Task { await Task.yield() }
      _ = scheduler.run(timeLimit: 10_000, stepLimit: 10_000)
    }
    return runtime
  }
}

/// What the run's jobs logged (only touched on the run's thread).
private final class Box: @unchecked Sendable {
  var lines: [String] = []
}

extension LateJobTests {
  /// A runtime made on one thread and entered on another takes none of that thread's jobs
  /// (they are not its thread's), and its main-actor executor hands them on to the real main
  /// actor.
  @Test func mainActorJobsOfARunEnteredOffItsThreadGoToTheRealMainActor() async {
    let scheduler = VirtualTimeScheduler()
    let runtime = AsyncRuntime(scheduler: scheduler, tick: 100_000_000)
    let (waited, place) = await placeOfATaskStarted { ran in
      runtime.withJobs {
        _ = Task { @MainActor in ran(isOnTheMainQueue()) }
      }
    }
    #expect(waited == .success)
    #expect(place.onTheEnqueuingThread == false)
    #expect(place.onTheMainQueue == true)
    #expect(runtime.jobsRun == 0)
  }
}
