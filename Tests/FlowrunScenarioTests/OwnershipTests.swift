import FlowrunTestSupport
import Testing

/// Nodes made during a run that outlive the chain that made them (Runtime, "Ownership"): a
/// replay that never disconnects keeps receiving from its upstream after a command's execution
/// ended early and released its `work` chain. Each row used to abort the process with "Attempted
/// to read an unowned reference but object … was already destroyed".
@Suite struct OwnershipTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var step: String
    var source: String
    var values: String
    var testDescription: String { "\(step) over \(source)" }
  }

  static let cases: [Case] = ["replayLazily", "replay", "replayLast", "{ shareReplay: 1 }"].flatMap { step in
    [
      // The first execution subscribes the cold source at 1: `a` at 2, then `t` ends it at 3
      // while its replay stays connected until the source completes at 9. The second, at 5,
      // subscribes anew and runs to the end.
      Case(step: step, source: #"{ cold: "-a-b-c-d|" }"#, values: "--a---a-b-c-d"),
      // The hot marble's events at 1 and 5 come before the executes of their frames: the first
      // execution sees nothing before `t`, the second sees `d`.
      Case(step: step, source: #"{ hot: "-a-b-c-d|" }"#, values: "-------d"),
    ]
  }

  @Test(arguments: cases)
  func aReplayInACommandsWorkOutlivesItsExecution(_ row: Case) {
    let yaml = """
      flowrun: 1
      name: replay in work
      signals:
        t: { hot: "---x----" }
      commands:
        load:
          work: [\(row.source), \(row.step), { takeUntil: t }]
      timeline:
        - { at: 1, execute: load }
        - { at: 5, execute: load }
      expect:
        load.values: "\(row.values)"
      """
    #expect(problemsRunning(yaml) == nil)
  }
}
