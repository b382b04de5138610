import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
@testable import FlowrunScenario

/// Loads scenario text and runs every scenario in it; describes what went wrong, or nil when
/// every document loaded and passed.
func problemsRunning(_ yaml: String, path: String = "test.yaml") -> String? {
  let file = ScenarioLoader.load(path: path, bytes: Array(yaml.utf8))
  if file.hasErrors || file.scenarios.isEmpty {
    return file.diagnostics.map(\.rendered).joined(separator: "\n")
  }
  var problems: [String] = []
  for scenario in file.scenarios {
    let result = ScenarioRunner.run(scenario)
    problems += result.diagnostics.filter { $0.severity == .error }.map(\.rendered)
    for expectation in result.expectations where !expectation.passed {
      problems.append("'\(expectation.spec.target)': \(describe(expectation, scenario))")
    }
  }
  return problems.isEmpty ? nil : problems.joined(separator: "\n")
}

/// The actual events of a failed expectation, as a marble with its invented legend.
private func describe(_ expectation: ExpectationResult, _ scenario: Scenario) -> String {
  switch expectation.actual {
  case .events(let events):
    var printer = MarblePrinter(
      grammar: scenario.grammar, legend: Legend(layers: [expectation.spec.legend]),
      errorValue: expectation.spec.errorValue)
    let printed = printer.print(events.events)
    let legend = printed.newEntries.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
    let error = printed.errorValue.map { " error: \($0)" } ?? ""
    return "actual \"\(printed.text)\"\(error) \(legend)"
  case .subscriptions(let entries):
    return "actual " + entries.map { MarblePrinter.subscription(subscribe: $0.subscribed, unsubscribe: $0.unsubscribed) }
      .joined(separator: ", ")
  }
}

/// The run of the only scenario in `yaml`.
func runOnly(_ yaml: String) -> ScenarioResult? {
  let file = ScenarioLoader.load(path: "test.yaml", bytes: Array(yaml.utf8))
  return file.scenarios.first.map { ScenarioRunner.run($0) }
}
