import FlowrunCore
import FlowrunDiagnostics
import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunScenario

/// One scenario-level case: a scenario body (everything after `flowrun` and `name`) whose
/// expectations must all pass.
struct OperatorCase: CustomTestStringConvertible, Sendable {
  let name: String
  let body: String

  init(_ name: String, _ body: String) {
    self.name = name
    self.body = body
  }

  var testDescription: String { name }
}

/// Runs one case and records an issue with the report when it fails.
func check(_ testCase: OperatorCase, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  let name = testCase.name.replacingOccurrences(of: "'", with: "''")
  let text = "flowrun: 1\nname: '\(name)'\n" + testCase.body
  if let report = problemsRunning(text, path: "case.yaml") {
    Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
  }
}

/// Loads a case that must fail to load, returning the diagnostics' messages.
func loadErrors(_ body: String) -> [String] {
  let text = "flowrun: 1\nname: load error\n" + body
  return loadScenarios(text, path: "case.yaml").diagnostics.map(\.message)
}

@Suite struct OperatorSupportTests {
  @Test func aFailingExpectationIsReportedWithItsActualEvents() {
    let report = problemsRunning(
      """
      flowrun: 1
      name: wrong on purpose
      signals:
        s: { hot: "-a|" }
      expect:
        s: "--a|"
      """)
    #expect(report?.contains("s: expected \"--a|\"\n     actual   \"-a|\"") == true, "\(report ?? "")")
  }
}
