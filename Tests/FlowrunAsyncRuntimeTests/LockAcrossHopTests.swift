import FlowrunAsyncRuntime
import FlowrunCore
import Foundation
import Testing

/// What the tasks of a test did (only touched on the run's thread).
private final class Log: @unchecked Sendable {
  var lines: [String] = []
}

/// A one-value channel written as swift-async-algorithms writes `merge`'s storage
/// (`MergeStorage.next()`): the first `next()` starts the producing task while it holds the
/// lock, and releases the lock only inside the closure of `withUnsafeContinuation`, "safe"
/// because that closure runs at once, without a suspension between. Unless the way there is a
/// hop: here a nonisolated (`@concurrent`) function, which a task running on the run's serial
/// executor reaches by suspending (in the package, its `next()` runs on the caller's executor,
/// `NonisolatedNonsendingByDefault`, and reaches the continuation through such a hop).
private final class LockedChannel: @unchecked Sendable {
  private let lock = Lock()
  private var waiting: UnsafeContinuation<Int, Never>?
  private var buffered: [Int] = []
  private var producer: (@Sendable (LockedChannel) -> Void)?

  init(producer: @escaping @Sendable (LockedChannel) -> Void) {
    self.producer = producer
  }

  func next() async -> Int {
    lock.lock()
    if let producer {
      self.producer = nil
      Task { producer(self) }
    }
    if !buffered.isEmpty {
      defer { lock.unlock() }
      return buffered.removeFirst()
    }
    return await suspend()
  }

  /// Waits for the value, releasing the lock: a call to a function that runs on the generic
  /// executor, so a task running on any other executor suspends to hop there, holding the lock.
  @concurrent @inline(never) private func suspend() async -> Int {
    await withUnsafeContinuation { continuation in
      waiting = continuation
      lock.unlock()
    }
  }

  /// Sends `value`; false, instead of blocking the run's one thread for ever, when the lock is
  /// held (by a task suspended between its `lock()` and its continuation's closure).
  func send(_ value: Int) -> Bool {
    guard lock.try() else { return false }
    if let waiting {
      self.waiting = nil
      lock.unlock()
      waiting.resume(returning: value)
    } else {
      buffered.append(value)
      lock.unlock()
    }
    return true
  }
}

/// A lock callable from `async` code, as the package's own `Lock` is (`NSLock`'s methods are
/// unavailable there).
private final class Lock: @unchecked Sendable {
  private let mutex = NSLock()
  func lock() { mutex.lock() }
  func unlock() { mutex.unlock() }
  func `try`() -> Bool { mutex.try() }
}

@Suite struct LockAcrossHopTests {
  /// A task that hops to the generic executor goes on before any other job: it suspends at the
  /// hop (the run's jobs run on a serial executor) but runs next, as it would on a pool thread
  /// without a hop, so no other job finds the lock it holds.
  @Test func aTaskHoldingALockAcrossItsContinuationReleasesItBeforeAnotherJobRuns() {
    let scheduler = VirtualTimeScheduler()
    let runtime = AsyncRuntime(scheduler: scheduler, tick: 100_000_000)
    let log = Log()
    runtime.withJobs {
      let channel = LockedChannel { channel in
        log.lines.append(channel.send(1) ? "sent" : "the lock is held by a suspended task")
      }
      Task {
        let value = await channel.next()
        log.lines.append("received \(value)")
      }
      _ = scheduler.run(timeLimit: 10_000, stepLimit: 100_000)
    }
    #expect(log.lines == ["sent", "received 1"])
    #expect(runtime.pendingJobs == 0)
  }

  /// A yield still goes to the back of the queue: the hop rule is for a task leaving the job
  /// that runs, not for the jobs it makes (a `Task.yield()`'s, a new task's, a resumed one's).
  /// A yield is two jobs: the yield's own, which resumes the task, then the task's.
  @Test func yieldsAndNewTasksStillWaitTheirTurn() {
    let scheduler = VirtualTimeScheduler()
    let runtime = AsyncRuntime(scheduler: scheduler, tick: 100_000_000)
    let log = Log()
    runtime.withJobs {
      for name in ["a", "b"] {
        Task {
          log.lines.append("\(name)1")
          await nonisolatedYield()
          log.lines.append("\(name)2")
          Task { log.lines.append("\(name) child") }
          await nonisolatedYield()
          log.lines.append("\(name)3")
        }
      }
      _ = scheduler.run(timeLimit: 10_000, stepLimit: 100_000)
    }
    #expect(log.lines == ["a1", "b1", "a2", "b2", "a child", "b child", "a3", "b3"])
  }
}

nonisolated private func nonisolatedYield() async {
  await Task.yield()
}
