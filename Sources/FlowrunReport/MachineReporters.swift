import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunScenario

/// The JSON report of cli.md, described by `schemas/flowrun-report.schema.json`.
public struct JSONReporter: Reporter {
  public init() {}

  public func render(_ report: RunReport) -> String {
    var scenarios: [JSON] = []
    for entry in report.files {
      if entry.file.failedDocuments > 0 {
        scenarios.append(
          .object([
            ("path", .string(entry.file.path)),
            ("name", .string(entry.file.unloadedName)),
            ("tags", .array([])),
            ("status", .string("error")),
            ("durationSeconds", .double(0)),
            ("diagnostics", .array(entry.file.diagnostics.map(Self.diagnostic))),
            ("expectations", .array([])),
            ("stats", Self.stats(RunStats())),
          ]))
      }
      for result in entry.results {
        scenarios.append(Self.scenario(result))
      }
    }
    let summary = report.summary
    var counts: [(String, JSON)] = [
      ("scenarios", .int(summary.scenarios)),
      ("passed", .int(summary.passed)),
      ("failed", .int(summary.failed)),
    ]
    // Only a run with --library skips scenarios; other reports keep their shape.
    if summary.skipped > 0 { counts.append(("skipped", .int(summary.skipped))) }
    counts += [
      ("expectations", .int(summary.expectations)),
      ("failedExpectations", .int(summary.failedExpectations)),
      ("durationSeconds", .double(report.durationSeconds)),
    ]
    let json = JSON.object([
      ("flowrun", .int(1)),
      ("scenarios", .array(scenarios)),
      ("summary", .object(counts)),
    ])
    return json.rendered() + "\n"
  }

  static func scenario(_ result: ScenarioResult) -> JSON {
    let scenario = result.scenario
    var entries: [(String, JSON)] = [
      ("path", .string(scenario.path)),
      ("name", .string(scenario.name)),
      ("tags", .array(scenario.tags.map(JSON.string))),
      ("status", .string(result.status.rawValue)),
      ("durationSeconds", .double(result.durationSeconds)),
      ("diagnostics", .array(result.diagnostics.map(diagnostic))),
      ("expectations", .array(result.expectations.map { expectation($0, grammar: scenario.grammar) })),
      ("stats", stats(result.stats)),
    ]
    // Only scenarios that declare invariants have the key: other reports stay as they were.
    if !scenario.invariants.isEmpty {
      entries.append(("invariants", .array(result.invariants.map { invariant($0, scenario: scenario) })))
    }
    return .object(entries)
  }

  static func diagnostic(_ diagnostic: Diagnostic) -> JSON {
    .object([
      ("severity", .string(diagnostic.severity.rawValue)),
      ("path", .string(diagnostic.path)),
      ("line", diagnostic.location.map { .int($0.line) } ?? .null),
      ("column", diagnostic.location.map { .int($0.column) } ?? .null),
      ("message", .string(diagnostic.message)),
    ])
  }

  static func expectation(_ result: ExpectationResult, grammar: MarbleGrammar) -> JSON {
    let diff = ExpectationDiff(result, grammar: grammar)
    var entries: [(String, JSON)] = [
      ("target", .string(result.spec.target)),
      ("status", .string(result.passed ? "passed" : "failed")),
      ("expected", .string(result.spec.expectedText)),
      ("actual", .string(diff.actualMarble)),
    ]
    if let model = diff.modelMarble { entries.append(("model", .string(model))) }
    if let difference = diff.firstDifference {
      entries.append(
        (
          "firstDifference",
          .object([
            ("frame", .int(difference.frame)),
            ("expected", .string(difference.expected)),
            ("actual", .string(difference.actual)),
          ])
        ))
    } else {
      entries.append(("firstDifference", .null))
    }
    entries.append(("legend", .object(diff.legend.map { ($0.key, .string($0.value)) })))
    return .object(entries)
  }

  static func stats(_ stats: RunStats) -> JSON {
    .object([
      ("frames", .int(stats.frames)),
      ("events", .int(stats.events)),
      ("subscriptions", .int(stats.subscriptions)),
      ("rejectedExecutions", .int(stats.rejectedExecutions)),
    ])
  }
}

/// JUnit XML: a `<testsuite>` per file, a `<testcase>` per scenario, the aligned diff in
/// `<failure>`.
public struct JUnitReporter: Reporter {
  /// `.verbose` writes whole diffs; otherwise long ones are folded as in the human output.
  public var verbosity: HumanReporter.Verbosity

