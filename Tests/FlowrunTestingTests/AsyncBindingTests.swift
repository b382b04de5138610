import FlowrunTesting
import Observation
import Testing

/// The debounce-and-call flow of `Scenarios/clock.yaml`, written with tasks and a clock.
private final class AsyncClockViewModel: @unchecked Sendable {
  let settled: AsyncStream<Int>
  let answers: AsyncStream<String>
  private let settledSink: AsyncStream<Int>.Continuation
  private let answersSink: AsyncStream<String>.Continuation
  private let clock: any Clock<Duration>
  private let echo: AsyncFlowService<String>
  private var pending: Task<Void, Never>?

  init(clock: any Clock<Duration>, echo: AsyncFlowService<String>) {
    (settled, settledSink) = AsyncStream.makeStream()
    (answers, answersSink) = AsyncStream.makeStream()
    self.clock = clock
    self.echo = echo
  }

  func typed(_ value: Int) {
    pending?.cancel()
    pending = Task { [self] in
      do {
        try await Task.sleep(for: .milliseconds(300), clock: clock)
        settledSink.yield(value)
      } catch {}
    }
    Task { [self] in
      if let answer = try? await echo(value) { answersSink.yield(answer) }
    }
  }
}

/// The names of `Scenarios/observation.yaml` as an `@Observable` model.
@Observable private final class Person: @unchecked Sendable {
  var first = "Ada"
  var last = "Lovelace"
  var fullName: String { first + " " + last }
}

@Suite struct AsyncBindingTests {
  static let clock = "Tests/FlowrunTestingTests/Scenarios/clock.yaml"

  @Test func tasksSleepingOnTheFlowClockAndAnAsyncServiceAnswerTheScenario() throws {
    let failures = try ScenarioCheck.failures(
      Self.clock, root: #filePath, scenario: "The code's timers run on the scenario's frames"
    ) { flow in
      let vm = AsyncClockViewModel(clock: flow.clock, echo: flow.asyncService("echo"))
      flow.drive("typed") { vm.typed($0) }
      flow.observe("settled", vm.settled)
      flow.observe("answers", vm.answers)
    }
    #expect(failures.map(\.message) == [])
  }

  @Test func aWrongSleepIsCaughtAtTheExpectationLine() throws {
    let failures = try ScenarioCheck.failures(
      Self.clock, root: #filePath, scenario: "The code's timers run on the scenario's frames"
    ) { flow in
      let (stream, sink) = AsyncStream.makeStream(of: Int.self)
      let clock = flow.clock
      flow.drive("typed") { (value: Int) in
        Task {
          try await Task.sleep(for: .milliseconds(200), clock: clock)
          sink.yield(value)
        }
      }
      flow.observe("settled", stream)
    }
    let failure = try #require(failures.first)
    #expect(failures.count == 1)
    #expect(failure.target == "settled")
    #expect(failure.line == 25)
    #expect(failure.message.contains("code     ---a-b----c"))
  }

  /// The teaching file's `observed:` name is what `Observations` gives the code; its
  /// `@Published` name is torn, so the same code fails there, at frame 2 and at frame 4.
  @Test func anObservedPropertyChangesOncePerInstantWhereCombineLatestIsTorn() throws {
    let path = "scenarios/properties/observed-full-name.yaml"
    let failures = try ScenarioCheck.failures(path, root: #filePath) { flow in
      let person = Person()
      flow.drive("person.firstName") { person.first = $0 }
      flow.drive("person.lastName") { person.last = $0 }
      flow.observe("observedName", of: person, \.fullName)
      flow.observe("publishedName", of: person, \.fullName)
    }
    #expect(failures.map(\.target) == ["publishedName"])
    let failure = try #require(failures.first)
    #expect(failure.message.contains("expected a-(gh)-h"))
    #expect(failure.message.contains("code     a-h"))
  }

  @Test func oneAsyncCheckGivesTheSameReportEveryTime() throws {
    var reports: Set<String> = []
    for _ in 0..<50 {
      let failures = try ScenarioCheck.failures(
        Self.clock, root: #filePath, scenario: "The code's timers run on the scenario's frames"
      ) { flow in
        let vm = AsyncClockViewModel(clock: flow.clock, echo: flow.asyncService("echo"))
        flow.drive("typed") { vm.typed($0 + 1) }
        flow.observe("settled", vm.settled)
        flow.observe("answers", vm.answers)
      }
      reports.insert(failures.map(\.message).joined(separator: "\n"))
    }
    #expect(reports.count == 1)
    #expect(reports.first?.isEmpty == false)
  }

  static let cancellation = "Tests/FlowrunTestingTests/Scenarios/cancellation.yaml"

  /// The expectation's `;` cancels the code's iterating task: its lane is the model's `(;|)`.
  @Test func theExpectationsCancellationEndsTheCodesIteration() throws {
    let failures = try ScenarioCheck.failures(Self.cancellation, root: #filePath) { flow in
      let (stream, sink) = AsyncStream.makeStream(of: Int.self)
      flow.drive("typed") { (value: Int) in sink.yield(value) }
      flow.observe("echoed", stream)
    }
    #expect(failures.map(\.message) == [])
  }

  /// A sequence that ends with `CancellationError` is recorded as the lane's cancellation.
  @Test func aCancellationErrorIsTheLanesCancellation() throws {
    let failures = try ScenarioCheck.failures(Self.cancellation, root: #filePath) { flow in
      let (stream, sink) = AsyncThrowingStream.makeStream(of: Int.self)
      flow.drive("typed") { (value: Int) in
        if value == 2 { sink.finish(throwing: CancellationError()) } else { sink.yield(value) }
      }
      flow.observe("echoed", stream)
    }
    let failure = try #require(failures.first)
    #expect(failures.count == 1)
    #expect(failure.message.contains("code     -a-(;|)"))
  }
}
