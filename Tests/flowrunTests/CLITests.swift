import FlowrunApp
import FlowrunTestSupport
import Foundation
import Testing

/// The `flowrun` executable, run as a subprocess from the package root (see `CLI`).
@Suite struct Determinism {
  /// Two processes on the whole `scenarios/` folder print the same bytes, apart from the run's
  /// duration in the summary line.
  @Test func scenariosRunTwiceGiveIdenticalReports() throws {
    let first = try CLI.run(["scenarios"])
    let second = try CLI.run(["scenarios"])
    #expect(first.status == 0, "\(first.stdout)")
    #expect(second.status == 0)
    #expect(!first.stdout.isEmpty)
    #expect(CLI.maskingDuration(first.stdout) == CLI.maskingDuration(second.stdout))
    #expect(first.stderr == second.stderr)
    // Only the duration may differ: the masked part is the summary line's last field.
    let summary = try #require(first.stdout.split(separator: "\n").last)
    let count = Self.scenarioCount()
    #expect(summary.hasPrefix("\(count) scenarios, \(count) passed, 0 failed ("))
  }

  @Test func verboseAndFailingReportsAreDeterministicToo() throws {
    let args = ["-v", "--color", "always", "scenarios", "Tests/flowrunTests/Golden"]
    let first = try CLI.run(args)
    let second = try CLI.run(args)
    #expect(first.status == 1)
    #expect(CLI.maskingDuration(first.stdout) == CLI.maskingDuration(second.stdout))
  }

  /// Every scenario file, alone, passes (so none depends on the others).
  @Test(arguments: scenarioFiles())
  func eachScenarioPassesAlone(_ path: String) throws {
    let output = try CLI.run([path])
    #expect(output.status == 0, "\(output.stdout)")
    #expect(output.stdout.hasPrefix("✓ \(path)  "))
  }

  static func scenarioFiles() -> [String] {
    let root = CLI.scenarios.path
    let entries = (FileManager.default.subpaths(atPath: root) ?? []).filter { $0.hasSuffix(".yaml") }
    return entries.sorted().map { "scenarios/" + $0 }
  }

  /// The number of scenarios (documents) in `scenarios/`; a file may hold several.
  static func scenarioCount() -> Int {
    scenarioFiles().reduce(0) { count, path in
      let text = (try? String(contentsOf: CLI.packageRoot.appendingPathComponent(path), encoding: .utf8)) ?? ""
      return count + text.split(separator: "\n").filter { $0.hasPrefix("flowrun:") }.count
    }
  }

  @Test func atLeastFourteenScenarios() {
    #expect(Self.scenarioFiles().count >= 14)
  }
}

@Suite struct ExitCodes {
  @Test func allPassingIsZero() throws {
    #expect(try CLI.run(["scenarios/basics"]).status == 0)
    #expect(try CLI.run(["run", "scenarios/basics"]).status == 0)
  }

  @Test func failingExpectationIsOne() throws {
    let output = try CLI.run(["Tests/flowrunTests/Golden/failing.yaml"])
    #expect(output.status == 1)
    #expect(output.stdout.contains("1 scenario, 0 passed, 1 failed"))
  }