  public init(verbosity: HumanReporter.Verbosity = .normal) {
    self.verbosity = verbosity
  }

  public func render(_ report: RunReport) -> String {
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    // The counts are those of the <testcase> elements written: a file whose documents did not
    // load is one test case with an error, however many documents failed.
    let tests = report.files.reduce(0) { $0 + Self.tests(in: $1) }
    let failures = report.files.reduce(0) { $0 + Self.failures(in: $1) }
    let errors = report.files.reduce(0) { $0 + Self.errors(in: $1) }
    out += "<testsuites name=\"flowrun\" tests=\"\(tests)\" failures=\"\(failures)\""
    out += " errors=\"\(errors)\" time=\"\(Self.time(report.durationSeconds))\">\n"
    let human = HumanReporter(color: false, foldingDiffs: verbosity != .verbose)
    for entry in report.files {
      let path = entry.file.path
      let failures = Self.failures(in: entry)
      let errors = Self.errors(in: entry)
      let tests = Self.tests(in: entry)
      let time = entry.results.reduce(0) { $0 + $1.durationSeconds }
      out += "  <testsuite name=\"\(Self.escape(path))\" tests=\"\(tests)\" failures=\"\(failures)\""
      let skipped = entry.results.filter { $0.status == .skipped }.count
      out += " errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(Self.time(time))\">\n"
      if entry.file.failedDocuments > 0 {
        let text = entry.file.diagnostics.map(\.rendered).joined(separator: "\n")
        let message = entry.file.diagnostics.first?.headline ?? "the file did not load"
        out +=
          "    <testcase classname=\"\(Self.escape(path))\" name=\"\(Self.escape(entry.file.unloadedName))\" time=\"0\">\n"
        out += "      <error message=\"\(Self.escape(message))\">\(Self.escape(text))</error>\n"
        out += "    </testcase>\n"
      }
      for result in entry.results {
        out += "    <testcase classname=\"\(Self.escape(path))\" name=\"\(Self.escape(result.scenario.name))\""
        out += " time=\"\(Self.time(result.durationSeconds))\">\n"
        let details = human.details(of: result)
        switch result.status {
        case .passed: break
        case .failed:
          let failed = result.expectations.filter { !$0.passed }.map { "'\($0.spec.target)'" }
          let broken = result.invariants.filter { !$0.passed }.map { "'\($0.spec.name)'" }
          let message = [
            failed.isEmpty ? nil : "expectation \(failed.joined(separator: ", ")) failed",
            broken.isEmpty ? nil : "invariant \(broken.joined(separator: ", ")) failed",
          ].compactMap { $0 }.joined(separator: "; ")
          out += "      <failure message=\"\(Self.escape(message))\">\(Self.escape(details))</failure>\n"
        case .error:
          let message = result.diagnostics.first { $0.severity == .error }?.headline ?? "the run failed"
          out += "      <error message=\"\(Self.escape(message))\">\(Self.escape(details))</error>\n"
        case .skipped:
          let message = result.diagnostics.first?.message ?? "not run"
          out += "      <skipped message=\"\(Self.escape(message))\"/>\n"
        }
        out += "    </testcase>\n"
      }
      out += "  </testsuite>\n"
    }
    return out + "</testsuites>\n"
  }

  private static func tests(in entry: RunReport.FileReport) -> Int {
    entry.results.count + (entry.file.failedDocuments > 0 ? 1 : 0)
  }

  private static func failures(in entry: RunReport.FileReport) -> Int {
    entry.results.filter { $0.status == .failed }.count
  }

  private static func errors(in entry: RunReport.FileReport) -> Int {
    entry.results.filter { $0.status == .error }.count + (entry.file.failedDocuments > 0 ? 1 : 0)
  }

  static func time(_ seconds: Double) -> String {
    String((seconds * 1000).rounded() / 1000)
  }

  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\u{1B}": break
      default:
        if scalar.value < 0x20, scalar != "\n", scalar != "\t", scalar != "\r" { continue }
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

/// TAP version 13: one test point per scenario (and per file that did not load).
public struct TAPReporter: Reporter {
  /// `.verbose` writes whole diffs; otherwise long ones are folded as in the human output.
  public var verbosity: HumanReporter.Verbosity

  public init(verbosity: HumanReporter.Verbosity = .normal) {
    self.verbosity = verbosity
  }

