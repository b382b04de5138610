import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Hostile inputs (`Tests/Hostile/<case>.yaml`, plus large ones made here in a temporary
/// directory) run through the built `flowrun`: each must end, without a crash, with exit code 1
/// and its expected diagnostic (`<case>.expected`, a stable substring of the first diagnostic
/// line). A run that the engine stops says which deterministic limit stopped it (frames,
/// steps, deliveries, bytes, nesting, recorded events: docs/limits.md), so every case ends at
/// the same place on every machine, under any load.
///
/// Nothing here is timed: how fast and how small the release build handles the corpus (under
/// 5 s and 500 MB a case) is checked by `Benchmarks/hostile.py`. The only clock is a hang guard
/// that kills a run after `hangGuard` seconds and reports a hang. Never loosen a limit or an
/// expectation to make a case pass: fix the engine.
///
/// `FLOWRUN_HOSTILE_KEEP=DIR` writes the large inputs (`<case>.yaml` and `<case>.expected`)
/// into DIR and keeps them there, for the benchmark.
@Suite
struct HostileInputTests {
  static let directory = CLI.packageRoot.appendingPathComponent("Tests/Hostile")
  /// Seconds of wall-clock time after which a run counts as hung: the slowest case takes about
  /// 5 s of CPU in a debug build, and a busy machine may stretch that tenfold.
  static let hangGuard = 300.0

  /// What a diagnostic of a run the engine stopped says: each names a limit counted in frames,
  /// steps, deliveries, bytes, nesting or recorded events, never in seconds. (The check of the
  /// thread's stack, which depends on the build's frame sizes, is not among them: the nesting
  /// count decides first in the corpus.)
  static let deterministicStops = [
    "the run reached the time limit of ",
    " scheduler steps: ",
    " deliveries at '",
    "the run reached the memory limit of ",
    "deliveries nested deeper than the limit of ",
    "calls through the graph nested deeper than the limit of ",
    " events recorded for one expectation",
    "a recorded value is larger than ",
    "signal values nest deeper than the limit of ",
  ]

  static var committedCases: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { String($0.dropLast(5)) }
  }

  @Test func corpusHasAtLeastAHundredCases() {
    #expect(Self.committedCases.count >= 100)
  }

  /// A case that expects the engine to stop a run expects one of the deterministic limits.
  @Test func everyExpectedStopIsADeterministicLimit() throws {
    let expectations =
      try Self.committedCases.map {
        try String(contentsOf: Self.directory.appendingPathComponent($0 + ".expected"), encoding: .utf8)
      } + Self.generated.map(\.expected)
    let stops = expectations.filter { $0.hasPrefix("error: frame ") }
    #expect(stops.count >= 40)
    for stop in stops {
      #expect(Self.deterministicStops.contains { stop.contains($0) }, "\(stop)")
    }
  }

  @Test(arguments: committedCases)
  func committed(_ name: String) async throws {
    let input = Self.directory.appendingPathComponent(name + ".yaml")
    let expectedURL = Self.directory.appendingPathComponent(name + ".expected")
    let expected = try String(contentsOf: expectedURL, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try await check(input: input, expected: expected, in: Self.directory)
  }

  /// Inputs too large to commit, written to a temporary directory.
  static let generated: [(name: String, expected: String, bytes: @Sendable () -> [UInt8])] = [
    (
      "file-over-10-mib", "file is larger than the limit of 10485760 bytes",
      {
        Array("flowrun: 1\nname: big\ndescription: \"".utf8) + Array(repeating: UInt8(ascii: "a"), count: 10 << 20)
          + Array("\"\n".utf8)
      }
    ),
    (
      "over-a-million-nodes", "nodes",
      {
        Array(("flowrun: 1\nname: many\nvalues: { a: [" + String(repeating: "1,", count: 1_000_001) + "1] }\n").utf8)
      }
    ),
    (
      "marble-over-a-million-characters", "marble is longer than the limit of 1000000 characters",
      {
        Array(
          ("flowrun: 1\nname: m\nsignals:\n  s: { cold: \"" + String(repeating: "-", count: 1_000_001)
            + "|\" }\nexpect:\n  s: \"-\"\n").utf8)
      }
    ),
    (
      "marble-huge-group-run", "error:",
      {
        Array(
          ("flowrun: 1\nname: m\nsignals:\n  s: { cold: \"" + String(repeating: "(ab)", count: 200_000)
            + "|\" }\nexpect:\n  s: \"-\"\n").utf8)
      }
    ),
    (
      "expression-over-100000-characters", "expression longer than 100000 characters",
      {
        Array(
          ("flowrun: 1\nname: e\nsignals:\n  s:\n    - just: 1\n    - map: '" + String(repeating: "1+", count: 60_000)
            + "1'\nexpect:\n  s: \"-\"\n").utf8)
      }
    ),
    (
      "step-chain-300000", "signal steps nest deeper than the limit of 10000",
      {
        Array(
          ("flowrun: 1\nname: c\nsignals:\n  s:\n    - just: 1\n" + String(repeating: "    - tap\n", count: 300_000)
            + "expect:\n  s: \"-\"\n").utf8)
      }
    ),
    // A chain of 200,000 names (`s0` from `s1` … from `s200000`, each written as a bare name,
    // the lightest YAML for a debug build to parse) loads and runs: the failed expectation is
    // the run's own result. With a cycle at its end it is a load error. The release timings of
    // the `{ from: }` form are in the benchmarks (Benchmarks/README.md, reference chains).
    (
      "reference-chain-200000", "expectation 's0' failed",
      {
        Array((referenceChain(200_000, end: "{ hot: \"-a-b|\" }") + "expect:\n  s0: \"-\"\n").utf8)
      }
    ),
    (
      "reference-chain-200000-cycle", "cycle of references: 's0' → 's1' → 's2' → 's3' → 's4' → … 199992 more …",
      {
        Array((referenceChain(200_000, end: "s0") + "expect:\n  s0: \"-\"\n").utf8)
      }
    ),
    // Steps after each `from` make every name more than a renaming: a long chain into a cycle
    // stops at the nesting limit of the compiler instead of overflowing the stack.
    (
      "step-chain-20000-cycle", "signals refer to one another deeper than the limit of 10000",
      {
        var text = "flowrun: 1\nname: r\nsignals:\n"
        for i in 0..<20_000 { text += "  s\(i): [{ from: s\(i + 1) }, tap]\n" }
        return Array((text + "  s20000: { from: s0 }\nexpect:\n  s0: \"-\"\n").utf8)
      }
    ),
    (
      "ten-thousand-scenarios", "expectation 's' failed",
      {
        Array(
          String(
            repeating: "---\nflowrun: 1\nname: d\nsignals:\n  s: { just: 1 }\nexpect:\n  s: \"-\"\n", count: 10_000
          ).utf8)
      }
    ),
    (
      "alias-expansion-over-100000", "alias expansion exceeds the limit of 100000 nodes",
      {
        var text =
          "flowrun: 1\nname: a\nvalues:\n  a: &a [" + Array(repeating: "1", count: 1000).joined(separator: ",") + "]\n"
        for i in 0..<200 { text += "  b\(i): *a\n" }
        return Array(text.utf8)
      }
    ),
  ]

  /// `s0: s1` … `s<n - 1>: s<n>`, then `s<n>: <end>`.
  static func referenceChain(_ n: Int, end: String) -> String {
    var text = "flowrun: 1\nname: chain\nsignals:\n"
    for i in 0..<n { text += "  s\(i): s\(i + 1)\n" }
    return text + "  s\(n): \(end)\n"
  }

  @Test(arguments: generated.map(\.name))
  func generatedInput(_ name: String) async throws {
    let entry = try #require(Self.generated.first { $0.name == name })
    let keep = ProcessInfo.processInfo.environment["FLOWRUN_HOSTILE_KEEP"].map { URL(fileURLWithPath: $0) }
    let directory =
      keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-hostile-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let input = directory.appendingPathComponent(name + ".yaml")
    try Data(entry.bytes()).write(to: input)
    if keep != nil {
      try Data((entry.expected + "\n").utf8).write(to: directory.appendingPathComponent(name + ".expected"))
    }
    defer { if keep == nil { try? FileManager.default.removeItem(at: input) } }
    try await check(input: input, expected: entry.expected, in: directory)
  }

  @Test func commandLineLimitReplacesTheDefault() throws {
    let input = Self.directory.appendingPathComponent("endless-interval-no-expect.yaml")
    let output = try CLI.run(["--color", "never", "--limit", "time=500", input.path])
    #expect(output.status == 1)
    #expect(output.stdout.contains("the run reached the time limit of 500 frames"))
  }

  @Test func scenarioMayOnlyLowerACommandLineLimit() throws {
    // The scenario asks for time: 9223372036854775807; the command line caps it.
    let input = Self.directory.appendingPathComponent("limit-time-huge-endless.yaml")
    let output = try CLI.run(["--color", "never", "--limit", "time=1000", input.path])
    #expect(output.status == 1)
    #expect(output.stdout.contains("the run reached the time limit of 1000 frames"))
  }

  @Test func commandLineFileLimit() throws {
    let input = Self.directory.appendingPathComponent("endless-interval.yaml")
    let output = try CLI.run(["--color", "never", "--limit", "file-size=10", input.path])
    #expect(output.status == 1)
    #expect(output.stdout.contains("file is larger than the limit of 10 bytes"))
  }

  private func check(input: URL, expected: String, in directory: URL) async throws {
    let executable = try #require(CLI.executable, "the flowrun executable was not built")
    let run = try await ChildProcess.run(
      executable.path, ["--color", "never", "--jobs", "1", input.path], in: directory, hangGuard: Self.hangGuard)
    let name = input.lastPathComponent
    try #require(!run.hung, "\(name) hung: killed after \(Self.hangGuard) s\n\(run.output.suffix(2000))")
    #expect(run.signal == nil, "\(name) crashed with signal \(run.signal ?? 0)\n\(run.output.suffix(2000))")
    #expect(run.status == 1, "\(name) exited with \(run.status)\n\(run.output.prefix(2000))")
    let first =
      run.output.split(separator: "\n").first { $0.contains(": error: ") || $0.contains(": warning: ") }
      .map(String.init) ?? run.output.split(separator: "\n").first.map(String.init) ?? ""
    #expect(
      first.contains(expected), "\(name): first diagnostic is\n\(first.prefix(500))\nexpected to contain\n\(expected)")
    if first.contains(": error: frame ") {
      #expect(
        Self.deterministicStops.contains { first.contains($0) },
        "\(name): the run stopped without naming a deterministic limit:\n\(first.prefix(500))")
    }
  }
}

