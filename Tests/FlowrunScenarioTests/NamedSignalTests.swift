import FlowrunDiagnostics
import FlowrunTestSupport
import FlowrunYAML
import Testing

@testable import FlowrunScenario

/// Named signals that refer to one another: chains load without a nested call per name (they
/// run on the test's own thread here, whose stack is small), renamings share one node, and
/// cycles are reported (scale: Benchmarks/README.md; 200,000 names: the hostile corpus).
struct NamedSignalTests {
  /// `s0` … `s<n - 1>`, each written with `link(i + 1)`, then `s<n>: <end>`.
  static func chain(_ n: Int, end: String, expect: String, link: (Int) -> String) -> String {
    var text = "flowrun: 1\nname: chain\nsignals:\n"
    for i in 0..<n { text += "  s\(i): \(link(i + 1))\n" }
    return text + "  s\(n): \(end)\nexpect:\n  s0: \"\(expect)\"\n"
  }

  /// Each way to write `s<i>` from `s<i + 1>`: before and after the next name.
  @Test(arguments: [("{ from: s", " }"), ("[from: s", "]"), ("s", "")])
  func chainOfRenamingsLoadsAndRuns(_ before: String, _ after: String) {
    let yaml = Self.chain(20_000, end: "{ hot: \"-a-b|\" }", expect: "-a-b|") { before + "\($0)" + after }
    #expect(problemsRunning(yaml) == nil)
  }

  @Test func chainOfStepsLoadsWithoutNesting() {
    let yaml = Self.chain(20_000, end: "{ just: 1 }", expect: "(1|)") { "[{ from: s\($0) }, tap]" }
    let file = ScenarioLoader.load(path: "test.yaml", bytes: Array(yaml.utf8))
    #expect(!file.hasErrors, "\(file.diagnostics.prefix(3).map(\.rendered))")
    #expect(file.scenarios.first?.plan.signals.count == 20_001)
  }

  @Test func longCycleIsShownByItsEnds() {
    let yaml = Self.chain(29, end: "{ from: s0 }", expect: "-") { "{ from: s\($0) }" }
    let problems = problemsRunning(yaml) ?? ""
    #expect(
      problems.contains(
        "cycle of references: 's0' → 's1' → 's2' → 's3' → 's4' → … 21 more … → 's26' → 's27' → 's28' → 's29' → 's0'"),
      "\(problems)")
  }

  @Test func shortCycleAtTheEndOfALongChain() {
    let yaml = Self.chain(20_000, end: "{ from: s19999 }", expect: "-") { "s\($0)" }
    let problems = problemsRunning(yaml) ?? ""
    #expect(problems.contains("error: cycle of references: 's19999' → 's20000' → 's19999'"), "\(problems)")
    #expect(problems.split(separator: "\n").filter { $0.contains("error:") }.count == 1, "\(problems)")
  }

  @Test func chainOfStepsIntoACycleStopsAtTheNestingLimit() {
    let yaml = Self.chain(20_000, end: "{ from: s0 }", expect: "-") { "[{ from: s\($0) }, tap]" }
    let problems = problemsRunning(yaml) ?? ""
    #expect(problems.contains("signals refer to one another"), "\(problems.prefix(500))")
  }

  /// Renamings keep every other rule: a cycle through a renaming and a step is still found, and
  /// a renaming of a renaming of a `combineLatest` keeps its shape for `$1`.
  @Test(arguments: [
    (
      """
      flowrun: 1
      name: cycle through a renaming
      signals:
        a: b
        b: [{ from: c }, tap]
        c: { from: a }
      expect:
        a: "-"
      """, "cycle of references: 'a' → 'b' → 'c' → 'a'"
    ),
    (
      """
      flowrun: 1
      name: shape through renamings
      signals:
        pair: { combineLatest: [{ just: 1 }, { just: 2 }] }
        p1: pair
        p2: { from: p1 }
        sum: [{ from: p2 }, { map: '$0 + $1' }]
      expect:
        sum: "(3|)"
      """, ""
    ),
  ])
  func renamingsKeepTheRules(_ yaml: String, _ error: String) {
    let problems = problemsRunning(yaml)
    if error.isEmpty {
      #expect(problems == nil)
    } else {
      #expect(problems?.contains(error) == true, "\(problems ?? "no problem")")
    }
  }
}
