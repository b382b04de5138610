import Foundation
import Testing

/// An app's package that adds `FlowrunTesting` to its test target (`Tests/Consumer`), with the
/// `CarriedLibYAML` trait: it builds and passes with the libyaml that Yams carries, and its test
/// binary links no system libyaml — the path an iOS Simulator test target takes, compiled and
/// run here. Its failing check (a known issue) writes its attachments under `--attachments-path`.
@Suite struct ConsumerPackageTests {
  static let package = CLI.packageRoot.appendingPathComponent("Tests/Consumer")
  static let scratch = CLI.packageRoot.appendingPathComponent(".build-consumer")

  @Test func anAppsTestTargetPassesWithTheCarriedLibYAML() async throws {
    let swift = try #require(Shell.onPath("swift"), "swift is not on PATH")
    let attachments = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-attachments-\(getpid())")
    try? FileManager.default.removeItem(at: attachments)
    try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: attachments) }
    let test = try await ChildProcess.run(
      swift,
      [
        "test", "--package-path", Self.package.path, "--scratch-path", Self.scratch.path, "--attachments-path",
        attachments.path,
      ],
      in: CLI.packageRoot, hangGuard: 3600)
    #expect(test.status == 0, "\(test.output.suffix(4000))")
    #expect(test.output.contains("Test run with 4 tests in 1 suite passed"), "\(test.output.suffix(4000))")

    // The failing check of the planted bug attached its diagram and its diff.
    let written = (FileManager.default.subpaths(atPath: attachments.path) ?? []).sorted()
    #expect(written.contains { $0.hasSuffix(".html") }, "attachments written: \(written)")
    #expect(written.contains { $0.hasSuffix(".diff.txt") }, "attachments written: \(written)")
    let diff = written.first { $0.hasSuffix(".diff.txt") }.flatMap {
      try? String(contentsOf: attachments.appendingPathComponent($0), encoding: .utf8)
    }
    #expect(diff?.contains("scenarios/counter.yaml:19:3: expectation 'count'") == true, "\(diff ?? "no diff")")

    let bundle = Self.scratch.appendingPathComponent("debug/FlowrunConsumerPackageTests.xctest")
    let ldd = try Shell.run(["ldd", bundle.path])
    #expect(ldd.status == 0, "\(ldd.output)")
    #expect(!ldd.output.contains("libyaml"), "the consumer links the system libyaml:\n\(ldd.output)")

    let graph = try Shell.run([
      "swift", "package", "--package-path", Self.package.path, "--scratch-path", Self.scratch.path,
      "show-dependencies",
    ])
    #expect(graph.output.contains("(traits: CarriedLibYAML)"), "\(graph.output)")
    #expect(graph.output.contains("jpsim/Yams"), "\(graph.output)")
  }
}
