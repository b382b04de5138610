import FlowrunDiagnostics
import FlowrunReport
import FlowrunScenario
import FlowrunYAML
import Foundation
import Testing

/// How a failed invariant reads in the human, JSON and GitHub reports.
@Suite struct InvariantReportTests {
  static let yaml = """
    flowrun: 1
    name: Button enabled by one field
    tick: 100ms
    values: { a: "1", t: true, f: false }
    signals:
      accountText:  { hot: "-a" }
      passwordText: { hot: "--" }
      either: [{ combineLatest: [vm.account, vm.password] }, { map: '$0 != nil || $1 != nil' }]
    properties:
      vm.account: accountText
      vm.password: passwordText
      button.enabled: either
    invariants:
      - name: enabled only with both fields
        that: 'button.enabled == (vm.account != nil && vm.password != nil)'
      - 'now < 10'
    expect:
      button.enabled: "ft"
    """

  private func result() throws -> ScenarioResult {
    let file = ScenarioLoader.load(path: "button.yaml", bytes: Array(Self.yaml.utf8))
    let scenario = try #require(file.scenarios.first, "\(file.diagnostics.map(\.rendered))")
    return ScenarioRunner.run(scenario)
  }

  /// The failure is located at the expression, names the frame, shows the lanes of the names
  /// read up to that frame with a caret and the values, and the scenario fails (not errs).
  @Test func humanReportLocatesTheFailure() throws {
    let result = try result()
    #expect(result.status == .failed)
    #expect(
      HumanReporter(color: false).report(result) == """
        ✗ button.yaml  Button enabled by one field
          button.yaml:15:11: error: invariant 'enabled only with both fields' failed at frame 1
                  that: 'button.enabled == (vm.account != nil && vm.password != nil)'
                        ^
                            0
            vm.account      ba
            vm.password     b-
            button.enabled  ft
                             ^ frame 1: vm.account = "1", vm.password = null, button.enabled = true
            legend: a = "1", t = true, f = false, b = null

        """)
  }

  @Test func passingScenarioCountsItsInvariants() throws {
    let file = ScenarioLoader.load(
      path: "ok.yaml",
      bytes: Array(
        Self.yaml.replacingOccurrences(of: "||", with: "&&").replacingOccurrences(of: "\"ft\"", with: "\"ff\"").utf8))
    let result = ScenarioRunner.run(try #require(file.scenarios.first))
    #expect(result.status == .passed, "\(HumanReporter(color: false).report(result))")
    #expect(
      HumanReporter(color: false).report(result)
        == "✓ ok.yaml  Button enabled by one field  (1 expectation, 2 invariants)\n")
  }

  @Test func machineReportsCarryTheFailure() throws {
    let result = try result()
    let file = ScenarioLoader.load(path: "button.yaml", bytes: Array(Self.yaml.utf8))
    var summary = RunSummary()
    summary.add(result)
    let report = RunReport(files: [.init(file: file, results: [result])], summary: summary, durationSeconds: 0)
    #expect(
      GitHubReporter().render(report)
        == "::error file=button.yaml,line=15,col=11,title=flowrun::invariant 'enabled only with both fields' failed at frame 1\n"
    )
    let json = JSONReporter().render(report)
    #expect(json.contains("\"lanes\": {\n"))
    #expect(json.contains("\"vm.password\": \"null\""))
    #expect(
      JUnitReporter().render(report).contains("<failure message=\"invariant 'enabled only with both fields' failed\">"))
  }
}
