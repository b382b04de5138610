import FlowrunTestSupport
import Foundation
import Testing

/// The executables: the drafted test names its scenario relative to its package, and `flowrun
/// import` finds the importer built in the other configuration.
@Suite struct ImportCommandTests {
  static func scratch() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// A copy made by `cp`, in its own process (an in-process copy can leave a descriptor that a
  /// parallel test's subprocess inherits: ETXTBSY).
  static func copy(_ source: URL, to destination: URL) throws {
    try FileManager.default.createDirectory(
      at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/cp")
    process.arguments = [source.path, destination.path]
    try process.run()
    process.waitUntilExit()
  }

  @Test func theTestNamesTheScenarioRelativeToItsPackage() throws {
    let root = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    try "// swift-tools-version:6.1\n".write(
      to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let out = root.appendingPathComponent("Tests/SearchTests")
    let source = packageRoot.appendingPathComponent("Examples/Sources/ViewModels/SearchViewModel.swift").path
    let result = try FlowrunCLI.run(
      [source, "--out", out.path, "--module", "ViewModels"], executable: FlowrunCLI.importer)
    #expect(result.status == 0, "\(result.stderr)")
    let test = try String(contentsOf: out.appendingPathComponent("SearchViewModelTests.swift"), encoding: .utf8)
    #expect(test.contains("ScenarioCheck.run(\"Tests/SearchTests/SearchViewModel.yaml\", root: #filePath)"))
    #expect(!test.contains(root.path))
  }

  @Test func flowrunImportFindsTheImporterInTheOtherConfiguration() throws {
    let build = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: build) }
    let flowrun = build.appendingPathComponent("release/flowrun")
    try Self.copy(try #require(FlowrunCLI.executable), to: flowrun)
    // Not built anywhere: how to build it beside a release flowrun.
    let missing = try FlowrunCLI.run(["import"], executable: flowrun)
    #expect(missing.status == 64)
    #expect(missing.stderr.contains("swift build -c release --product flowrun-import"), "\(missing.stderr)")
    // Built in debug, as `swift build --product flowrun-import` does: found.
    try Self.copy(try #require(FlowrunCLI.importer), to: build.appendingPathComponent("debug/flowrun-import"))
    let found = try FlowrunCLI.run(["import"], executable: flowrun)
    #expect(found.status == 64)
    #expect(found.stderr.hasPrefix("usage: flowrun-import"), "\(found.stderr)")
  }
}