  /// `--exhaustive` runs every scenario as `exhaustive: true`: a debounce still holding a
  /// value at `until` fails the run at its line; without the flag the file passes.
  @Test func exhaustiveFailsARunThatEndsWithATimerArmed() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("exhaustive-\(UUID().uuidString).yaml")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let yaml = """
      flowrun: 1
      name: Debounce holding a value
      until: 3
      signals:
        typed: { hot: "-a" }
        settled: [{ from: typed }, { debounce: 5 }]
      expect:
        settled: "-"
      """
    try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
    #expect(try CLI.run(["run", path]).status == 0)
    let output = try CLI.run(["run", "--exhaustive", "--color", "never", path])
    #expect(output.status == 1)
    #expect(
      output.stdout.contains(
        ":6:32: error: frame 3: exhaustive: the run ended at frame 3 with a timer of 'debounce' still armed (due at frame 6)"
      ), "\(output.stdout)")
  }

  /// The teaching scenarios end with nothing pending, except the two whose point is work left
  /// running: a login that never answers, and an interval bounded only by `until`.
  @Test func theTeachingScenariosAreExhaustiveButTwo() throws {
    let output = try CLI.run(["run", "--exhaustive", "--color", "never", "scenarios"])
    let failing = output.stdout.split(separator: "\n").filter { $0.hasPrefix("✗ ") }
      .map { String($0.dropFirst(2).prefix { $0 != " " }) }
    #expect(
      failing == ["scenarios/login/never-answers.yaml", "scenarios/time/interval-timer.yaml"], "\(output.stdout)")
  }

  @Test func brokenFileIsOne() throws {
    let output = try CLI.run(["Tests/flowrunTests/Golden/broken.yaml"])
    #expect(output.status == 1)
    #expect(output.stdout.contains("(did not load)"))
  }

  @Test func brokenGoldenDiagnosticsAreOne() throws {
    let output = try CLI.run(["Tests/FlowrunScenarioTests/Golden/marble-unclosed-group.yaml"])
    #expect(output.status == 1)
  }

  @Test func unknownFlagIs64() throws {
    let output = try CLI.run(["--no-such-flag", "scenarios"])
    #expect(output.status == 64)
    #expect(output.stdout.isEmpty)
    #expect(!output.stderr.isEmpty)
  }

  /// The message of an unknown option is flowrun's (lowercase, no far-fetched suggestion), and
  /// comes before any complaint about missing paths.
  @Test func unknownOptionIsNamed() throws {
    for arguments in [["--bogus"], ["--bogus", "scenarios"], ["check", "--bogus", "scenarios"]] {
      let output = try CLI.run(arguments)
      #expect(output.status == 64)
      #expect(output.stderr.hasPrefix("error: unknown option '--bogus'\nUsage: flowrun "), "\(arguments)")
    }
    let close = try CLI.run(["--filtr", "x", "scenarios"])
    #expect(close.stderr.hasPrefix("error: unknown option '--filtr'; did you mean '--filter'?\n"))
  }

  @Test func missingPathIs64() throws {
    let output = try CLI.run(["scenarios/does-not-exist.yaml"])
    #expect(output.status == 64)
    #expect(output.stderr.contains("scenarios/does-not-exist.yaml"))
  }

  @Test func noPathIs64() throws {
    let output = try CLI.run([])
    #expect(output.status == 64)
    #expect(output.stderr.hasPrefix("error: no scenario file or directory given\nUsage: flowrun run "))
  }

  /// A folder whose YAML files have no `flowrun:` key holds no scenario: a usage error.
  @Test func noScenarioFoundIs64() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("flowrun-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data("key: value\n".utf8).write(to: directory.appendingPathComponent("config.yaml"))
    try Data("not yaml at all".utf8).write(to: directory.appendingPathComponent("notes.txt"))
    let output = try CLI.run([directory.path])
    #expect(output.status == 64)
    #expect(output.stderr.contains("no scenario found"))
    // --pass-with-no-scenarios lets it pass, with a note.
    let passing = try CLI.run(["--pass-with-no-scenarios", directory.path])
    #expect(passing.status == 0)
    #expect(passing.stdout.hasPrefix("note: no scenario found in \(directory.path)\n"))
  }

  @Test func badFilterRegexIs64() throws {
    #expect(try CLI.run(["--filter", "(", "scenarios"]).status == 64)
  }
}

@Suite struct Selection {
  private func passedLines(_ output: CLI.Output) -> [String] {
    output.stdout.split(separator: "\n").filter { $0.hasPrefix("✓ ") }.map(String.init)
  }

  @Test func filterMatchesNameOrPath() throws {
    let byName = try CLI.run(["--filter", "zip pairs", "scenarios"])
    #expect(byName.status == 0)
    #expect(passedLines(byName).count == 1)
    #expect(byName.stdout.contains("zip-requests.yaml"))
    let byPath = try CLI.run(["--filter", "subjects/", "scenarios"])
    #expect(passedLines(byPath).count == 2)
    #expect(byPath.stdout.contains("2 scenarios, 2 passed, 0 failed"))
  }

