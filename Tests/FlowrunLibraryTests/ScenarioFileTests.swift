import Flowrun
import Testing

@Suite struct ScenarioFileTests {
  /// This repository's scenarios, run the way the README shows a team running its own: one
  /// Swift Testing test per scenario file, failing with flowrun's aligned diff.
  @Test(arguments: Flowrun.scenarioFiles(in: ["scenarios"], root: Flowrun.packageRoot(of: #filePath)))
  func scenario(_ file: ScenarioFile) {
    let outcome = Flowrun.run(file)
    #expect(outcome.passed, "\(outcome.failureDescription)")
  }

  @Test func theScenariosAreFound() {
    let files = Flowrun.scenarioFiles(in: ["scenarios"], root: Flowrun.packageRoot(of: #filePath))
    #expect(files.count >= 20)
    #expect(files.allSatisfy { $0.displayPath.hasPrefix("scenarios/") && $0.path.hasPrefix("/") })
    #expect(files.map(\.description).contains("scenarios/login/command.yaml"))
  }

  @Test func scenarioFilesKeepThePathsAsWritten() {
    let root = Flowrun.packageRoot(of: #filePath)
    let golden = "Tests/FlowrunReportTests/ReporterGolden"
    let slash = Flowrun.scenarioFiles(in: [golden + "/"], root: root).map(\.displayPath)
    #expect(slash == ["broken", "failing", "legends", "passing", "unparsable"].map { "\(golden)/\($0).yaml" })
    let file = Flowrun.scenarioFiles(in: ["scenarios/login/command.yaml"], root: root)
    #expect(file.map(\.displayPath) == ["scenarios/login/command.yaml"])
    #expect(file.first?.path == root + "/scenarios/login/command.yaml")
    #expect(Flowrun.scenarioFiles(in: ["no-such-directory"], root: root).isEmpty)
  }
}
