import FlowrunDiagnostics
import FlowrunTestSupport
import Testing

/// `!cold`/`!hot` values in a marble's own legend (a step's or an expectation's `values`) read
/// their tokens from that same legend, over the file's (scenario-format §Values: "a marble with
/// the same legend").
struct LocalLegendTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "an expectation's !cold value reads the expectation's own tokens",
      yaml: """
        flowrun: 1
        name: command executions
        signals:
          taps: { hot: "--x" }
        commands:
          fetch:
            work: { cold: "-(a|)", values: { a: [1, 2, 3] } }
        effects:
          - on: taps
            execute: fetch
        expect:
          fetch.executions: { marble: "--b", values: { a: [1, 2, 3], b: !cold "-(a|)" } }
        """),
    Case(
      name: "a legend's own token shadows the file's inside its !cold value",
      yaml: """
        flowrun: 1
        name: shadowing
        values: { a: 9, b: !cold "-a|" }
        signals:
          s: { hot: "-b", values: { a: 1, b: !cold "-a|" } }
          t: { hot: "-b" }
        expect:
          s: { marble: "-c", values: { p: 1, c: !cold "-p|" } }
          t: "-b"
        """),
    Case(
      name: "a hot source's !cold values read the source's own tokens",
      yaml: """
        flowrun: 1
        name: hot source
        values: { a: 9, b: 9 }
        signals:
          s:
            - hot: "-x--y|"
              values: { a: 1, b: 2, x: !cold "-a|", y: !cold "-(b|)" }
            - mergeAll
        expect:
          s: { marble: "--p--(q|)", values: { p: 1, q: 2 } }
        """),
    Case(
      name: "a source's !hot value reads the source's own tokens",
      yaml: """
        flowrun: 1
        name: hot value
        values: { a: 9 }
        signals:
          s:
            - hot: "-x---|"
              values: { a: 1, x: !hot "--a--a|" }
            - mergeAll
        expect:
          s: { marble: "--p--p|", values: { p: 1 } }
        """),
    Case(
      name: "a !cold value may contain another value of the same local legend",
      yaml: """
        flowrun: 1
        name: nested
        signals:
          s:
            - cold: "-o|"
              values: { o: !cold "-(i|)", i: !cold "-(a|)", a: 1 }
            - mergeAll
            - mergeAll
        expect:
          s: { marble: "---(p|)", values: { p: 1 } }
        """),
    Case(
      name: "a command's work case with a !cold value of its own legend",
      yaml: """
        flowrun: 1
        name: work case
        commands:
          c:
            work:
              cases:
                - cold: "-(w|)"
                  values: { w: !cold "-(a|)", a: [1, 2, 3] }
        timeline: [{ at: 1, execute: c }]
        expect:
          c.values: { marble: "--v", values: { v: !cold "-(n|)", n: [1, 2, 3] } }
        """),
  ]

  @Test(arguments: cases)
  func localLegendSignal(_ testCase: Case) {
    #expect(problemsRunning(testCase.yaml) == nil)
  }

  @Test(arguments: [
    """
    flowrun: 1
    name: a local value that contains itself
    signals:
      s: [{ cold: "-x|", values: { x: !cold "-y|", y: !cold "-x|" } }, mergeAll]
    expect:
      s: "-"
    """,
    """
    flowrun: 1
    name: an expectation's value that contains itself
    signals:
      s: { just: 1 }
    expect:
      s: { marble: "x", values: { x: !hot "-x" } }
    """,
  ])
  func localLegendCycleIsReported(_ yaml: String) {
    let problems = problemsRunning(yaml) ?? ""
    #expect(problems.contains("contains itself"), "\(problems)")
  }
}
