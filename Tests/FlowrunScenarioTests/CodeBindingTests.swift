import FlowrunCore
import FlowrunDiagnostics
import FlowrunScenario
import Testing

/// Code bound into a run (CodeBinding.swift), with engine sources standing for the code: what
/// is driven at which frame, what replaces a bound expectation and a declared signal, the
/// model's lane, the code's own services.
@Suite struct CodeBindingTests {
  static let yaml = """
    flowrun: 1
    name: bound
    values: { a: 1, b: 2, t: true }
    signals:
      taps: { hot: "-a-b" }
      doubled:
        - from: taps
        - map: '$0 * 2'
      tripled:
        - from: doubled
        - map: '$0 + 1'
    subjects:
      events: {}
    properties:
      field: { from: taps, initial: 0 }
    commands:
      save:
        work: { call: api, with: input }
    services:
      api: { cold: "-(t|)" }
    timeline:
      - { at: 2, send: { events: "x" } }
      - { at: 3, execute: save, input: 7 }
    expect:
      doubled: "-2-4"
      tripled: "-3-5"
      api.calls: "---7"
    """

  static func scenario() throws -> Scenario {
    let file = ScenarioLoader.load(path: "bound.yaml", bytes: Array(yaml.utf8))
    return try #require(file.scenarios.first, "\(file.diagnostics.map(\.rendered))")
  }

  @Test func inputsAreDrivenAtTheirFramesButNotTheirStateAtSetup() throws {
    var driven: [String] = []
    let binding = CodeBinding { run in
      for name in ["taps", "events", "field", "save"] {
        #expect(run.drive(name) { driven.append("\(run.scheduler.now):\(name)=\($0)") })
      }
      #expect(!run.drive("nothing") { _ in })
      #expect(run.input(named: "field") == .property)
      #expect(run.inputNames == ["taps", "doubled", "tripled", "events", "field", "save"])
      #expect(run.outputNames == ["doubled", "tripled"])
    }
    let result = ScenarioRunner.run(try Self.scenario(), boundTo: binding)
    #expect(result.status == .passed)
    // The property's binding subscribed to `taps` before the drive did: it is set first.
    #expect(driven == ["1:field=1", "1:taps=1", "2:events=\"x\"", "3:field=2", "3:taps=2", "3:save=7"])
  }

  @Test func aBoundSignalIsReplacedForItsExpectationAndItsReadersAndCarriesTheModel() throws {
    let binding = CodeBinding { run in
      let code = ColdSource(
        events: [Recorded(frame: 1, event: .next(.int(2))), Recorded(frame: 2, event: .next(.int(5)))],
        owner: NodeLabel("code"), runtime: run.runtime)
      #expect(run.bind("doubled", to: code))
      #expect(!run.bind("taps.subscriptions", to: code))
    }
    let result = ScenarioRunner.run(try Self.scenario(), boundTo: binding)
    #expect(result.status == .failed)
    let doubled = try #require(result.expectations.first { $0.spec.target == "doubled" })
    let tripled = try #require(result.expectations.first { $0.spec.target == "tripled" })
    #expect(!doubled.passed)
    #expect(doubled.model?.events.map(\.frame) == [1, 3])
    guard case .events(let code) = doubled.actual else {
      Issue.record("no events")
      return
    }
    #expect(code.events.map(\.frame) == [1, 2])
    // tripled reads doubled: it reads the code's (6 at frame 2), and is not itself bound.
    #expect(!tripled.passed)
    #expect(tripled.model == nil)
  }

  @Test func theCodesCallsAreItsOwnLog() throws {
    var answers: [Event] = []
    let binding = CodeBinding { run in
      #expect(run.useService("api"))
      #expect(!run.useService("nope"))
      run.drive("taps") { value in
        guard value == .int(2), let response = run.call("api", with: .int(7)) else { return }
        _ = response.subscribe(Collect { answers.append($0) })
      }
    }
    let result = ScenarioRunner.run(try Self.scenario(), boundTo: binding)
    let calls = try #require(result.expectations.first { $0.spec.target == "api.calls" })
    // The expectation reads the code's log; as the code passes, the model is not run (no
    // model lane), and the model's own call (at 3) is in no log.
    #expect(calls.passed)
    #expect(calls.model == nil)
    guard case .events(let log) = calls.actual else {
      Issue.record("no events")
      return
    }
    #expect(log.events.count == 1)
    #expect(answers == [.next(.bool(true)), .completed])
  }

  /// A property whose declared chain fails at frame 1 (a division by zero), bound to the code,
  /// with one more declaration (`reader`, none in the first case) that reads it: the chain runs,
  /// and its error is the run's, unless only the code's expectation reads the property.
  @Test(arguments: ["", "reader: { from: shown }", "reader: [{ from: taps }, { map: 'shown + $0' }]"])
  func aBoundPropertyRunsItsDeclaredChainOnlyWhenSomethingElseReadsIt(reader: String) throws {
    let runsChain = !reader.isEmpty
    let yaml = """
      flowrun: 1
      name: unread
      values: { a: 1 }
      signals:
        taps: { hot: "-a" }
        ratio:
          - from: taps
          - map: '1 / ($0 - 1)'
        \(reader)
      properties:
        shown: { from: ratio, initial: 0 }
      expect:
        shown: "-1"
      """
    let file = ScenarioLoader.load(path: "unread.yaml", bytes: Array(yaml.utf8))
    let scenario = try #require(file.scenarios.first, "\(file.diagnostics.map(\.rendered))")
    let binding = CodeBinding { run in
      let code = ColdSource(
        events: [Recorded(frame: 1, event: .next(.int(1)))], owner: NodeLabel("code"), runtime: run.runtime)
      #expect(run.bind("shown", to: code))
    }
    let result = ScenarioRunner.run(scenario, boundTo: binding)
    let failed = result.diagnostics.contains { $0.message.contains("division by zero") }
    #expect(failed == runsChain, "\(result.diagnostics.map(\.rendered))")
    #expect(result.status == (runsChain ? .error : .passed))
    // Without the code, the model runs its chain.
    #expect(ScenarioRunner.run(scenario).status == .error)
  }
}

private final class Collect: Observer {
  let body: (Event) -> Void
  init(_ body: @escaping (Event) -> Void) { self.body = body }
  func receive(_ event: Event) { body(event) }
}
