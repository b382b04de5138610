import FlowrunDiagnostics
public import FlowrunReport
public import FlowrunScenario
import FlowrunYAML
import Foundation

/// What `flowrun run` (or `check`) was asked to do.
public struct RunOptions: Sendable {
  /// Where a report goes: standard output, or a file.
  public struct ReporterRequest: Sendable, Equatable {
    public var kind: ReporterKind
    public var path: String?

    public init(kind: ReporterKind, path: String? = nil) {
      self.kind = kind
      self.path = path
    }
  }

  public enum UpdateMode: Sendable, Equatable {
    case off, on, force
  }

  public var paths: [String]
  public var filter: String?
  public var tags: [String] = []
  public var skipTags: [String] = []
  public var color = false
  public var verbosity = HumanReporter.Verbosity.normal
  public var failFast = false
  /// Only load and validate (`flowrun check`).
  public var checkOnly = false
  /// Worker threads; results are reported in file order whatever the number.
  public var jobs = ProcessInfo.processInfo.activeProcessorCount
  /// Run only the `index`-th (1-based) of `count` deterministic slices of the scenarios.
  public var shard: (index: Int, count: Int)?
  /// Exit 0 when the paths, `filter` and tags select no scenario (`--pass-with-no-scenarios`);
  /// without it that is a failure (exit 1), or a usage error when the paths hold no scenario file.
  public var passWithNoScenarios = false
  /// Reports to write; empty means human output to standard output.
  public var reporters: [ReporterRequest] = []
  public var update = UpdateMode.off
  /// Whether the environment is a CI (the `CI` variable is set): `--update` then needs `force`.
  public var isCI = false
  /// `--library L`: files without `library:` are read in L; files that name another library are
  /// reported as not run under L.
  public var library: Library?
  /// `--limit key=n`: run limits (a scenario's own `limit:` may only lower them) and limits of
  /// reading files (docs/limits.md).
  public var limits: [String: Int] = [:]
  /// `--exhaustive`: every scenario is run as `exhaustive: true`.
  public var exhaustive = false
  /// The keys `limits` accepts.
  public static let limitKeys = RunLimits.keys + YAMLLimits.keys
  /// Set when this process is the child of an isolated run (IsolatedRun.swift): what crashed
  /// before, whose reports were printed, where progress goes.
  public var isolation: IsolatedRun.Child?

  public init(paths: [String]) {
    self.paths = paths
  }
}

/// Why a session could not start: a usage error (exit 64).
public struct UsageError: Error, Sendable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) {
    self.description = description
  }
}

/// What a session writes: to standard output (streamed), to standard error (a message when
/// standard output carries a machine report), or to a file at the end.
public enum SessionOutput: Sendable {
  case standardOutput(String)
  case standardError(String)
  case file(path: String, contents: String)
}

/// Runs or checks scenario files and reports on them; the executable only prints what it emits.
public enum Session {
  public static let exitSuccess: Int32 = 0
  public static let exitFailure: Int32 = 1

  private struct Selected: Sendable {
    var file: LoadedFile
    var scenarios: [Scenario]
  }