  /// A selection of nothing fails, as Jest does: a mistyped filter must not pass a CI gate.
  @Test func filterMatchingNothingFails() throws {
    let output = try CLI.run(["--color", "never", "--filter", "^no such scenario$", "scenarios"])
    #expect(output.status == 1)
    #expect(passedLines(output).isEmpty)
    let lines = CLI.maskingDuration(output.stdout).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.suffix(4) == [
        "error: no scenario matched --filter '^no such scenario$'; --pass-with-no-scenarios lets an empty selection pass",
        "", "0 scenarios, 0 passed, 0 failed (0 expectations, 0 failed) in <duration> s", "",
      ])
    let check = try CLI.run(["check", "--filter", "zzz", "scenarios"])
    #expect(check.status == 1)
    #expect(check.stdout.contains("error: no scenario matched --filter 'zzz'"))
  }

  @Test func tagsMatchingNothingFail() throws {
    let output = try CLI.run(["--tag", "no-such-tag", "--skip-tag", "basics", "scenarios"])
    #expect(output.status == 1)
    #expect(output.stdout.contains("error: no scenario matched --tag 'no-such-tag' --skip-tag 'basics'"))
  }

  /// With a machine report on standard output, the message goes to standard error.
  @Test func anEmptySelectionIsSaidOnStandardErrorBesideAMachineReport() throws {
    let output = try CLI.run(["--reporter", "json", "--filter", "zzz", "scenarios"])
    #expect(output.status == 1)
    #expect(output.stdout.hasPrefix("{"))
    #expect(output.stderr.hasPrefix("error: no scenario matched --filter 'zzz'"))
  }

  @Test func passWithNoScenariosLetsAnEmptySelectionPass() throws {
    let output = try CLI.run(["--pass-with-no-scenarios", "--filter", "zzz", "scenarios"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("note: no scenario matched --filter 'zzz'\n"))
    let check = try CLI.run(["check", "--pass-with-no-scenarios", "--tag", "nothing", "scenarios"])
    #expect(check.status == 0)
  }

  /// A shard that gets none of a non-empty selection passes, with a note.
  @Test func anEmptyShardPassesWithANote() throws {
    let first = try CLI.run(["--filter", "zip-requests", "--shard", "1/2", "scenarios"])
    #expect(first.status == 0)
    #expect(passedLines(first).count == 1)
    let second = try CLI.run(["--filter", "zip-requests", "--shard", "2/2", "scenarios"])
    #expect(second.status == 0)
    #expect(second.stdout.hasPrefix("note: shard 2/2 holds none of the 1 selected scenario\n"))
  }

  @Test func tagSelects() throws {
    let output = try CLI.run(["--tag", "rxjs", "scenarios"])
    #expect(passedLines(output).count == 1)
    #expect(output.stdout.contains("grammar/rxjs-marbles.yaml"))
    let either = try CLI.run(["--tag", "rxjs", "--tag", "zip", "scenarios"])
    #expect(passedLines(either).count >= 2)
    #expect(passedLines(either).count < passedLines(try CLI.run(["scenarios"])).count)
  }

  @Test func skipTagExcludes() throws {
    let all = try CLI.run(["scenarios"])
    let output = try CLI.run(["--skip-tag", "basics", "scenarios"])
    #expect(passedLines(output).count == passedLines(all).count - 7)
    #expect(!output.stdout.contains("scenarios/basics/"))
  }

  @Test func tagAndSkipTagCombine() throws {
    let output = try CLI.run(["--tag", "subjects", "--skip-tag", "rac", "scenarios"])
    let lines = passedLines(output)
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { !$0.contains("subject-kinds") })
  }
}

@Suite struct Output {
  private let escape = "\u{1B}["

