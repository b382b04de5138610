import FlowrunDiagnostics
import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// `exhaustive: true`: work still pending at the run's end fails the run (docs/semantics.md,
/// "The run's end"); without it, the same file passes as before.
@Suite struct ExhaustiveRunTests {
  /// A debounce holding a value, a delay, an interval, a command executing and a service call
  /// in flight when the run ends at frame 5.
  static func file(exhaustive: String) -> String {
    """
    flowrun: 1
    name: Work left pending
    \(exhaustive)
    until: 5
    signals:
      typed: { hot: "---a" }
      settled: [{ from: typed }, { debounce: 3 }]
      later: [{ from: typed }, { delay: 10 }]
      ticks: { interval: 4 }
      answers: [{ from: typed }, { flatMap: { call: api, with: outer } }]
    services:
      api: { cold: "-" }
    commands:
      save: { work: { cold: "----------(s|)" } }
    timeline:
      - at: 2
        execute: save
    expect:
      settled: "-"
      later: "-"
      ticks: "----0"
      answers: "-"
    """
  }

  @Test func pendingWorkFailsAnExhaustiveRunAtTheNodesThatHoldIt() throws {
    let result = try #require(runOnly(Self.file(exhaustive: "exhaustive: true")))
    #expect(result.status == .error)
    #expect(
      result.diagnostics.map(\.message) == [
        "frame 5: exhaustive: the run ended at frame 5 with a timer of 'debounce' still armed (due at frame 6)",
        "frame 5: exhaustive: the run ended at frame 5 with an interval of 'interval' still armed (due at frame 8)",
        "frame 5: exhaustive: the run ended at frame 5 with a timer of 'delay' still armed (due at frame 13)",
        "frame 5: exhaustive: the run ended at frame 5 with command 'save' still executing (1 execution)",
        "frame 5: exhaustive: the run ended at frame 5 with call 1 of service 'api' never answered (made at frame 3)",
      ])
  }

  @Test func withoutTheKeyTheSameFilePasses() throws {
    for key in ["", "exhaustive: false"] {
      let result = try #require(runOnly(Self.file(exhaustive: key)))
      #expect(result.status == .passed, "\(result.diagnostics.map(\.message))")
    }
  }

  @Test func aRunThatEndsWithNothingPendingPassesExhaustively() throws {
    let result = try #require(
      runOnly(
        """
        flowrun: 1
        name: Nothing left
        exhaustive: true
        signals:
          typed: { hot: "-a" }
          settled: [{ from: typed }, { debounce: 3 }]
        expect:
          settled: "----a"
        """))
    #expect(result.status == .passed, "\(result.diagnostics.map(\.message))")
  }

  @Test func exhaustiveMustBeABoolean() {
    let problems = problemsRunning(
      """
      flowrun: 1
      name: Bad
      exhaustive: yes please
      signals:
        a: { hot: "-a" }
      expect:
        a: "-a"
      """)
    #expect(problems?.contains("'exhaustive' must be true or false") == true, "\(problems ?? "")")
  }
}
