import FlowrunCore
import FlowrunDiagnostics
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

/// Loads and runs `text` as a scenario file; returns nil when it passed, else a readable report
/// of the load diagnostics or the failed expectations with their actual events.
func failureReport(ofFile text: String, path: String = "case.yaml") -> String? {
  let loaded = ScenarioLoader.load(path: path, bytes: Array(text.utf8))
  guard !loaded.hasErrors, !loaded.scenarios.isEmpty else {
    return "load failed:\n" + loaded.diagnostics.map(\.rendered).joined(separator: "\n")
  }
  var lines: [String] = []
  for scenario in loaded.scenarios {
    let result = ScenarioRunner.run(scenario)
    guard result.status != .passed else { continue }
    lines.append("\(scenario.name): \(result.status)")
    lines += result.diagnostics.map(\.rendered)
    for expectation in result.expectations where !expectation.passed {
      lines.append("  \(expectation.spec.target): expected \(describe(expectation.spec))")
      lines.append("  \(String(repeating: " ", count: expectation.spec.target.count))  actual   \(describe(expectation.actual))")
    }
  }
  return lines.isEmpty ? nil : lines.joined(separator: "\n")
}

/// Runs one case and records an issue with the report when it fails.
func check(_ testCase: OperatorCase, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  let name = testCase.name.replacingOccurrences(of: "'", with: "''")
  let text = "flowrun: 1\nname: '\(name)'\n" + testCase.body
  if let report = failureReport(ofFile: text) {
    Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
  }
}

/// Loads a case that must fail to load, returning the diagnostics' messages.
func loadErrors(_ body: String) -> [String] {
  let text = "flowrun: 1\nname: load error\n" + body
  return ScenarioLoader.load(path: "case.yaml", bytes: Array(text.utf8)).diagnostics.map(\.message)
}

private func describe(_ spec: ExpectationSpec) -> String {
  switch spec.expected {
  case .events: spec.expectedText
  case .subscriptions(_, let marbles): marbles.description
  }
}

private func describe(_ actual: ExpectationResult.Actual) -> String {
  switch actual {
  case .events(let events):
    return events.map { recorded in
      switch recorded.event {
      case .next(let value): "\(recorded.frame):\(value)"
      case .error(let value): "\(recorded.frame):#\(value)"
      case .completed: "\(recorded.frame):|"
      }
    }.joined(separator: " ")
  case .subscriptions(let entries):
    return entries.map { "\($0.subscribed)…\($0.unsubscribed.map(String.init) ?? "")" }.joined(separator: ", ")
  }
}

@Suite struct OperatorSupportTests {
  @Test func aFailingExpectationIsReportedWithItsActualEvents() {
    let report = failureReport(ofFile: """
      flowrun: 1
      name: wrong on purpose
      signals:
        s: { hot: "-a|" }
      expect:
        s: "--a|"
      """)
    #expect(report?.contains("1:\"a\" 2:|") == true)
  }
}