  /// Runs the session, handing each piece of output to `emit` as soon as it is ready; returns
  /// the exit code (0 all passed, 1 something failed).
  public static func run(_ options: RunOptions, emit: (SessionOutput) -> Void) throws(UsageError) -> Int32 {
    let started = ContinuousClock.now
    let filter: Regex<AnyRegexOutput>?
    do {
      filter = try options.filter.map { try Regex($0) }
    } catch {
      throw .invalidFilter(error)
    }
    if options.update != .off, options.isCI, options.update != .force {
      throw .updateInCI
    }
    if let shard = options.shard, shard.count < 1 || shard.index < 1 || shard.index > shard.count {
      throw .invalidShard
    }
    let (files, missing) = ScenarioDiscovery.files(in: options.paths)
    if let path = missing.first { throw .noSuchPath(path) }
    let nothingFound = "no scenario found in \(options.paths.joined(separator: ", "))"
    if files.isEmpty, !options.passWithNoScenarios { throw UsageError(nothingFound) }

    // Load every file, then select scenarios (filter, tags, shard) in file order.
    var yamlLimits = YAMLLimits()
    for (key, value) in options.limits where YAMLLimits.keys.contains(key) { yamlLimits[key] = value }
    let readLimits = yamlLimits
    let isolation = options.isolation
    let progress = isolation.flatMap { ProgressLog(path: $0.progressPath) }
    let jobs = isolation?.serial == true ? 1 : options.jobs
    let loader = WorkPool(count: files.count, jobs: jobs) { position -> LoadedFile in
      if let message = isolation?.crashMessage("L\(position)") {
        return LoadedFile.failed(path: files[position], message: message)
      }
      progress?.mark("L\(position)")
      defer { progress?.mark("l\(position)") }
      return ScenarioLoader.load(path: files[position], limits: readLimits, library: options.library)
    }
    if let note = loader.note { emit(.standardError("note: \(note)\n")) }
    var selected: [Selected] = []
    // Scenarios matching the filter and tags, before sharding.
    var index = 0
    for position in files.indices {
      let file = loader.result(position)
      var scenarios: [Scenario] = []
      for var scenario in file.scenarios where matches(scenario, filter: filter, options: options) {
        defer { index += 1 }
        if let shard = options.shard, index % shard.count != shard.index - 1 { continue }
        scenario.applyLimits(options.limits)
        if options.exhaustive { scenario.makeExhaustive() }
        scenarios.append(scenario)
      }
      selected.append(Selected(file: file, scenarios: scenarios))
    }
    let matched = index
    // The loaders' stacks are unmapped before the runners map theirs (under an address-space
    // limit both might not fit).
    loader.join()

    let wantsHuman = options.reporters.isEmpty || options.reporters.contains { $0.kind == .human && $0.path == nil }
    let reporter = HumanReporter(color: options.color, verbosity: options.verbosity)
    let checkOnly = options.checkOnly
    let toRun = selected
    let library = options.library
    let runner = WorkPool(count: toRun.count, jobs: jobs) { position -> [ScenarioResult] in
      toRun[position].scenarios.enumerated().map { number, scenario -> ScenarioResult in
        if checkOnly { return ScenarioResult.checked(scenario) }
        if let library, let said = scenario.declaredLibrary, said != library {
          return ScenarioRunner.notRun(scenario, under: library)
        }
        let key = "\(position).\(number)"
        if let message = isolation?.crashMessage("R" + key) {
          return ScenarioRunner.crashed(scenario, message: message)
        }
        progress?.mark("R" + key)
        defer { progress?.mark("r" + key) }
        if let name = isolation?.crashOn, URL(fileURLWithPath: scenario.path).lastPathComponent == name {
          fatalError("\(IsolatedRun.crashOnVariable)=\(name): crashing on purpose")
        }
        return ScenarioRunner.run(scenario)
      }
    }
    if let note = runner.note, note != loader.note { emit(.standardError("note: \(note)\n")) }
    var summary = RunSummary()
    var reports: [RunReport.FileReport] = []
    for position in selected.indices {
      let entry = selected[position]
      let results = runner.result(position)
      summary.add(file: entry.file)
      for result in results { summary.add(result) }
      reports.append(RunReport.FileReport(file: entry.file, results: results))
      if wantsHuman {
        // A child of an isolated run does not print again what a crashed child printed.
        if position >= isolation?.quietFiles ?? 0 {
          emit(.standardOutput(reporter.report(reports[reports.count - 1], checkOnly: checkOnly)))
        }
        progress?.mark("P\(position)")
      }
      if options.failFast, !summary.isSuccess {
        runner.cancel()
        break
      }
    }
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let report = RunReport(files: reports, summary: summary, durationSeconds: seconds)
    // `--update` succeeds when it rewrote every failing expectation (and nothing else failed),
    // and says how many it wrote (Jest's `-u`).
    var updated = false
    if options.update != .off {
      let outcome = ExpectationUpdater.update(report)
      let count = outcome.written == 1 ? "1 expectation" : "\(outcome.written) expectations"
      let tally =
        "--update wrote \(count)" + (outcome.notWritten == 0 ? "" : "; \(outcome.notWritten) left as they were")
      if wantsHuman {
        emit(.standardOutput("\n" + (outcome.lines + [tally]).joined(separator: "\n") + "\n"))
      }
      updated = outcome.rewroteEveryFailure
    }
    // Selecting nothing fails (as Jest does without --passWithNoTests), so that a mistyped
    // filter cannot pass a CI gate; an empty shard of a selection is fine.
    let emptySelection = selectionMessage(options, matched: matched, loaded: selected, nothingFound: nothingFound)
    let failsEmpty = emptySelection?.fails == true
    if let emptySelection {
      let severity = failsEmpty ? "error" : "note"
      let line =
        (options.color ? reporter.paint(severity + ":", failsEmpty ? "31" : "36") : severity + ":")
        + " " + emptySelection.message + "\n"
      emit(wantsHuman ? .standardOutput(line) : .standardError(severity + ": " + emptySelection.message + "\n"))
    }
    if wantsHuman { emit(.standardOutput("\n" + reporter.summary(summary, seconds: seconds) + "\n")) }
    for request in options.reporters {
      if request.kind == .human {
        if let path = request.path {
          let plain = HumanReporter(color: false, verbosity: options.verbosity)
          let text =
            reports.map { plain.report($0, checkOnly: checkOnly) }.joined()
            + "\n" + reporter.summary(summary, seconds: seconds) + "\n"
          emit(.file(path: path, contents: text))
        }
        continue
      }
      guard let machine = request.kind.reporter(color: options.color, verbosity: options.verbosity) else { continue }
      let text = machine.render(report)
      if let path = request.path { emit(.file(path: path, contents: text)) } else { emit(.standardOutput(text)) }
    }
    progress?.mark("E")
    return (summary.isSuccess || updated) && !failsEmpty ? exitSuccess : exitFailure
  }