  public func render(_ report: RunReport) -> String {
    var points: [String] = []
    let human = HumanReporter(color: false, foldingDiffs: verbosity != .verbose)
    for entry in report.files {
      if entry.file.failedDocuments > 0 {
        let detail = entry.file.diagnostics.map(\.rendered).joined(separator: "\n")
        let title =
          entry.file.failedNames.isEmpty
          ? entry.file.path : "\(entry.file.path)  \(entry.file.unloadedName)"
        points.append("not ok \(points.count + 1) - \(Self.description(title)) (did not load)\n" + Self.yaml(detail))
      }
      for result in entry.results {
        let title = Self.description("\(result.scenario.path)  \(result.scenario.name)")
        if result.status == .passed {
          points.append("ok \(points.count + 1) - \(title)")
        } else if result.status == .skipped {
          let reason = Self.description(result.diagnostics.first?.message ?? "not run")
          points.append("ok \(points.count + 1) - \(title) # SKIP \(reason)")
        } else {
          let detail = human.details(of: result)
          points.append("not ok \(points.count + 1) - \(title)\n" + Self.yaml(detail))
        }
      }
    }
    return "TAP version 13\n1..\(points.count)\n" + points.map { $0 + "\n" }.joined()
  }

  /// A test point's description: one line, with `#` escaped so that no name reads as a
  /// `# SKIP` or `# TODO` directive.
  static func description(_ text: String) -> String {
    text.replacingAll("\\", "\\\\").replacingAll("#", "\\#").replacingAll("\r", " ").replacingAll("\n", " ")
  }

  private static func yaml(_ text: String) -> String {
    let body = text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
    return (["  ---", "  message: |"] + body + ["  ..."]).joined(separator: "\n")
  }
}

/// GitHub Actions workflow commands: an `::error` annotation on the YAML line of each failure.
public struct GitHubReporter: Reporter {
  public init() {}

  public func render(_ report: RunReport) -> String {
    var lines: [String] = []
    for entry in report.files {
      for diagnostic in entry.file.diagnostics where diagnostic.severity == .error {
        lines.append(Self.annotation(diagnostic.path, diagnostic.location, diagnostic.message))
      }
      for result in entry.results {
        for diagnostic in result.diagnostics where diagnostic.severity == .error {
          lines.append(Self.annotation(diagnostic.path, diagnostic.location, diagnostic.message))
        }
        for invariant in result.invariants {
          guard let violation = invariant.violation else { continue }
          lines.append(
            Self.annotation(result.scenario.path, invariant.spec.location, violation.message(for: invariant.spec)))
        }
        for expectation in result.expectations where !expectation.passed {
          var message = "expectation '\(expectation.spec.target)' failed"
          if let sentence = ExpectationDiff(expectation, grammar: result.scenario.grammar).differenceSentence {
            message += ": " + sentence
          }
          lines.append(Self.annotation(result.scenario.path, expectation.spec.location, message))
        }
      }
    }
    return lines.map { $0 + "\n" }.joined()
  }

  static func annotation(_ path: String, _ location: SourceLocation?, _ message: String) -> String {
    var properties = "file=\(escapeProperty(path))"
    if let location { properties += ",line=\(location.line),col=\(location.column)" }
    return "::error \(properties),title=flowrun::\(escapeData(message))"
  }

  private static func escapeData(_ text: String) -> String {
    text.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
  }

  private static func escapeProperty(_ text: String) -> String {
    escapeData(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
  }
}

extension LoadedFile {
  /// What a report calls the documents of the file that did not load: their names where they
  /// could be read, else the file's path.
  var unloadedName: String {
    failedNames.isEmpty ? path : failedNames.joined(separator: ", ")
  }
}

extension HumanReporter {
  /// A plain reporter of normal verbosity that folds long diffs or not.
  init(color: Bool, foldingDiffs: Bool) {
    self.init(color: color)
    foldsDiffs = foldingDiffs
  }

  /// The human report of a scenario without its ✓/✗ line, indented as in the human output less
  /// its first two columns: the text of a JUnit failure or a TAP diagnostic.
  func details(of result: ScenarioResult) -> String {
    report(result).split(separator: "\n").dropFirst()
      .map { $0.hasPrefix("  ") ? $0.dropFirst(2) : $0 }
      .joined(separator: "\n")
  }
}

extension String {
  fileprivate func replacingAll(_ target: String, _ replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
