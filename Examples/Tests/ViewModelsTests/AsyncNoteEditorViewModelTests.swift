import FlowrunTesting
import Foundation
import Testing
import ViewModels

/// swift-async-algorithms' `merge`, alone and under `debounce` and `chunks(ofCount:or:)`, on the
/// run's deterministic runtime. `merge` holds its lock across a continuation: a runtime that let
/// another job run while a task holds it would block the run's one thread for ever, so each
/// check runs behind a hang guard.
@Suite struct AsyncNoteEditorViewModelTests {
  static let scenario = "scenarios/async-note-editor.yaml"
  typealias ViewModel = AsyncNoteEditorViewModel<FrameClock>

  private static func bind(_ flow: Flow) {
    // On the run's thread the code is on the main actor (docs/testing-real-code.md).
    let clock = flow.clock
    let vm = MainActor.assumeIsolated { ViewModel(clock: clock) }
    flow.drive("title") { text in MainActor.assumeIsolated { vm.title = text } }
    flow.drive("body") { text in MainActor.assumeIsolated { vm.body = text } }
    flow.observe("edits", MainActor.assumeIsolated { vm.edits() })
    flow.observe("saves", MainActor.assumeIsolated { vm.saves() })
    flow.observe("batches", MainActor.assumeIsolated { vm.batches() })
  }

  @Test func mergeDebounceAndChunksFollowTheScenario() throws {
    let failures = try HangGuard.failures { try ScenarioCheck.failures(Self.scenario, root: #filePath, Self.bind) }
    for failure in try #require(failures) { failure.record() }
  }

  /// The tasks of `merge`, `debounce` and the timer run in one order: a hundred runs pass alike.
  @Test func aHundredRunsPassAlike() throws {
    let runs = try HangGuard.failures {
      try (0..<100).map { _ in
        try ScenarioCheck.failures(Self.scenario, root: #filePath, Self.bind).map(\.message).joined(separator: "\n")
      }
    }
    let messages = try #require(runs)
    #expect(messages == Array(repeating: "", count: 100))
  }
}

/// Runs checks on a thread of their own and waits a bounded time for them.
enum HangGuard {
  /// What `body` returns, run on a new thread; nil, recorded as an issue, when it has not
  /// returned after `seconds` (the thread is left blocked, and the suite goes on).
  static func failures<T>(
    seconds: Int = 120, sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping () throws -> T
  ) throws -> T? {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    let task = UncheckedBody(body)
    let thread = Thread {
      outcome.result = Result { try task.body() }
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    guard done.wait(timeout: .now() + .seconds(seconds)) == .success else {
      Issue.record(
        "the run did not end within \(seconds) s (a deadlock of the run's thread)", sourceLocation: sourceLocation)
      return nil
    }
    return try outcome.result?.get()
  }

  private final class Outcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
  }

  private struct UncheckedBody<T>: @unchecked Sendable {
    let body: () throws -> T
    init(_ body: @escaping () throws -> T) { self.body = body }
  }
}
