import Foundation
import Testing

/// A trap while running one scenario is that scenario's error: the run goes on, the summary and
/// every report file come out (FlowrunApp/IsolatedRun.swift). `FLOWRUN_TEST_CRASH_ON` makes the
/// child process that runs the scenarios trap on the file of that name.
@Suite(.serialized)
struct CrashIsolationTests {
  static let passing = "flowrun: 1\nname: passes\nsignals:\n  s: { hot: \"-a-|\" }\nexpect:\n  s: \"-a-|\"\n"
  static let failing = "flowrun: 1\nname: fails\nsignals:\n  s: { hot: \"-a-|\" }\nexpect:\n  s: \"-b-|\"\n"
  static let crashing = "flowrun: 1\nname: traps\nsignals:\n  s: { just: 1 }\nexpect:\n  s: \"(1|)\"\n"

  /// A directory holding `a-passes.yaml`, `b-crashes.yaml`, `c-fails.yaml`, `d-passes.yaml`.
  static func directory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-crash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (name, text) in [
      ("a-passes.yaml", passing), ("b-crashes.yaml", crashing), ("c-fails.yaml", failing), ("d-passes.yaml", passing),
    ] {
      try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return directory
  }

  @Test(arguments: [1, 3])
  func crashIsTheScenariosErrorAndTheRunGoesOn(jobs: Int) throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let json = directory.appendingPathComponent("out/report.json")
    let junit = directory.appendingPathComponent("out/report.xml")
    let output = try CLI.run(
      [
        "run", "--color", "never", "--jobs", String(jobs), "--reporter", "human", "--reporter", "json:" + json.path,
        "--reporter", "junit:" + junit.path, ".",
      ], in: directory, environment: ["FLOWRUN_TEST_CRASH_ON": "b-crashes.yaml"])
    #expect(output.status == 1)
    let stdout = output.stdout
    #expect(
      stdout.contains(
        "✗ ./b-crashes.yaml  traps\n  ./b-crashes.yaml:1:1: error: flowrun crashed while running this scenario (signal 4, SIGILL: "
      ), "\(stdout)")
    #expect(stdout.contains("FLOWRUN_TEST_CRASH_ON=b-crashes.yaml: crashing on purpose); the run went on without it"))
    // Each file is reported once, in order, the ones before the crash included.
    let order = ["✓ ./a-passes.yaml", "✗ ./b-crashes.yaml", "✗ ./c-fails.yaml", "✓ ./d-passes.yaml"]
    let positions = order.map { stdout.range(of: $0)?.lowerBound }
    #expect(positions.allSatisfy { $0 != nil }, "\(stdout)")
    #expect(zip(positions, positions.dropFirst()).allSatisfy { ($0 ?? stdout.endIndex) < ($1 ?? stdout.startIndex) })
    #expect(order.allSatisfy { stdout.components(separatedBy: $0).count == 2 }, "a file reported twice:\n\(stdout)")
    #expect(CLI.maskingDuration(stdout).contains("4 scenarios, 2 passed, 2 failed (3 expectations, 1 failed) in"))
    #expect(output.stderr.contains("crashing on purpose"))

    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
    let scenarios = try #require(report["scenarios"] as? [[String: Any]])
    #expect(scenarios.map { $0["name"] as? String } == ["passes", "traps", "fails", "passes"])
    #expect(scenarios.map { $0["status"] as? String } == ["passed", "error", "failed", "passed"])
    let diagnostics = try #require(scenarios[1]["diagnostics"] as? [[String: Any]])
    let message = try #require(diagnostics.first?["message"] as? String)
    #expect(message.hasPrefix("flowrun crashed while running this scenario (signal 4, SIGILL"))
    let summary = try #require(report["summary"] as? [String: Any])
    #expect(summary["failed"] as? Int == 2)

    let xml = try String(contentsOf: junit, encoding: .utf8)
    #expect(xml.contains("<testsuites name=\"flowrun\" tests=\"4\" failures=\"1\" errors=\"1\""), "\(xml)")
    #expect(xml.contains("name=\"traps\""))
    #expect(xml.contains("error: flowrun crashed while running this scenario"))
  }

  /// Without a crash the run prints what an in-process run prints: one process more, nothing else.
  @Test func runWithoutACrashIsUnchanged() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try CLI.run(["--color", "never", "--jobs", "2", "."], in: directory)
    #expect(output.status == 1)
    #expect(output.stderr.isEmpty)
    #expect(!output.stdout.contains("crashed"))
    #expect(
      CLI.maskingDuration(output.stdout).contains("4 scenarios, 3 passed, 1 failed (4 expectations, 1 failed) in"))
  }

  /// `flowrun check` is isolated too (a crash while loading is the file's error).
  @Test func checkRunsInAChild() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try CLI.run(
      ["check", "--color", "never", "."], in: directory, environment: ["FLOWRUN_TEST_CRASH_ON": "b-crashes.yaml"])
    // check does not run scenarios, so the hook never fires.
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
  }
}
