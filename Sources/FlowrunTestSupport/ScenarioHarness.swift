import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
public import FlowrunScenario
public import Foundation
public import Testing

/// The package root, found from this file's path (`<root>/Sources/FlowrunTestSupport/…`).
public let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Loads YAML text as the scenario file `path` (nothing is read from disk).
public func loadScenarios(_ yaml: String, path: String = "test.yaml") -> LoadedFile {
  ScenarioLoader.load(path: path, bytes: Array(yaml.utf8))
}

/// Loads the file at `path` relative to the package root, named by that relative path as
/// reports name it, and runs every scenario in it traced; a file that does not load is an issue.
public func tracedRuns(_ path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [TracedRun]
{
  let data = try Data(contentsOf: packageRoot.appendingPathComponent(path))
  let file = ScenarioLoader.load(path: path, bytes: Array(data))
  if file.hasErrors { Issue.record("\(path) did not load", sourceLocation: sourceLocation) }
  return file.scenarios.map { ScenarioRunner.traced($0) }
}

/// Loads scenario text and runs every scenario in it: nil when every document loaded and every
/// scenario passed, else what went wrong.
public func problemsRunning(_ yaml: String, path: String = "test.yaml") -> String? {
  problems(of: loadScenarios(yaml, path: path))
}

/// The run of the only (or first) scenario in `yaml`.
public func runOnly(_ yaml: String) -> ScenarioResult? {
  loadScenarios(yaml).scenarios.first.map { ScenarioRunner.run($0) }
}

/// Runs every scenario of `file`: nil when every document loaded and every scenario passed,
/// else a readable report — the load diagnostics, or for each failing scenario its run-time
/// errors and each failed expectation's expected marble above the actual one (printed in the
/// scenario's grammar, with the legend entries it needed).
public func problems(of file: LoadedFile) -> String? {
  if file.hasErrors || file.scenarios.isEmpty {
    return "load failed:\n" + file.diagnostics.map(\.rendered).joined(separator: "\n")
  }
  var lines: [String] = []
  for scenario in file.scenarios {
    let result = ScenarioRunner.run(scenario)
    guard result.status != .passed else { continue }
    lines.append("\(scenario.name): \(result.status)")
    lines += result.diagnostics.map(\.rendered)
    for expectation in result.expectations where !expectation.passed {
      let target = expectation.spec.target
      lines.append("  \(target): expected \(expected(expectation.spec))")
      lines.append("  \(String(repeating: " ", count: target.count))  actual   \(actual(expectation, scenario))")
    }
  }
  return lines.isEmpty ? nil : lines.joined(separator: "\n")
}

private func expected(_ spec: ExpectationSpec) -> String {
  switch spec.expected {
  case .events: "\"\(spec.expectedText)\""
  case .subscriptions(_, let marbles): marbles.description
  }
}

/// The actual events of a failed expectation as a marble, with the legend entries it invented.
private func actual(_ expectation: ExpectationResult, _ scenario: Scenario) -> String {
  switch expectation.actual {
  case .events(let events):
    var printer = MarblePrinter(
      grammar: scenario.grammar, legend: Legend(layers: [expectation.spec.legend]),
      errorValue: expectation.spec.errorValue)
    let printed = printer.print(events.events).cancelling(at: expectation.cancelled)
    let legend = printed.newEntries.map { " \($0.key) = \($0.value)" }.joined(separator: ",")
    let error = printed.errorValue.map { " error: \($0)" } ?? ""
    return "\"\(printed.text)\"\(error)\(legend.isEmpty ? "" : " where" + legend)"
  case .subscriptions(let entries):
    return entries.map { MarblePrinter.subscription(subscribe: $0.subscribed, unsubscribe: $0.unsubscribed) }
      .joined(separator: ", ")
  }
}
