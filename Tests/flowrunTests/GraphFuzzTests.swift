import FlowrunTestSupport
import Foundation
import Testing

/// The graph fuzzer: random valid scenarios (`GraphGenerator`) run through the built `flowrun`
/// as a child process, so that a crash is reported with its seed and its file instead of
/// killing the test runner. `swift test` runs a few batches from a fixed seed; `Fuzz/graphs.sh`
/// runs thousands against a build with AddressSanitizer, through the variables below.
///
/// - `FLOWRUN_GRAPH_FUZZ_SEED`: the first seed (default 1).
/// - `FLOWRUN_GRAPH_FUZZ_COUNT`: how many graphs (default 40).
/// - `FLOWRUN_GRAPH_FUZZ_EXECUTABLE`: the `flowrun` to run (default: the one built beside the tests).
/// - `FLOWRUN_GRAPH_FUZZ_CRASHES`: a directory where each crashing file and its output are kept.
@Suite(.serialized)
struct GraphFuzzTests {
  static let environment = ProcessInfo.processInfo.environment
  static let firstSeed = UInt64(environment["FLOWRUN_GRAPH_FUZZ_SEED"] ?? "") ?? 1
  static let count = Int(environment["FLOWRUN_GRAPH_FUZZ_COUNT"] ?? "") ?? 40
  static let batchSize = 30

  /// Every step of the table is generated, in some position, within the default seeds.
  @Test func everyStepIsGenerated() throws {
    let generator = try GraphGenerator()
    var text = ""
    for seed in UInt64(1)...400 { text += generator.scenario(seed: seed) }
    let missing = generator.steps.filter { step in
      !GraphGenerator.rejected.contains(step.name) && !text.contains("{ \(step.name): ")
        && !text.contains(", \(step.name)]") && !text.contains("[\(step.name),")
        && !text.contains(", \(step.name),") && !text.contains("[\(step.name)]")
    }
    #expect(missing.isEmpty, "never generated: \(missing.map(\.name))")
  }

  @Test func sameSeedSameFile() throws {
    let generator = try GraphGenerator()
    #expect(generator.scenario(seed: 7) == generator.scenario(seed: 7))
    #expect(generator.scenario(seed: 7) != generator.scenario(seed: 8))
  }

  /// Each graph loads (`flowrun check`: a failure is a generator bug) and runs without a crash.
  @Test func graphsLoadAndRunWithoutCrashing() async throws {
    let executable = try #require(
      Self.environment["FLOWRUN_GRAPH_FUZZ_EXECUTABLE"].map(URL.init(fileURLWithPath:)) ?? CLI.executable,
      "the flowrun executable was not built")
    let generator = try GraphGenerator()
    let seeds = Self.firstSeed..<(Self.firstSeed + UInt64(Self.count))
    var loadFailures: [String] = []
    var crashes: [String] = []
    for batch in stride(from: seeds.lowerBound, to: seeds.upperBound, by: Self.batchSize) {
      let batchSeeds = Array(batch..<min(batch + UInt64(Self.batchSize), seeds.upperBound))
      let result = try await GraphBatch.run(batchSeeds, generator: generator, executable: executable)
      loadFailures += result.loadFailures
      crashes += result.crashes
    }
    #expect(loadFailures.isEmpty, "generated files that do not load:\n\(loadFailures.joined(separator: "\n"))")
    #expect(crashes.isEmpty, "crashes:\n\(crashes.joined(separator: "\n"))")
    print(
      "graph fuzzer: \(Self.count) graphs from seed \(Self.firstSeed), \(loadFailures.count) did not load, \(crashes.count) crashed"
    )
  }
}

/// One batch of generated graphs, in one temporary directory: checked, then run.
enum GraphBatch {
  struct Result {
    var loadFailures: [String] = []
    var crashes: [String] = []
  }

  static func run(_ seeds: [UInt64], generator: GraphGenerator, executable: URL) async throws -> Result {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-graphs-\(UUID().uuidString)")
    let files = directory.appendingPathComponent("graphs")
    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for seed in seeds {
      try generator.scenario(seed: seed).write(
        to: files.appendingPathComponent("graph-\(seed).yaml"), atomically: true, encoding: .utf8)
    }
    var result = Result()
    let checkReport = directory.appendingPathComponent("check.json")
    let check = try await ChildProcess.run(
      executable.path, ["check", "--color", "never", "--reporter", "json:" + checkReport.path, files.path],
      in: directory, hangGuard: 600)
    #expect(check.signal == nil && !check.hung, "flowrun check crashed or hung on seeds \(seeds)\n\(check.output)")
    for scenario in try scenarios(in: checkReport) where scenario.status != "passed" {
      let text = (try? String(contentsOfFile: scenario.path, encoding: .utf8)) ?? ""
      result.loadFailures.append("\(scenario.path): \(scenario.messages.joined(separator: "; "))\n\(text)")
    }
    let runReport = directory.appendingPathComponent("run.json")
    let run = try await ChildProcess.run(
      executable.path, ["run", "--color", "never", "--jobs", "2", "--reporter", "json:" + runReport.path, files.path],
      in: directory, hangGuard: 1200)
    #expect(
      run.signal == nil && !run.hung, "flowrun run crashed or hung on seeds \(seeds)\n\(run.output.suffix(4000))")
    var crashed: Set<String> = []
    for scenario in try scenarios(in: runReport)
    where scenario.messages.contains(where: { $0.hasPrefix("flowrun crashed") }) {
      crashed.insert(scenario.path)
    }
    for path in crashed.sorted() { result.crashes.append(try await keep(crash: path, executable: executable)) }
    return result
  }

  /// Runs the crashing file alone to capture what the crash printed, keeps both in
  /// `FLOWRUN_GRAPH_FUZZ_CRASHES` when set, and describes the crash.
  static func keep(crash path: String, executable: URL) async throws -> String {
    let url = URL(fileURLWithPath: path)
    let alone = try await ChildProcess.run(
      executable.path, ["trace", url.path], in: url.deletingLastPathComponent(), hangGuard: 600)
    let output = alone.output.suffix(20000)
    if let folder = GraphFuzzTests.environment["FLOWRUN_GRAPH_FUZZ_CRASHES"] {
      let directory = URL(fileURLWithPath: folder)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let kept = directory.appendingPathComponent(url.lastPathComponent)
      try? FileManager.default.removeItem(at: kept)
      try FileManager.default.copyItem(at: url, to: kept)
      try String(output).write(
        to: kept.deletingPathExtension().appendingPathExtension("log"), atomically: true, encoding: .utf8)
    }
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    let reason =
      output.split(separator: "\n").first {
        $0.contains("Fatal error") || $0.contains("ERROR: AddressSanitizer") || $0.contains("Program crashed")
      } ?? "signal \(alone.signal ?? 0)"
    return "\(url.lastPathComponent): \(reason)\n\(text)"
  }

  struct Scenario {
    var path: String
    var status: String
    var messages: [String]
  }

  static func scenarios(in report: URL) throws -> [Scenario] {
    let data = try Data(contentsOf: report)
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let scenarios = try #require(json["scenarios"] as? [[String: Any]])
    return scenarios.map { entry in
      Scenario(
        path: entry["path"] as? String ?? "?", status: entry["status"] as? String ?? "?",
        messages: (entry["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String })
    }
  }
}
