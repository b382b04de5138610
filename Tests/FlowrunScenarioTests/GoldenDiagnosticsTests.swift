import FlowrunDiagnostics
import FlowrunScenario
import FlowrunTestSupport
import Foundation
import Testing

/// Bad scenario files and the exact diagnostics they must produce.
///
/// Each `Golden/<case>.yaml` is loaded with `ScenarioLoader.load(path: "<case>.yaml", bytes:)`;
/// every `Diagnostic.rendered`, joined by newlines (plus a final newline), must equal
/// `Golden/<case>.out`. `FLOWRUN_RECORD=1 swift test --filter GoldenDiagnostics` rewrites the
/// `.out` files (and fails, so that a recording run is never mistaken for a passing one).
@Suite struct GoldenDiagnostics {
  @Test func casesAreDiscovered() {
    #expect(GoldenCase.all.count >= 45)
  }

  @Test(arguments: GoldenCase.all)
  func diagnostics(_ golden: GoldenCase) throws {
    let bytes = try [UInt8](Data(contentsOf: golden.inputURL))
    let loaded = ScenarioLoader.load(path: golden.name + ".yaml", bytes: bytes)
    #expect(loaded.hasErrors, "a golden case must be a bad input")
    let rendered = loaded.diagnostics.map(\.rendered).joined(separator: "\n") + "\n"
    assertGolden(rendered, file: golden.outputURL)
  }

  @Test(arguments: GoldenCase.all)
  func loadingIsDeterministic(_ golden: GoldenCase) throws {
    let bytes = try [UInt8](Data(contentsOf: golden.inputURL))
    let first = ScenarioLoader.load(path: golden.name + ".yaml", bytes: bytes).diagnostics
    let second = ScenarioLoader.load(path: golden.name + ".yaml", bytes: bytes).diagnostics
    #expect(first == second)
  }
}