  @Test func colorNeverHasNoEscapes() throws {
    let output = try CLI.run(["--color", "never", "scenarios", "Tests/flowrunTests/Golden"])
    #expect(!output.stdout.contains(escape))
  }

  @Test func colorAlwaysColours() throws {
    let output = try CLI.run(["--color", "always", "scenarios/basics", "Tests/flowrunTests/Golden"])
    #expect(output.stdout.contains("\u{1B}[32m✓\u{1B}[0m"))
    #expect(output.stdout.contains("\u{1B}[31m✗\u{1B}[0m"))
    #expect(output.stdout.contains("\u{1B}[31merror:\u{1B}[0m"))
    #expect(output.stdout.contains("\u{1B}[33mwarning:\u{1B}[0m"))
  }

  /// `auto` colours only a terminal; the pipe of a test never is one.
  @Test func colorAutoOnAPipeHasNoEscapes() throws {
    #expect(try !CLI.run(["Tests/flowrunTests/Golden"]).stdout.contains(escape))
  }

  @Test func noColorEnvironmentTurnsAutoOff() throws {
    let output = try CLI.run(["--color", "auto", "Tests/flowrunTests/Golden"], environment: ["NO_COLOR": "1"])
    #expect(!output.stdout.contains(escape))
  }

  /// An explicit `--color always` wins over `NO_COLOR` (no-color.org: the user's flag decides).
  @Test func colorAlwaysWinsOverNoColor() throws {
    let output = try CLI.run(["--color", "always", "Tests/flowrunTests/Golden"], environment: ["NO_COLOR": "1"])
    #expect(output.stdout.contains(escape))
  }

  @Test func colorAndPlainDifferOnlyByEscapes() throws {
    let plain = try CLI.run(["--color", "never", "scenarios", "Tests/flowrunTests/Golden"])
    let coloured = try CLI.run(["--color", "always", "scenarios", "Tests/flowrunTests/Golden"])
    let stripped = coloured.stdout.replacingOccurrences(
      of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    #expect(CLI.maskingDuration(stripped) == CLI.maskingDuration(plain.stdout))
  }

  @Test func quietPrintsOnlyFailuresAndTheSummary() throws {
    let output = try CLI.run(["-q", "--color", "never", "scenarios", "Tests/flowrunTests/Golden"])
    #expect(output.status == 1)
    #expect(!output.stdout.contains("✓ "))
    #expect(output.stdout.contains("✗ Tests/flowrunTests/Golden/failing.yaml"))
    #expect(output.stdout.contains("✗ Tests/flowrunTests/Golden/broken.yaml  (did not load)"))
    #expect(!output.stdout.contains("warning:"))
    let quietAndPassing = try CLI.run(["--quiet", "scenarios"])
    #expect(quietAndPassing.status == 0)
    let count = Determinism.scenarioCount()
    #expect(CLI.maskingDuration(quietAndPassing.stdout).hasPrefix("\n\(count) scenarios, \(count) passed, 0 failed"))
  }

  @Test func verboseListsEveryExpectationThatHeld() throws {
    let output = try CLI.run(["-v", "--color", "never", "scenarios/combining/take-until.yaml"])
    #expect(output.status == 0)
    let lines = output.stdout.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.dropFirst().prefix(4)) == [
        "  ✓ untilGone", "  ✓ untilGoneRAC", "  ✓ untilReuse", "  ✓ reuse.subscriptions",
      ])
    let normal = try CLI.run(["--color", "never", "scenarios/combining/take-until.yaml"])
    #expect(!normal.stdout.contains("  ✓ "))
  }

  @Test func summaryIsTheLastLine() throws {
    let output = try CLI.run(["--color", "never", "scenarios", "Tests/flowrunTests/Golden"])
    let last = try #require(output.stdout.split(separator: "\n").last)
    // scenarios/ all pass; Golden/ holds passing (1), failing (1), broken (1 that did not load)
    // and multi-document (1 passing, 1 that did not load).
    let count = Determinism.scenarioCount()
    let summary = CLI.maskingDuration(String(last))
    #expect(summary.hasPrefix("\(count + 5) scenarios, \(count + 2) passed, 3 failed ("))
    #expect(summary.hasSuffix(" expectations, 5 failed) in <duration> s"))
  }
}

