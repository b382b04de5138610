import FlowrunCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` for indices `0..<count` on `jobs` worker threads with large stacks, and hands out
/// the results in index order as they become ready.
///
/// Each index runs once, on one thread; results never depend on which thread ran them, so the
/// output of a parallel run is the output of a serial one. This is the only place with locks:
/// the engine itself is single-threaded per run.
///
/// A worker that cannot start (its stack cannot be mapped under an address-space limit, or the
/// process limit is reached) is never waited for: the first worker falls back to smaller stacks
/// (`stackSizes`; every worker then gets the size the first one got, so that a run's stack
/// guard stops at the same depth whichever worker runs it), the pool runs with the workers that
/// started, and with none the calling thread does the work as `result` asks for it. `note` says
/// what happened.
final class WorkPool<Result: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var results: [Result?]
  private var next = 0
  private var cancelled = false
  private let body: @Sendable (Int) -> Result
  private var threads: [WorkerThread] = []
  /// What did not go as asked when starting the workers (nil when every worker started with
  /// the full stack).
  private(set) var note: String?
  /// The calling thread's stack size, when it does the work (no worker started).
  private var callingThreadStack = 0
  private var runsInline = false

  /// Stack size of a worker: deep synchronous deliveries (up to the depth limit) fit.
  static var stackSize: Int { ThreadStack.fullSize }
  /// The stack sizes tried in turn for the first worker: the full size, then smaller ones. On a
  /// smaller stack the depth and nesting limits shrink in proportion (`ThreadStack.budgeted`),
  /// and the stack guard of a run and of the compiler reads the thread's actual stack, so deep
  /// calls stop earlier, with a diagnostic, instead of overflowing.
  static var stackSizes: [Int] { [stackSize, 128 << 20, 32 << 20, 8 << 20] }

  init(count: Int, jobs: Int, body: @escaping @Sendable (Int) -> Result) {
    self.results = Array(repeating: nil, count: count)
    self.body = body
    let wanted = max(1, min(jobs, count))
    guard count > 0 else { return }
    var failure: Int32 = 0
    var size = 0
    for candidate in Self.stackSizes where threads.isEmpty {
      switch WorkerThread.start(stackSize: candidate, { [self] in self.work(budgetedSize: candidate) }) {
      case .success(let thread):
        threads.append(thread)
        size = candidate
      case .failure(let error): failure = error.code
      }
    }
    let chosen = size
    more: while !threads.isEmpty && threads.count < wanted {
      switch WorkerThread.start(stackSize: chosen, { [self] in self.work(budgetedSize: chosen) }) {
      case .success(let thread): threads.append(thread)
      case .failure(let error):
        failure = error.code
        break more
      }
    }
    let workers = threads.count == 1 ? "1 worker" : "\(threads.count) workers"
    let scaled = "which scales the depth and nesting limits down"
    if threads.isEmpty {
      let own = ThreadStack.size() ?? 0
      callingThreadStack = own
      runsInline = true
      note =
        Self.describe(failure) + "; the work runs on the calling thread, whose \(Self.mebibytes(own)) stack \(scaled)"
    } else if chosen != Self.stackSize {
      note = Self.describe(failure) + "; the work runs on \(workers) with a \(Self.mebibytes(chosen)) stack, \(scaled)"
    } else if threads.count < wanted {
      note = Self.describe(failure) + "; the work runs on \(workers)"
    }
  }

  private static func mebibytes(_ size: Int) -> String {
    size >= 1 << 20 ? "\(size >> 20) MiB" : "\(size >> 10) KiB"
  }

  private static func describe(_ failure: Int32) -> String {
    "a worker thread could not start (\(String(cString: strerror(failure))))"
  }

  private func work(budgetedSize: Int) {
    if budgetedSize < Self.stackSize { ThreadStack.setBudgetedSize(budgetedSize) }
    while let index = take() {
      let result = body(index)
      condition.lock()
      results[index] = result
      condition.broadcast()
      condition.unlock()
    }
  }

  /// The next index to run, or nil when every one is handed out or the pool was cancelled.
  private func take() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    guard !cancelled, next < results.count else { return nil }
    next += 1
    return next - 1
  }

  /// The result of `index`, waiting until it is ready; without workers, runs the indices up to
  /// `index` on the calling thread.
  func result(_ index: Int) -> Result {
    if runsInline {
      ThreadStack.setBudgetedSize(callingThreadStack > 0 ? callingThreadStack : nil)
      defer { ThreadStack.setBudgetedSize(nil) }
      while results[index] == nil, let taken = take() { results[taken] = body(taken) }
      if let result = results[index] { return result }
      preconditionFailure("WorkPool.result(\(index)) after cancel()")
    }
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let result = results[index] { return result }
      condition.wait()
    }
  }

  /// Stops handing out new indices (work already started finishes).
  func cancel() {
    condition.lock()
    cancelled = true
    condition.unlock()
  }

  /// Waits until the workers have ended (after every result was read), so that their stacks
  /// are unmapped before another pool maps its own.
  func join() {
    cancel()
    for thread in threads { thread.join() }
    threads = []
  }

  deinit {
    for thread in threads { thread.detach() }
  }
}
