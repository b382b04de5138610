import FlowrunReport
import FlowrunScenario
import FlowrunTestSupport
import Foundation
import Testing

/// Golden files for every machine reporter: each `ReporterGolden/<case>.yaml` is run and its
/// report compared with `ReporterGolden/<case>.<reporter>` (json, junit, tap, github).
///
/// Durations are masked (`"durationSeconds": 0.0` in JSON, `time="0"` in JUnit). Run with
/// `FLOWRUN_RECORD=1` to rewrite the golden files from the current output; each rewrite is
/// recorded as an issue, so a recording run never passes by accident.
@Suite struct ReporterGoldenTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("ReporterGolden")

  /// The cases: every `*.yaml` in the golden directory, by name without extension.
  static let cases: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
  }()

  static let reporters: [ReporterKind] = [.json, .junit, .tap, .github]

  @Test func everyReporterHasGoldenCases() {
    #expect(Self.cases.contains("passing"))
    #expect(Self.cases.contains("failing"))
    #expect(Self.cases.contains("broken"))
  }

  @Test(arguments: cases, reporters)
  func reportMatchesGolden(_ name: String, _ kind: ReporterKind) throws {
    let report = try Self.run(name)
    let reporter = try #require(kind.reporter(color: false))
    let actual = Self.mask(reporter.render(report))
    let golden = Self.directory.appendingPathComponent("\(name).\(kind.rawValue)")
    assertGolden(actual, file: golden)
  }

  /// Loads and runs `<name>.yaml` as the session does, with the path as written (`<name>.yaml`).
  static func run(_ name: String) throws -> RunReport {
    let url = directory.appendingPathComponent("\(name).yaml")
    let bytes = try [UInt8](Data(contentsOf: url))
    let file = ScenarioLoader.load(path: "\(name).yaml", bytes: bytes)
    let results = file.scenarios.map { ScenarioRunner.run($0) }
    var summary = RunSummary()
    summary.add(file: file)
    for result in results { summary.add(result) }
    return RunReport(files: [.init(file: file, results: results)], summary: summary, durationSeconds: 0)
  }

  /// Replaces wall-clock times, which change from run to run.
  static func mask(_ text: String) -> String {
    var text = text
    // Swift 6 regex literals need a flag; `Regex(_:)` from a string does not.
    if let json = try? Regex(#""durationSeconds": [0-9.eE+-]+"#) {
      text = text.replacing(json, with: #""durationSeconds": 0.0"#)
    }
    if let junit = try? Regex(#" time="[0-9.eE+-]+""#) {
      text = text.replacing(junit, with: #" time="0""#)
    }
    return text
  }
}
