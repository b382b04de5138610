import FlowrunTesting
import Foundation
import OpenCombineShim
import Testing

/// A bound run ends with nothing pending, or fails naming what is (Exhaustivity.swift).
@Suite struct ExhaustivityTests {
  static let pending = "Tests/FlowrunTestingTests/Scenarios/pending.yaml"

  /// The code of a test: what it starts when the scenario hands it a value.
  enum Leak: String, CaseIterable, Sendable {
    case sleepingTask, schedulerTimer, unansweredCall, nothing
  }

  private static func bind(_ flow: Flow, leak: Leak, keep: Keep) {
    let echo = flow.asyncService("echo", returning: Int.self)
    let scheduler = flow.scheduler
    flow.drive("typed") { (value: Int) in
      switch leak {
      case .sleepingTask:
        Task(name: "poller") { try await Task.sleep(for: .seconds(60)) }
      case .schedulerTimer:
        let subject = PassthroughSubject<Int, Never>()
        keep.cancellable = subject.delay(for: .seconds(1), scheduler: scheduler).sink { _ in }
        subject.send(value)
      case .unansweredCall:
        Task { _ = try? await echo(value) }
      case .nothing:
        Task { _ = try? await echo(value) }.cancel()
      }
    }
  }

  final class Keep: @unchecked Sendable {
    var cancellable: AnyCancellable?
  }

  @Test(arguments: [
    (Leak.sleepingTask, "poller", "a sleep on ContinuousClock in task 'poller', since frame 1, due at frame 601"),
    (.schedulerTimer, "FlowScheduler", "an action of flow.scheduler, since frame 1, due at frame 11"),
    (.unansweredCall, "echo", "a call of service 'echo' never answered, since frame 1"),
  ])
  func pendingWorkFailsAtTheScenariosLineWithTheFrameAndTheName(_ leak: Leak, name: String, what: String) throws {
    let keep = Keep()
    let failures = try ScenarioCheck.failures(Self.pending) { Self.bind($0, leak: leak, keep: keep) }
    let failure = try #require(failures.first)
    #expect(failures.count == 1, "\(failures.map(\.message).joined(separator: "\n"))")
    #expect(failure.target == name)
    #expect(failure.line == 1)
    #expect(failure.filePath.hasSuffix("Scenarios/pending.yaml"))
    #expect(failure.message.contains("ended at frame 5 with work still pending: " + what), "\(failure.message)")
  }

  @Test func workThatMayOutliveTheRunIsAllowedByName() throws {
    for leak in [Leak.sleepingTask, .schedulerTimer, .unansweredCall] {
      let keep = Keep()
      let allowed = try ScenarioCheck.failures(
        Self.pending, exhaustivity: .allowing("poller", "FlowScheduler", "echo")
      ) { Self.bind($0, leak: leak, keep: keep) }
      #expect(allowed.isEmpty, "\(leak): \(allowed.map(\.message))")
      let off = try ScenarioCheck.failures(Self.pending, exhaustivity: .off) { Self.bind($0, leak: leak, keep: keep) }
      #expect(off.isEmpty, "\(leak): \(off.map(\.message))")
    }
  }

  @Test func aCancelledCallLeavesNothingPending() throws {
    let failures = try ScenarioCheck.failures(Self.pending) { Self.bind($0, leak: .nothing, keep: Keep()) }
    #expect(failures.isEmpty, "\(failures.map(\.message))")
  }

  /// A clock's name allows every sleep on it.
  @Test func aClocksNameAllowsItsSleeps() throws {
    let failures = try ScenarioCheck.failures(Self.pending, exhaustivity: .allowing("ContinuousClock")) {
      Self.bind($0, leak: .sleepingTask, keep: Keep())
    }
    #expect(failures.isEmpty, "\(failures.map(\.message))")
  }
}

/// `root:` defaults to the calling file's package, and a file's documents are the arguments of
/// a parameterized test.
@Suite struct ScenarioDocumentTests {
  @Test func aFilesDocumentsAreItsScenariosByName() {
    let documents = ScenarioCheck.documents("Tests/FlowrunTestingTests/Scenarios/clock.yaml")
    #expect(
      documents.map(\.testDescription) == [
        "The code's timers run on the scenario's frames", "A model of every kind of value",
      ])
    #expect(documents.allSatisfy { $0.root == #filePath })
  }

  @Test func anUnreadableFileIsOneDocumentWhoseRunSaysWhy() throws {
    let documents = ScenarioCheck.documents("Tests/FlowrunTestingTests/Scenarios/missing.yaml")
    #expect(documents.map(\.name) == [nil])
    let failures = try ScenarioCheck.failures(try #require(documents.first)) { _ in }
    #expect(failures.map(\.message).first?.hasPrefix("cannot read the scenario file") == true)
  }

  @Test(arguments: ScenarioCheck.documents("Tests/FlowrunTestingTests/Scenarios/clock.yaml"))
  func eachDocumentRunsAsItsOwnCase(_ document: ScenarioDocument) throws {
    let failures = try ScenarioCheck.failures(document, exhaustivity: .off) { _ in }
    #expect(failures.isEmpty, "\(failures.map(\.message))")
  }
}