  /// What to say when the selection is empty: nothing matched (a failure unless
  /// `passWithNoScenarios`), or this shard got none of the scenarios selected (a note). Nil when
  /// scenarios were selected, or when every file failed to load (those failures say it all).
  private static func selectionMessage(
    _ options: RunOptions, matched: Int, loaded: [Selected], nothingFound: String
  ) -> (message: String, fails: Bool)? {
    let fails = !options.passWithNoScenarios
    let hint = fails ? "; --pass-with-no-scenarios lets an empty selection pass" : ""
    if loaded.isEmpty { return (nothingFound, false) }
    guard matched == 0 else {
      guard let shard = options.shard, loaded.allSatisfy({ $0.scenarios.isEmpty }) else { return nil }
      let of = matched == 1 ? "the 1 selected scenario" : "the \(matched) selected scenarios"
      return ("shard \(shard.index)/\(shard.count) holds none of \(of)", false)
    }
    var flags: [String] = []
    if let filter = options.filter { flags.append("--filter '\(filter)'") }
    flags += options.tags.map { "--tag '\($0)'" }
    flags += options.skipTags.map { "--skip-tag '\($0)'" }
    guard !flags.isEmpty else { return nil }
    return ("no scenario matched \(flags.joined(separator: " "))" + hint, fails)
  }

  private static func matches(_ scenario: Scenario, filter: Regex<AnyRegexOutput>?, options: RunOptions) -> Bool {
    if let filter, !scenario.name.contains(filter), !scenario.path.contains(filter) { return false }
    if !options.tags.isEmpty, !scenario.tags.contains(where: options.tags.contains) { return false }
    if scenario.tags.contains(where: options.skipTags.contains) { return false }
    return true
  }
}

extension UsageError {
  static let updateInCI = UsageError(
    "--update refuses to rewrite files in CI (the CI variable is set); use --update=force")
  static let invalidShard = UsageError("--shard must be i/n with 1 ≤ i ≤ n")

  static func invalidFilter(_ error: any Error) -> Self {
    UsageError("--filter is not a valid regular expression: \(error)")
  }
  static func noSuchPath(_ path: String) -> Self { UsageError("no such file or directory: \(path)") }
  static func noScenario(in paths: [String]) -> Self {
    UsageError("no scenario found in \(paths.joined(separator: ", "))")
  }
}
