import FlowrunDiagnostics
public import FlowrunScenario
import Foundation

/// Writes the human report of cli.md: a ✓/✗ line per scenario, diagnostics, aligned diffs of
/// failed expectations, and the summary line.
public struct HumanReporter: Sendable {
  public enum Verbosity: Sendable {
    case quiet, normal, verbose
  }

  public var color: Bool
  public var verbosity: Verbosity
  /// Whether a diff wider than `ExpectationDiff.foldWidth` shows only a window around its first
  /// difference; not with `-v`.
  var foldsDiffs: Bool

  public init(color: Bool, verbosity: Verbosity = .normal) {
    self.color = color
    self.verbosity = verbosity
    foldsDiffs = verbosity != .verbose
  }

  public func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// The lines for one scenario file: its load diagnostics, then each scenario's result.
  public func report(file: LoadedFile, results: [ScenarioResult]) -> String {
    var out = ""
    if file.hasErrors || (file.scenarios.isEmpty && !file.diagnostics.isEmpty) {
      let total = file.failedDocuments + file.scenarios.count
      let what = file.scenarios.isEmpty ? "did not load" : "\(file.failedDocuments) of \(total) documents did not load"
      out += paint("✗", "31") + " \(file.path)  (\(what))\n"
      for diagnostic in file.diagnostics { out += indent(render(diagnostic)) }
    } else {
      for diagnostic in file.diagnostics { out += indent(render(diagnostic)) }
    }
    for result in results { out += report(result) }
    return out
  }

  /// The lines for one file of a run, or of `flowrun check` (a ✓ per valid scenario).
  public func report(_ entry: RunReport.FileReport, checkOnly: Bool) -> String {
    checkOnly
      ? checked(file: entry.file, scenarios: entry.results.map(\.scenario))
      : report(file: entry.file, results: entry.results)
  }

  /// The lines of `flowrun check` for a file: its diagnostics and a ✓ per valid scenario.
  public func checked(file: LoadedFile, scenarios: [Scenario]) -> String {
    var out = report(file: file, results: [])
    guard verbosity != .quiet else { return out }
    for note in file.notes { out += indent(render(note)) }
    for scenario in scenarios {
      out += paint("✓", "32") + " \(scenario.path)  \(scenario.name)  (valid)\n"
    }
    return out
  }

  /// The lines for one scenario's result.
  public func report(_ result: ScenarioResult) -> String {
    let scenario = result.scenario
    var out = ""
    let count = result.expectations.count
    switch result.status {
    case .passed:
      guard verbosity != .quiet else { break }
      var detail = count == 0 ? "no expectations" : counted(count, "expectation")
      let invariants = result.invariants.count
      if invariants > 0 {
        let counted = counted(invariants, "invariant")
        detail = count == 0 ? counted : detail + ", " + counted
      }
      out += paint("✓", "32") + " \(scenario.path)  \(scenario.name)  (\(detail))\n"
    case .failed, .error:
      out += paint("✗", "31") + " \(scenario.path)  \(scenario.name)\n"
    case .skipped:
      guard verbosity != .quiet else { return out }
      let reason = result.diagnostics.first?.message ?? "not run"
      return out + paint("-", "33") + " \(scenario.path)  \(scenario.name)  (\(reason))\n"
    }
    for diagnostic in result.diagnostics {
      guard diagnostic.severity == .error || verbosity != .quiet else { continue }
      out += indent(render(diagnostic))
    }
    for invariant in result.invariants {
      guard let violation = invariant.violation else {
        if verbosity == .verbose { out += "  " + paint("✓", "32") + " invariant '\(invariant.spec.name)'\n" }
        continue
      }
      let failure = InvariantFailure(invariant, violation: violation, scenario: scenario)
      out += indent(render(failure.diagnostic))
      for line in failure.lines { out += "    " + line + "\n" }
    }
    for expectation in result.expectations {
      if expectation.passed {
        if verbosity == .verbose {
          out += "  " + paint("✓", "32") + " \(expectation.spec.target)\n"
        }
        continue
      }
      let location = expectation.spec.location
      out +=
        "  "
        + paint(
          "\(scenario.path):\(location.line):\(location.column): error: expectation '\(expectation.spec.target)' failed",
          "1") + "\n"
      let diff = ExpectationDiff(expectation, grammar: scenario.grammar, folded: foldsDiffs)
      for line in diff.lines { out += "    " + line + "\n" }
    }
    return out
  }

  private func render(_ diagnostic: Diagnostic) -> String {
    let text = diagnostic.rendered
    guard color else { return text }
    let code = diagnostic.severity == .error ? "31" : "33"
    return text.replacingFirst(
      "\(diagnostic.severity.rawValue):", with: paint("\(diagnostic.severity.rawValue):", code))
  }

  private func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n") + "\n"
  }

  /// The summary line: `N scenarios, N passed, N failed (E expectations, F failed) in T s`
  /// (`1 scenario`, `1 expectation` in the singular).
  public func summary(_ summary: RunSummary, seconds: Double?) -> String {
    var line = "\(counted(summary.scenarios, "scenario")), \(summary.passed) passed, \(summary.failed) failed"
    if summary.skipped > 0 { line += ", \(summary.skipped) skipped" }
    line += " (\(counted(summary.expectations, "expectation")), \(summary.failedExpectations) failed)"
    if let seconds {
      let rounded = (seconds * 100).rounded() / 100
      line += " in \(rounded) s"
    }
    return line
  }
}

/// Counts over a whole run of many files.
public struct RunSummary: Sendable, Equatable {
  public var scenarios = 0
  public var passed = 0
  public var failed = 0
  /// Scenarios not run: their file names another library than `--library`.
  public var skipped = 0
  public var expectations = 0
  public var failedExpectations = 0

  public init() {}

  public mutating func add(file: LoadedFile) {
    scenarios += file.failedDocuments
    failed += file.failedDocuments
  }

  public mutating func add(_ result: ScenarioResult) {
    scenarios += 1
    switch result.status {
    case .passed: passed += 1
    case .skipped: skipped += 1
    case .failed, .error: failed += 1
    }
    expectations += result.expectations.count
    failedExpectations += result.expectations.filter { !$0.passed }.count
  }

  public var isSuccess: Bool { failed == 0 }
}

/// `1 scenario`, `2 scenarios`, `0 scenarios`.
package func counted(_ count: Int, _ noun: String) -> String {
  count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
}

extension String {
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = range(of: target) else { return self }
    return replacingCharacters(in: range, with: replacement)
  }
}