@Suite struct Check {
  @Test func checkValidatesWithoutRunning() throws {
    // failing.yaml loads fine: `check` does not run it, so it passes.
    let output = try CLI.run(["check", "--color", "never", "scenarios", "Tests/flowrunTests/Golden/failing.yaml"])
    #expect(output.status == 0)
    #expect(!output.stdout.contains("error: expectation"))
    let count = Determinism.scenarioCount()
    #expect(CLI.maskingDuration(output.stdout).contains("\(count + 1) scenarios, \(count + 1) passed, 0 failed"))
  }

  @Test func checkReportsBrokenFiles() throws {
    let output = try CLI.run(["check", "--color", "never", "Tests/flowrunTests/Golden/broken.yaml"])
    #expect(output.status == 1)
    #expect(output.stdout.contains("broken.yaml:4:27: error: unclosed group in marble"))
  }

  /// `check` takes `-q` and `--reporter` as `run` does; its reports list each valid scenario
  /// as a passing test.
  @Test func checkTakesQuietAndReporters() throws {
    let quiet = try CLI.run(["check", "-q", "--color", "never", "scenarios/basics"])
    #expect(quiet.status == 0)
    #expect(!quiet.stdout.contains("✓ "))
    #expect(
      CLI.maskingDuration(quiet.stdout)
        == "\n7 scenarios, 7 passed, 0 failed (0 expectations, 0 failed) in <duration> s\n")
    let junit = try CLI.run([
      "check", "--reporter", "junit", "scenarios/basics", "Tests/flowrunTests/Golden/broken.yaml",
    ])
    #expect(junit.status == 1)
    #expect(junit.stdout.hasPrefix("<?xml"))
    #expect(junit.stdout.contains("<testsuites name=\"flowrun\" tests=\"8\" failures=\"0\" errors=\"1\""))
    #expect(junit.stdout.contains("name=\"Sensor readings deduplicated, skipped and taken\""))
  }

  @Test func checkUsageErrors() throws {
    #expect(try CLI.run(["check", "--bogus", "scenarios"]).status == 64)
    #expect(try CLI.run(["check", "nowhere/"]).status == 64)
  }
}

/// Whole human reports of a passing, a failing and a broken scenario.
@Suite struct HumanGolden {
  @Test func casesAreThere() {
    #expect(Set(HumanGoldenCase.all.map(\.name)).isSuperset(of: ["passing", "failing", "broken"]))
  }

  @Test(arguments: HumanGoldenCase.all)
  func humanReport(_ golden: HumanGoldenCase) throws {
    let output = try CLI.run(["--color", "never", golden.name + ".yaml"], in: CLI.golden)
    #expect(output.stderr.isEmpty)
    #expect(output.status == (golden.name == "passing" ? 0 : 1))
    assertGolden(CLI.maskingDuration(output.stdout), file: golden.outputURL)
  }
}

/// The README's command lines say what a user sees.
@Suite struct ReadmeCommands {
  /// A line that writes a report to a file says whether the terminal gets the human report
  /// too: a file reporter alone prints nothing, so the line adds `--reporter human` or says so.
  @Test func aFileReporterLineSaysWhatIsPrinted() throws {
    let readme = try String(
      contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n").filter { $0.hasPrefix("flowrun ") && $0.contains("--reporter junit:") }
    #expect(!lines.isEmpty)
    for line in lines {
      #expect(line.contains("--reporter human") || line.contains("only the file"), "\(line)")
    }
    // What the first line does: the human report on the terminal, and the file.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-readme-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("flowrun.xml").path
    let output = try CLI.run(
      ["scenarios/login", "--color", "never", "--reporter", "human", "--reporter", "junit:\(file)"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("✓ scenarios/login/"))
    #expect(FileManager.default.fileExists(atPath: file))
  }
}
