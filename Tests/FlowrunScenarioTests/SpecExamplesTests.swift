import FlowrunDiagnostics
import FlowrunTestSupport
import Foundation
import Testing

/// The spec's own scenarios (`../shared/spec/examples/`, beside the checkout) must pass
/// unchanged; so must every scenario of this repository.
@Suite struct SpecExamplesTests {
  static let examples = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/spec/examples")

  static func yamlFiles(in directory: URL) -> [String] {
    let paths = FileManager.default.subpaths(atPath: directory.path) ?? []
    return paths.filter { $0.hasSuffix(".yaml") }.sorted().map { directory.appendingPathComponent($0).path }
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: examples.path), "../shared/spec/examples is not beside the checkout"),
    arguments: yamlFiles(in: examples))
  func specExamplePasses(_ path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(problemsRunning(text, path: path) == nil)
  }

  /// The repository's scenario files, relative to `scenarios/`.
  static let repositoryScenarios =
    (FileManager.default.subpaths(atPath: packageRoot.appendingPathComponent("scenarios").path) ?? [])
    .filter { $0.hasSuffix(".yaml") }.sorted()

  /// The parameterized tests above and below pass on no case at all: these floors make a moved
  /// folder fail instead (the spec has 7 examples; `scenarios/` 69 files).
  @Test func theCasesAreThere() {
    #expect(Self.repositoryScenarios.count >= 69, "scenarios/ holds \(Self.repositoryScenarios.count) files")
    if FileManager.default.fileExists(atPath: Self.examples.path) {
      #expect(Self.yamlFiles(in: Self.examples).count >= 7)
    }
  }

  /// Paths relative to the package root, as `flowrun scenarios` names them (expression errors
  /// carry the path in their `at`).
  @Test(arguments: repositoryScenarios)
  func repositoryScenarioPasses(_ relative: String) throws {
    let text = try String(contentsOf: packageRoot.appendingPathComponent("scenarios/" + relative), encoding: .utf8)
    #expect(problemsRunning(text, path: "scenarios/" + relative) == nil)
  }
}
