import FlowrunCore
import FlowrunDiagnostics
import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunScenario

@Suite struct InvariantTests {
  private func run(_ yaml: String) throws -> ScenarioResult {
    try #require(runOnly(yaml), "\(problemsRunning(yaml) ?? "did not load")")
  }

  private func scenario(events marble: String, invariant: String) -> String {
    """
    flowrun: 1
    name: an invariant
    signals:
      clicks: { hot: "\(marble)" }
    properties:
      vm.last: clicks
    invariants:
      - '\(invariant)'
    """
  }

  /// After frame 0 and after each frame in which an action ran, and no other: an invariant
  /// false only at frame 3 fails only when something happens at frame 3.
  @Test(arguments: [("x----x", nil), ("x--x", 3), ("--", 0), ("-----", nil)] as [(String, Int?)])
  func checkedAfterEveryFrameInWhichAnythingHappened(marble: String, failsAt: Int?) throws {
    let invariant = marble == "--" ? "now != 0" : "now != 3"
    let result = try run(scenario(events: marble, invariant: invariant))
    #expect(result.invariants.count == 1)
    #expect(result.invariants[0].violation?.frame == failsAt)
    #expect(result.status == (failsAt == nil ? .passed : .failed))
  }

  /// What happens inside a frame is not seen: the button is briefly enabled with one field,
  /// but both fields are set in the same frame.
  @Test func intermediateValuesWithinAFrameAreNotSeen() throws {
    let yaml = """
      flowrun: 1
      name: both fields at once
      values: { t: true, f: false }
      signals:
        accountText:  { hot: "-a" }
        passwordText: { hot: "-b" }
        either: [{ combineLatest: [vm.account, vm.password] }, { map: '$0 != nil || $1 != nil' }]
      properties:
        vm.account: accountText
        vm.password: passwordText
        button.enabled: either
      invariants:
        - 'button.enabled == (vm.account != nil && vm.password != nil)'
      expect:
        button.enabled: "f(tt)"
      """
    #expect(try run(yaml).status == .passed)
    let apart = try run(
      yaml.replacingOccurrences(of: "\"-b\"", with: "\"--b\"").replacingOccurrences(of: "\"f(tt)\"", with: "\"ftt\""))
    #expect(apart.status == .failed)
    #expect(apart.expectations.filter { !$0.passed }.isEmpty)
    let violation = try #require(apart.invariants[0].violation)
    #expect(violation.frame == 1)
    #expect(violation.readings.map(\.name) == ["vm.account", "vm.password", "button.enabled"])
    #expect(violation.readings.map(\.value) == [.string("a"), .null, .bool(true)])
    #expect(
      violation.readings[2].events.events == [
        Recorded(frame: 0, event: .next(.bool(false))), Recorded(frame: 1, event: .next(.bool(true))),
      ])
  }

  /// Signals, subjects, properties and the derived names of commands and services are read by
  /// their latest value (nil before the first).
  @Test func readsEveryKindOfName() throws {
    let yaml = """
      flowrun: 1
      name: every kind of name
      signals:
        taps: { hot: "-x--x" }
        doubled: [{ from: taps }, { mapTo: 2 }]
      subjects:
        status: {}
      services:
        fetch: { cold: "--(r|)" }
      commands:
        load:
          work: { call: fetch, with: input }
      effects:
        - on: taps
          execute: load
          input: 7
        - on: load.values
          send: status
      invariants:
        - name: before the first tap nothing has happened
          that: 'now > 0 || (taps == nil && doubled == nil && status == nil && fetch.calls == nil)'
        - name: a load runs exactly while no answer came since the last tap
          that: 'load.executing == (taps != nil && now % 3 != 0)'
        - name: the answer reaches the status
          that: 'now < 3 || (status == "r" && fetch.calls == 7 && doubled == 2 && load.values == "r")'
      """
    let result = try run(yaml)
    #expect(
      result.invariants.map(\.passed) == [true, true, true],
      "\(result.invariants.map { $0.violation.map { "\($0.frame) \($0.readings)" } })")
  }

  /// An expression that gives no Bool fails the invariant with the evaluation's message.
  @Test func anExpressionThatFailsIsAViolation() throws {
    let result = try run(scenario(events: "x", invariant: "vm.last.count"))
    let violation = try #require(result.invariants[0].violation)
    #expect(violation.frame == 0)
    #expect(violation.problem == "'invariant' needs a Bool, got Int")
    #expect(
      violation.message(for: result.invariants[0].spec)
        == "invariant 'vm.last.count' failed at frame 0: 'invariant' needs a Bool, got Int")
  }

  /// A run-time error stops the checks at the failing frame; an invariant that held until then
  /// passes and the status is `error`.
  @Test func aRunTimeErrorIsNotAnInvariantFailure() throws {
    let yaml = """
      flowrun: 1
      name: a binding that receives an error
      signals:
        values: { hot: "-a-#" }
      properties:
        vm.value: values
      invariants:
        - 'vm.value != "b"'
      """
    let result = try run(yaml)
    #expect(result.status == .error)
    #expect(result.invariants[0].passed)
  }

  /// Invariants and explore are scenario keys: a scenario without them loads and runs as before.
  @Test func scenariosWithoutInvariantsHaveNone() throws {
    let result = try run("flowrun: 1\nname: plain\nsignals: { a: { hot: \"-x\" } }\nexpect: { a: \"-x\" }\n")
    #expect(result.invariants.isEmpty)
    #expect(result.scenario.explore == nil)
    #expect(result.status == .passed)
  }
}
