import Counter
import FlowrunTesting
import Testing

/// The counter checked against its scenario, as an app's test target does it; the YAML is read
/// by the libyaml that Yams carries (the package's `CarriedLibYAML` trait).
@Suite struct CounterTests {
  static func bind(_ flow: Flow, plantedBug: Bool = false) {
    let viewModel = CounterViewModel()
    flow.drive("plus") { plantedBug ? viewModel.decrement() : viewModel.increment() }
    flow.drive("minus") { viewModel.decrement() }
    flow.observe("count", viewModel.$count)
    flow.observe("canDecrement", viewModel.$canDecrement)
  }

  @Test func bothDocumentsPass() throws {
    try ScenarioCheck.run("scenarios/counter.yaml", root: #filePath) { Self.bind($0) }
  }

  @Test func aPlantedBugFailsAtItsYAMLLine() throws {
    let failures = try ScenarioCheck.failures("scenarios/counter.yaml", root: #filePath) {
      Self.bind($0, plantedBug: true)
    }
    #expect(failures.map(\.line) == [19, 20], "\(failures)")
  }

  /// A failing check attaches its HTML diagram and its text diff to the test: `swift test
  /// --attachments-path DIR` writes them (ConsumerPackageTests looks for them there).
  @Test func aFailingCheckAttachesItsDiagramAndDiff() {
    withKnownIssue {
      try ScenarioCheck.run("scenarios/counter.yaml", scenario: "Counting up and down") {
        Self.bind($0, plantedBug: true)
      }
    }
  }

  /// A syntax error is reported where libyaml found it, line and column.
  @Test func brokenYAMLIsReportedWhereItIs() throws {
    let failures = try ScenarioCheck.failures("scenarios/broken.yaml", root: #filePath) { Self.bind($0) }
    #expect(failures.count == 1)
    #expect(
      failures.first?.message.hasPrefix("scenarios/broken.yaml:6:1: error: found unexpected end of stream") == true,
      "\(failures)")
  }
}
