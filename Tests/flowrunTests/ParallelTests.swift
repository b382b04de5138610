import FlowrunApp
import Foundation
import Testing

/// `--jobs` and `--shard`: parallel runs print what serial runs print; shards partition the
/// scenarios.
@Suite struct Parallel {
  @Test func jobsOneAndTwoPrintTheSameBytes() throws {
    let serial = try CLI.run(["--jobs", "1", "-v", "scenarios"])
    let parallel = try CLI.run(["--jobs", "2", "-v", "scenarios"])
    #expect(serial.status == 0)
    #expect(CLI.maskingDuration(serial.stdout) == CLI.maskingDuration(parallel.stdout))
    for reporter in ["json", "junit", "tap"] {
      let one = try CLI.run(["--jobs", "1", "--reporter", reporter, "scenarios"])
      let two = try CLI.run(["--jobs", "2", "--reporter", reporter, "scenarios"])
      #expect(Self.maskingTimes(one.stdout) == Self.maskingTimes(two.stdout), "\(reporter)")
    }
  }

  @Test(arguments: [["-j1"], ["-j", "1"], ["--jobs=1"]])
  func everySpellingOfTheJobCountIsAccepted(_ spelling: [String]) throws {
    let run = try CLI.run(spelling + ["-v", "scenarios/basics"])
    let reference = try CLI.run(["--jobs", "1", "-v", "scenarios/basics"])
    #expect(run.status == 0, "\(spelling): \(run.stderr)")
    #expect(CLI.maskingDuration(run.stdout) == CLI.maskingDuration(reference.stdout))
  }

  @Test func shardsRunEveryScenarioExactlyOnce() throws {
    let all = try CLI.run(["scenarios"])
    var seen: [String] = []
    for index in 1...3 {
      let shard = try CLI.run(["--shard", "\(index)/3", "scenarios"])
      #expect(shard.status == 0)
      seen += Self.scenarioLines(shard.stdout)
    }
    #expect(seen.sorted() == Self.scenarioLines(all.stdout).sorted())
    #expect(Set(seen).count == seen.count)
  }

  @Test(arguments: ["0/3", "4/3", "1/0", "x", "2"])
  func badShardsAreUsageErrors(_ shard: String) throws {
    #expect(try CLI.run(["--shard", shard, "scenarios"]).status == 64)
  }

  static func scenarioLines(_ output: String) -> [String] {
    output.split(separator: "\n").filter { $0.hasPrefix("✓") || $0.hasPrefix("✗") }.map(String.init)
  }

  /// Masks durations in JSON (`"durationSeconds": 0.01`) and JUnit (`time="0.01"`).
  static func maskingTimes(_ text: String) -> String {
    text.replacing(/"durationSeconds": [0-9.e-]+/, with: "\"durationSeconds\": 0")
      .replacing(/time="[0-9.e-]+"/, with: "time=\"0\"")
  }
}
