import FlowrunReport
import FlowrunScenario
import FlowrunTestSupport
import Foundation
import Testing

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

/// Compares `actual` with `Golden/<name>` (`FLOWRUN_RECORD=1` rewrites it and records an issue).
func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
  assertGolden(actual, file: goldenDirectory.appendingPathComponent(name), sourceLocation: sourceLocation)
}
