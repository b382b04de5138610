import Foundation

/// Runs `body` for indices `0..<count` on `jobs` worker threads with large stacks, and hands out
/// the results in index order as they become ready.
///
/// Each index runs once, on one thread; results never depend on which thread ran them, so the
/// output of a parallel run is the output of a serial one. This is the only place with locks:
/// the engine itself is single-threaded per run.
final class WorkPool<Result: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var results: [Result?]
  private var next = 0
  private var cancelled = false
  private let body: @Sendable (Int) -> Result

  /// Stack size of a worker: deep synchronous deliveries (up to the depth limit) fit.
  static var stackSize: Int { 1 << 29 }

  init(count: Int, jobs: Int, body: @escaping @Sendable (Int) -> Result) {
    self.results = Array(repeating: nil, count: count)
    self.body = body
    for _ in 0..<max(1, min(jobs, count)) {
      let thread = Thread { [self] in self.work() }
      thread.stackSize = Self.stackSize
      thread.start()
    }
  }

  private func work() {
    while true {
      condition.lock()
      guard !cancelled, next < results.count else {
        condition.unlock()
        return
      }
      let index = next
      next += 1
      condition.unlock()
      let result = body(index)
      condition.lock()
      results[index] = result
      condition.broadcast()
      condition.unlock()
    }
  }

  /// The result of `index`, waiting until it is ready.
  func result(_ index: Int) -> Result {
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
}
