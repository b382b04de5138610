import FlowrunTestSupport
import Foundation
import Testing

/// Differential conformance against OpenCombine 0.14.0 (`Tests/Conformance/combine_diff.py`,
/// harness in `Tests/CombineDifferential`): random `library: combine` graphs, their events
/// computed by OpenCombine on combine-schedulers' TestScheduler.
///
/// The fixed-seed subset is committed as `Tests/Conformance/combine-seed-1.yaml` (seed 1, 300
/// graphs, each document's expectation what OpenCombine sent). The live run builds the harness
/// when it is not there (`swift build -c release --package-path Tests/CombineDifferential
/// --scratch-path .build-combine`, about a minute of CPU on a clean clone), regenerates the same
/// seed, and must agree with flowrun and reproduce the committed file: `swift test` and CI always
/// run it.
@Suite struct CombineConformance {
  static let seed = 1
  static let count = 300
  static let corpus = CLI.packageRoot.appendingPathComponent("Tests/Conformance/combine-seed-1.yaml")
  static let script = CLI.packageRoot.appendingPathComponent("Tests/Conformance/combine_diff.py")
  static let harness = CLI.packageRoot.appendingPathComponent(".build-combine/release/CombineDiff")

  @Test func flowrunAgreesWithTheCommittedOpenCombineRun() throws {
    let output = try CLI.run(["--color", "never", "-q", Self.corpus.path])
    #expect(output.status == 0, "\(output.stdout)")
    #expect(output.stdout.contains("\(Self.count) scenarios, \(Self.count) passed, 0 failed"), "\(output.stdout)")
  }

  @Test func flowrunAgreesWithOpenCombineLive() async throws {
    let flowrun = try #require(CLI.executable, "the flowrun executable was not built")
    try await Self.buildHarness()
    let regenerated = FileManager.default.temporaryDirectory.appendingPathComponent("combine-seed-\(getpid()).yaml")
    defer { try? FileManager.default.removeItem(at: regenerated) }
    let output = try Conformance.python([
      Self.script.path, "--seed", "\(Self.seed)", "--count", "\(Self.count)", "--flowrun", flowrun.path,
      "--combine", Self.harness.path, "--corpus", regenerated.path,
    ])
    #expect(output.status == 0, "\(output.text)")
    #expect(output.text.contains("combine-diff: \(Self.count) passed, 0 failed"), "\(output.text)")
    #expect(
      FileManager.default.contents(atPath: regenerated.path) == FileManager.default.contents(atPath: Self.corpus.path),
      "Tests/Conformance/combine-seed-1.yaml is stale: regenerate it with combine_diff.py --corpus")
  }

  /// Builds the harness unless it is there, waiting on a thread of its own (`ChildProcess`).
  static func buildHarness() async throws {
    guard !FileManager.default.isExecutableFile(atPath: harness.path) else { return }
    let swift = try #require(Shell.onPath("swift"), "swift is not on PATH")
    let build = try await ChildProcess.run(
      swift,
      [
        "build", "-c", "release", "--package-path",
        CLI.packageRoot.appendingPathComponent("Tests/CombineDifferential").path,
        "--scratch-path", CLI.packageRoot.appendingPathComponent(".build-combine").path,
      ],
      in: CLI.packageRoot, hangGuard: 3600)
    try #require(
      build.status == 0 && FileManager.default.isExecutableFile(atPath: harness.path),
      "building the OpenCombine harness failed:\n\(build.output.suffix(4000))")
  }
}
