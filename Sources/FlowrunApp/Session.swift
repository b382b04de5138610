public import FlowrunReport
import FlowrunScenario
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
  /// Reports to write; empty means human output to standard output.
  public var reporters: [ReporterRequest] = []
  public var update = UpdateMode.off
  /// Whether the environment is a CI (the `CI` variable is set): `--update` then needs `force`.
  public var isCI = false
  /// `--limit key=n`: run limits (a scenario's own `limit:` may only lower them) and limits of
  /// reading files (docs/limits.md).
  public var limits: [String: Int] = [:]
  /// The keys `limits` accepts.
  public static let limitKeys = RunLimits.keys + YAMLLimits.keys

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

/// What a session writes: to standard output (streamed), or to a file at the end.
public enum SessionOutput: Sendable {
  case standardOutput(String)
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
    let filter = try validate(options)
    let files = try discover(options.paths)
    let selected = select(from: load(files, options), filter: filter, options: options)
    let human = HumanOutput(options)
    let (reports, summary) = run(selected, options, human: human, emit: emit)
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let report = RunReport(files: reports, summary: summary, durationSeconds: seconds)
    if options.update != .off {
      let updates = ExpectationUpdater.update(report)
      if human.isStreamed, !updates.isEmpty { emit(.standardOutput("\n" + updates.joined(separator: "\n") + "\n")) }
    }
    if human.isStreamed { emit(.standardOutput("\n" + human.reporter.summary(summary, seconds: seconds) + "\n")) }
    writeReports(report, options, human: human, emit: emit)
    return summary.isSuccess ? exitSuccess : exitFailure
  }

  /// The human report: streamed to standard output unless every reporter was sent elsewhere.
  private struct HumanOutput {
    var isStreamed: Bool
    var reporter: HumanReporter

    init(_ options: RunOptions) {
      isStreamed = options.reporters.isEmpty || options.reporters.contains { $0.kind == .human && $0.path == nil }
      reporter = HumanReporter(color: options.color, verbosity: options.verbosity)
    }
  }

  /// Checks the options that the argument parser cannot; returns the compiled `--filter`.
  private static func validate(_ options: RunOptions) throws(UsageError) -> Regex<AnyRegexOutput>? {
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
    return filter
  }

  /// The scenario files under `paths`; a missing path or no file at all is a usage error.
  private static func discover(_ paths: [String]) throws(UsageError) -> [String] {
    let (files, missing) = ScenarioDiscovery.files(in: paths)
    if let path = missing.first { throw .noSuchPath(path) }
    if files.isEmpty { throw .noScenario(in: paths) }
    return files
  }

  /// Loads every file on the workers, within the limits of reading files given by `--limit`.
  private static func load(_ files: [String], _ options: RunOptions) -> [LoadedFile] {
    var yamlLimits = YAMLLimits()
    for (key, value) in options.limits where YAMLLimits.keys.contains(key) { yamlLimits[key] = value }
    let readLimits = yamlLimits
    let loader = WorkPool(count: files.count, jobs: options.jobs) {
      ScenarioLoader.load(path: files[$0], limits: readLimits)
    }
    return files.indices.map { loader.result($0) }
  }

  /// The scenarios to run, in file order: those the filter and tags select, in this shard, with
  /// the `--limit` run limits applied.
  private static func select(
    from files: [LoadedFile], filter: Regex<AnyRegexOutput>?, options: RunOptions
  ) -> [Selected] {
    var selected: [Selected] = []
    var index = 0
    for file in files {
      var scenarios: [Scenario] = []
      for var scenario in file.scenarios where matches(scenario, filter: filter, options: options) {
        defer { index += 1 }
        if let shard = options.shard, index % shard.count != shard.index - 1 { continue }
        scenario.applyLimits(options.limits)
        scenarios.append(scenario)
      }
      selected.append(Selected(file: file, scenarios: scenarios))
    }
    return selected
  }

  /// Runs (or with `checkOnly`, only counts) the selected scenarios on the workers, emitting
  /// each file's human report in file order as soon as its results are in; stops early with
  /// `--fail-fast`.
  private static func run(
    _ selected: [Selected], _ options: RunOptions, human: HumanOutput, emit: (SessionOutput) -> Void
  ) -> ([RunReport.FileReport], RunSummary) {
    let checkOnly = options.checkOnly
    let runner = WorkPool(count: selected.count, jobs: options.jobs) { position in
      checkOnly ? [] : selected[position].scenarios.map { ScenarioRunner.run($0) }
    }
    var summary = RunSummary()
    var reports: [RunReport.FileReport] = []
    for position in selected.indices {
      let entry = selected[position]
      let results = runner.result(position)
      summary.add(file: entry.file)
      if checkOnly {
        summary.scenarios += entry.scenarios.count
        summary.passed += entry.scenarios.count
      }
      for result in results { summary.add(result) }
      reports.append(RunReport.FileReport(file: entry.file, results: results))
      if human.isStreamed {
        let text =
          checkOnly
          ? human.reporter.checked(file: entry.file, scenarios: entry.scenarios)
          : human.reporter.report(file: entry.file, results: results)
        emit(.standardOutput(text))
      }
      if options.failFast, !summary.isSuccess {
        runner.cancel()
        break
      }
    }
    return (reports, summary)
  }

  /// The reports asked for with `--reporter`: a human report to a file, the machine reports to
  /// standard output or a file.
  private static func writeReports(
    _ report: RunReport, _ options: RunOptions, human: HumanOutput, emit: (SessionOutput) -> Void
  ) {
    for request in options.reporters {
      if request.kind == .human {
        if let path = request.path {
          let reporter = HumanReporter(color: false, verbosity: options.verbosity)
          let text =
            report.files.map { reporter.report(file: $0.file, results: $0.results) }.joined() + "\n"
            + human.reporter.summary(report.summary, seconds: report.durationSeconds) + "\n"
          emit(.file(path: path, contents: text))
        }
        continue
      }
      guard let machine = request.kind.reporter(color: options.color) else { continue }
      let text = machine.render(report)
      if let path = request.path { emit(.file(path: path, contents: text)) } else { emit(.standardOutput(text)) }
    }
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
