import FlowrunDiagnostics
import FlowrunTestSupport
import Testing

/// Subjects (scenario-format §Subjects, semantics.md §Properties and subjects): what a
/// subscriber that comes after the terminal event gets, and unbounded replay.
struct SubjectTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a RACSubject sends a later subscriber what is sent after it joined, never the old end",
      yaml: """
        flowrun: 1
        name: rac subject after completion
        subjects:
          s: { rac: true }
        signals:
          late: { from: s }
        timeline:
          - { at: 1, send: { s: 1 } }
          - { at: 2, complete: s }
          - { at: 4, send: { s: 4 } }
          - { at: 5, send: { s: 5 } }
          - { at: 6, complete: s }
        expect:
          s: "-1|"
          late: { subscribe: "---^", marble: "----45|" }
        """),
    Case(
      name: "a RACSubject that failed goes on for later subscribers, and a new error reaches them",
      yaml: """
        flowrun: 1
        name: rac subject after an error
        subjects:
          s: { rac: true }
        signals:
          late: { from: s }
        timeline:
          - { at: 1, fail: { s: first } }
          - { at: 3, send: { s: 3 } }
          - { at: 4, fail: { s: second } }
          - { at: 5, send: { s: 5 } }
        expect:
          s: { marble: "-#", error: first }
          late: { subscribe: "--^", marble: "---3#", error: second }
          s.subscriptions: ["^!", "--^-!"]
        """),
    Case(
      name: "a command whose work is a terminated RACSubject still hears later values",
      yaml: """
        flowrun: 1
        name: rac subject as work
        subjects:
          s: { rac: true }
        commands:
          c: { work: { from: s } }
        timeline:
          - { at: 1, complete: s }
          - { at: 2, execute: c }
          - { at: 3, send: { s: v } }
          - { at: 4, complete: s }
        values: { t: true, f: false }
        expect:
          c.values: "---v"
          c.executing: "f-t-f"
        """),
    Case(
      name: "a terminated RACSubject is disconnected from its subscribeTo signal",
      yaml: """
        flowrun: 1
        name: rac subject connection
        subjects:
          s: { rac: true, subscribeTo: { hot: "-a--b" } }
        signals:
          late: { from: s }
        timeline:
          - { at: 2, complete: s }
          - { at: 5, send: { s: c } }
        expect:
          s: "-a|"
          late: { subscribe: "---^", marble: "-----c" }
        """),
    Case(
      name: "a RAC behaviour subject sends a later subscriber its current value, not the old end",
      yaml: """
        flowrun: 1
        name: rac behaviour subject
        subjects:
          s: { rac: true, behavior: 0 }
        signals:
          late: { from: s }
        timeline:
          - { at: 1, send: { s: 1 } }
          - { at: 2, complete: s }
          - { at: 4, send: { s: 4 } }
        expect:
          s: "01|"
          late: { subscribe: "---^", marble: "---14" }
        """),
    Case(
      name: "a RAC replay subject keeps its terminated state and replays it",
      yaml: """
        flowrun: 1
        name: rac replay subject
        subjects:
          s: { rac: true, replay: 2 }
        signals:
          late: { from: s }
        timeline:
          - { at: 1, send: { s: 1 } }
          - { at: 2, complete: s }
        expect:
          late: { subscribe: "---^", marble: "---(1|)" }
        """),
    Case(
      name: "replay: all replays every value",
      yaml: """
        flowrun: 1
        name: unbounded replay
        subjects:
          s: { replay: all }
        signals:
          late: { from: s }
        timeline:
          - { at: 1, send: { s: 1 } }
          - { at: 2, send: { s: 2 } }
          - { at: 3, send: { s: 3 } }
          - { at: 5, send: { s: 5 } }
        expect:
          late: { subscribe: "----^", marble: "----(123)5" }
        """),
    Case(
      name: "replay: ~ is unbounded too, and replays the end after the values",
      yaml: """
        flowrun: 1
        name: unbounded replay written as null
        subjects:
          s: { replay: ~ }
        signals:
          late: { from: s }
        timeline:
          - { at: 1, send: { s: 1 } }
          - { at: 2, send: { s: 2 } }
          - { at: 3, complete: s }
        expect:
          late: { subscribe: "----^", marble: "----(12|)" }
        """),
  ]

  @Test(arguments: cases)
  func subjectBehaviour(_ testCase: Case) {
    #expect(problemsRunning(testCase.yaml) == nil)
  }

  @Test(arguments: [
    ("replay: many", "'replay' must be an integer ≥ 0, 'all' or ~, found 'many'"),
    ("replay: -1", "'replay' must be an integer ≥ 0, found -1"),
    ("replay: 1.5", "'replay' must be an integer ≥ 0, 'all' or ~, found 1.5"),
  ])
  func badReplaySize(_ entry: String, _ message: String) {
    let problems = problemsRunning(
      """
      flowrun: 1
      name: bad replay
      subjects:
        s: { \(entry) }
      """)
    #expect(problems?.contains(message) == true, "\(problems ?? "no problem")")
  }
}
