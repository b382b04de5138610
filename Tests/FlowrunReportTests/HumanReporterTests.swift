import FlowrunReport
import FlowrunScenario
import FlowrunTestSupport
import Testing

/// The human reporter's fixed parts: the summary line, the report of a file that did not load,
/// colour, verbosity. (Whole reports of passing and failing scenarios are golden files in
/// `flowrunTests`.)
@Suite struct HumanReporterTests {
  @Test func summaryLineReadsForCIParsers() {
    var summary = RunSummary()
    summary.scenarios = 3
    summary.passed = 2
    summary.failed = 1
    summary.expectations = 5
    summary.failedExpectations = 1
    let reporter = HumanReporter(color: false)
    #expect(
      reporter.summary(summary, seconds: nil) == "3 scenarios, 2 passed, 1 failed (5 expectations, 1 failed)")
    #expect(reporter.summary(summary, seconds: 0.123).hasSuffix(" in 0.12 s"))
    #expect(!summary.isSuccess)
  }

  /// One scenario and one expectation read in the singular; none in the plural.
  @Test(arguments: [
    (1, 1, "1 scenario, 1 passed, 0 failed (1 expectation, 0 failed)"),
    (0, 0, "0 scenarios, 0 passed, 0 failed (0 expectations, 0 failed)"),
    (2, 1, "2 scenarios, 2 passed, 0 failed (1 expectation, 0 failed)"),
  ])
  func summaryLineCountsInTheSingular(_ scenarios: Int, _ expectations: Int, _ line: String) {
    var summary = RunSummary()
    summary.scenarios = scenarios
    summary.passed = scenarios
    summary.expectations = expectations
    #expect(HumanReporter(color: false).summary(summary, seconds: nil) == line)
  }

  @Test func brokenFileIsReportedWithItsDiagnostics() {
    let file = loadScenarios("flowrun: 2\nname: x\n", path: "broken.yaml")
    var summary = RunSummary()
    summary.add(file: file)
    #expect(summary.scenarios == 1 && summary.failed == 1)
    let text = HumanReporter(color: false).report(file: file, results: [])
    #expect(
      text == """
        ✗ broken.yaml  (did not load)
          broken.yaml:1:10: error: unsupported scenario format 2 (this flowrun reads 1)
              flowrun: 2
                       ^

        """)
  }

  @Test func colourWrapsMarksAndSeverities() {
    let file = loadScenarios("flowrun: 2\nname: x\n", path: "broken.yaml")
    let text = HumanReporter(color: true).report(file: file, results: [])
    #expect(text.hasPrefix("\u{1B}[31m✗\u{1B}[0m broken.yaml"))
    #expect(text.contains("\u{1B}[31merror:\u{1B}[0m"))
    #expect(!HumanReporter(color: false).report(file: file, results: []).contains("\u{1B}"))
  }

  @Test func passingScenarioLine() throws {
    let yaml = "flowrun: 1\nname: Just one\nsignals:\n  a: { just: 1 }\nexpect:\n  a: \"(1|)\"\n"
    let file = loadScenarios(yaml, path: "ok.yaml")
    let scenario = try #require(file.scenarios.first)
    let result = ScenarioRunner.run(scenario)
    #expect(result.status == .passed)
    #expect(HumanReporter(color: false).report(result) == "✓ ok.yaml  Just one  (1 expectation)\n")
    #expect(HumanReporter(color: false, verbosity: .quiet).report(result) == "")
    #expect(
      HumanReporter(color: false, verbosity: .verbose).report(result)
        == "✓ ok.yaml  Just one  (1 expectation)\n  ✓ a\n")
  }
}
