import FlowrunReport
import FlowrunScenario
import Foundation
import Testing

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let goldenDirectory = packageRoot.appendingPathComponent("Tests/FlowrunReportTests/Golden")

/// The teaching flows, as `(scenario path from the package root, golden name)`.
let teachingFlows: [(path: String, name: String)] = [
  ("scenarios/login/enable-button.yaml", "login-enable-button"),
  ("scenarios/login/command.yaml", "login-command"),
  ("scenarios/hud/two-commands.yaml", "hud-two-commands"),
  ("scenarios/hud/three-commands.yaml", "hud-three-commands"),
  ("scenarios/paging/refresh-and-next-page.yaml", "paging"),
  ("scenarios/signup/signup-form.yaml", "signup-form"),
]

/// Loads `path` (relative to the package root, which is how reports name it) and runs every
/// scenario in it traced.
func tracedRuns(_ path: String) throws -> [TracedRun] {
  let data = try Data(contentsOf: packageRoot.appendingPathComponent(path))
  let file = ScenarioLoader.load(path: path, bytes: Array(data))
  #expect(!file.hasErrors, "\(path) did not load")
  return TeachingSession.traced(file)
}

/// Compares `actual` with `Golden/<name>`; `FLOWRUN_RECORD=1` rewrites the file and records an
/// issue so that the run fails until it is run again without it.
func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
  let url = goldenDirectory.appendingPathComponent(name)
  if ProcessInfo.processInfo.environment["FLOWRUN_RECORD"] == "1" {
    try? FileManager.default.createDirectory(at: goldenDirectory, withIntermediateDirectories: true)
    try? Data(actual.utf8).write(to: url)
    Issue.record("recorded \(name); run again without FLOWRUN_RECORD", sourceLocation: sourceLocation)
    return
  }
  guard let data = FileManager.default.contents(atPath: url.path) else {
    Issue.record("missing golden file \(name); run with FLOWRUN_RECORD=1", sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  guard expected != actual else { return }
  let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
  let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
  let line = first < b.count ? String(b[first]) : "<end>"
  let was = first < a.count ? String(a[first]) : "<end>"
  Issue.record(
    "\(name) differs at line \(first + 1):\n- \(was)\n+ \(line)", sourceLocation: sourceLocation)
}