/// A child process run with its output in a file, killed when it runs past a hang guard.
struct ChildProcess {
  var status: Int32
  var signal: Int32?
  /// Killed by the hang guard.
  var hung: Bool
  var output: String

  /// Runs the child and waits for it on a thread of its own: the wait (minutes for the graph
  /// fuzzer's batches on a loaded machine) holds no thread of the cooperative pool, which the
  /// other tests' tasks need (a job sent to the global executor waits for a free one).
  static func run(_ path: String, _ arguments: [String], in directory: URL, hangGuard: Double) async throws
    -> ChildProcess
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(with: Result { try waitFor(path, arguments, in: directory, hangGuard: hangGuard) })
      }.start()
    }
  }

  private static func waitFor(_ path: String, _ arguments: [String], in directory: URL, hangGuard: Double) throws
    -> ChildProcess
  {
    let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flowrun-hostile-\(UUID().uuidString).out")
    defer { try? FileManager.default.removeItem(at: outputURL) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var environment = ProcessInfo.processInfo.environment
    for key in ["NO_COLOR", "CI", "GITHUB_ACTIONS", "FORCE_COLOR"] { environment[key] = nil }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let started = ContinuousClock.now
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
    var status: Int32 = 0
    var hung = false
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { break }
      if result < 0 && errno != EINTR { break }
      if !hung, ContinuousClock.now - started > .seconds(hangGuard) {
        hung = true
        kill(pid, SIGKILL)
      }
      usleep(2_000)
    }
    let data = (try? Data(contentsOf: outputURL)) ?? Data()
    let exited = status & 0x7f == 0
    return ChildProcess(
      status: exited ? (status >> 8) & 0xff : -1, signal: exited ? nil : status & 0x7f, hung: hung,
      output: String(decoding: data.prefix(1 << 20), as: UTF8.self))
  }
}
