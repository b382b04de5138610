import FlowrunAsyncRuntime
import FlowrunCore
import FlowrunDiagnostics
import FlowrunReport
import FlowrunScenario
import Foundation
import Testing

/// Checks real code against a scenario file: the scenario's timeline drives the code's inputs
/// in virtual time, the code's outputs answer the scenario's expectations, and each failure is
/// a Swift Testing issue at the YAML line, with the same aligned diff as the `flowrun` command
/// and the model's lane (the declared graph's own run) beside the code's.
///
/// ```swift
/// import FlowrunTesting
/// import Testing
///
/// @Test func loginButtonFollowsBothFields() throws {
///   try ScenarioCheck.run("scenarios/login/enable-button.yaml", root: #filePath) { flow in
///     let vm = LoginViewModel(scheduler: flow.scheduler)
///     flow.drive("vm.account") { vm.account = $0 }
///     flow.drive("vm.password") { vm.password = $0 }
///     flow.observe("loginButton.enabled", vm.$isLoginEnabled)
///   }
/// }
/// ```
public enum ScenarioCheck {
  /// One failure of a check: where it points (the YAML line of an expectation or of a run-time
  /// error, or the Swift line of a binding) and what it says.
  public struct Failure: Sendable, CustomStringConvertible {
    /// The whole message: a headline, then the diff or the diagnostic's lines.
    public internal(set) var message: String
    /// `Module/path` as Swift Testing wants it (a `/` in it).
    public let fileID: String
    public let filePath: String
    public let line: Int
    public let column: Int
    /// The expectation (or bound name, or invariant) it is about, if any.
    public let target: String?
    /// What kind of failure it is, to branch on without reading ``message``.
    public internal(set) var kind: Kind = .other
    /// The scenario it is about (nil for a failure of the file or of the binding).
    public internal(set) var scenario: String?
    /// For a failed expectation: the frame where the run first parts from the expectation.
    public internal(set) var frame: Int?
    /// For a failed expectation: the expected, model (the declared graph's own run; nil when
    /// the code did not answer it or it was not run) and code (or graph) lanes as marbles,
    /// in the file's legend (``legend``), and the sentence that says the first difference.
    public internal(set) var expected: String?
    public internal(set) var model: String?
    public internal(set) var actual: String?
    public internal(set) var difference: String?
    /// The legend of the marbles: each letter and its value.
    public internal(set) var legend: [String: String] = [:]
    /// For pending work (``Exhaustivity``): the frame the scenario's time ended at.
    public internal(set) var endFrame: Int?

    /// The kinds of failure of a check.
    public enum Kind: Sendable, Equatable {
      /// An expectation whose events differ (``expected``, ``model``, ``actual``).
      case expectation
      /// An invariant violated.
      case invariant
      /// Work still pending when the scenario's time ended (``endFrame``).
      case pending
      /// A diagnostic of the run or of the file, or a problem of the binding.
      case other
    }

    /// The counterexample, for a failure found by exploring the code (``explore(_:root:scenario:runs:seed:orders:output:fileID:filePath:line:column:_:)``).
    public internal(set) var counterexample: Counterexample?

    public init(message: String, fileID: String, filePath: String, line: Int, column: Int, target: String? = nil) {
      self.message = message
      self.fileID = fileID
      self.filePath = filePath
      self.line = max(line, 1)
      self.column = max(column, 1)
      self.target = target
    }

    public var description: String { message }

    /// Records the failure as a Swift Testing issue at its place.
    public func record() {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: Testing.SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }

  /// Runs every scenario of the file at `path` (relative to the package holding `root`, or
  /// absolute; without `root`, the package holding the calling test file, `#filePath`), or
  /// only the one called `scenario`, with `bind` binding the code into each run, and records
  /// one issue per failure. A scenario that fails also attaches its HTML diagram (expected,
  /// model and code rows) and its text diff to the test (`Attachment.record`: `swift test
  /// --attachments-path DIR` writes them, Xcode's report shows them). Rethrows what `bind`
  /// throws.
  public static func run(
    _ path: String, root: String? = nil, scenario: String? = nil, artifacts: String? = nil,
    exhaustivity: Exhaustivity = .on, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column, _ bind: (Flow) throws -> Void
  ) throws {
    let place = Place(
      path: path, root: root ?? filePath, fileID: fileID, filePath: filePath, line: line, column: column)
    let failures = try check(
      place, scenario: scenario, artifacts: artifacts, exhaustivity: exhaustivity, attach: true, bind)
    for failure in failures { failure.record() }
  }

  /// What ``run(_:root:scenario:artifacts:exhaustivity:fileID:filePath:line:column:_:)`` would
  /// record, without recording it (nor attaching anything): to assert that a check fails, and
  /// where (a planted bug, say).
  ///
  /// With `artifacts` (a directory, relative to the package holding `root`, or absolute), or
  /// else the environment variable `FLOWRUN_ARTIFACTS`, a scenario that fails is run once more,
  /// traced, and its HTML diagram written there (`flowrun diagram --format html`'s page, with
  /// expected, model and code lanes); each of its failures says where.
  ///
  /// With `exhaustivity` on (the default), each sleep or timer still armed and each service
  /// call never answered when a scenario's time ends is a failure at the scenario's line
  /// (``Exhaustivity``).
  public static func failures(
    _ path: String, root: String? = nil, scenario: String? = nil, artifacts: String? = nil,
    exhaustivity: Exhaustivity = .on, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column, _ bind: (Flow) throws -> Void
  ) throws -> [Failure] {
    let place = Place(
      path: path, root: root ?? filePath, fileID: fileID, filePath: filePath, line: line, column: column)
    return try check(place, scenario: scenario, artifacts: artifacts, exhaustivity: exhaustivity, attach: false, bind)
  }

  /// The failures of the check; with `attach`, a failing scenario's diagram and diff are
  /// attached to the running test.
  static func check(
    _ place: Place, scenario: String?, artifacts: String?, exhaustivity: Exhaustivity, attach: Bool,
    _ bind: (Flow) throws -> Void
  ) throws -> [Failure] {
    var failures: [Failure] = []
    guard let scenarios = place.load(scenario: scenario, into: &failures) else { return failures }
    for scenario in scenarios {
      let outcome = bound(bind) { ScenarioRunner.run(scenario, boundTo: $0) }
      if let thrown = outcome.thrown { throw thrown }
      let result = outcome.result
      failures += outcome.problems
      var found = self.failures(of: result, observedTypes: outcome.flow?.observedTypes ?? [:]) {
        place.atYAML($0, $1, target: $2)
      }
      if outcome.runtime.realTimeSleeps > 0 {
        found.append(place.atYAML(realTimeSleepText(scenario, outcome.runtime.realTimeSleeps), scenario.location))
      }
      found += pendingFailures(
        outcome.flow, outcome.runtime, scenario: scenario, endFrame: max(scenario.until ?? 0, outcome.runtime.frame),
        exhaustivity: exhaustivity
      ) { place.atYAML($0, $1, target: $2) }
      let directory = artifacts ?? ProcessInfo.processInfo.environment["FLOWRUN_ARTIFACTS"]
      if !found.isEmpty, directory != nil || attach {
        let html = try diagram(of: scenario, bind)
        let name = artifactName(of: scenario)
        if let directory {
          let note = write(html, to: place.absolute(directory) + "/" + name + ".html")
          for index in found.indices { found[index].message += "\n  " + note }
        }
        if attach {
          let location = Testing.SourceLocation(
            fileID: place.fileID, filePath: place.filePath, line: place.line, column: place.column)
          Attachment.record(html, named: name + ".html", sourceLocation: location)
          Attachment.record(
            found.map(\.message).joined(separator: "\n\n") + "\n", named: name + ".diff.txt", sourceLocation: location)
        }
      }
      failures += found
    }
    return failures
  }

  /// Runs `scenario` with the code bound again, traced, and draws its HTML diagram (expected,
  /// model and code lanes for each bound expectation that fails).
  static func diagram(of scenario: Scenario, _ bind: (Flow) throws -> Void) throws -> String {
    let outcome = bound(bind) { ScenarioRunner.traced(scenario, boundTo: $0) }
    if let thrown = outcome.thrown { throw thrown }
    return HTMLDiagram([DiagramModel(outcome.result)]).render()
  }

  /// `FILE-SCENARIO`: the file's stem and the scenario's name as a slug.
  static func artifactName(of scenario: Scenario) -> String {
    let stem = (scenario.path.split(separator: "/").last.map(String.init) ?? "scenario").replacing(".yaml", with: "")
    let slug = String(scenario.name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(60))
    return stem + "-" + slug
  }

  /// Writes `html` at `path`; returns the line that says where, or why it could not be written.
  static func write(_ html: String, to path: String) -> String {
    do {
      let directory = (path as NSString).deletingLastPathComponent
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      try Data(html.utf8).write(to: URL(fileURLWithPath: path))
      return "diagram: \(path)"
    } catch {
      return "diagram: cannot write \(path): \(error.localizedDescription)"
    }
  }

  static func failures(
    of result: ScenarioResult, observedTypes: [String: String] = [:],
    atYAML: (String, FlowrunDiagnostics.SourceLocation?, String?) -> Failure
  ) -> [Failure] {
    let scenario = result.scenario
    var failures: [Failure] = []
    for diagnostic in result.diagnostics where diagnostic.severity == .error {
      failures.append(atYAML("'\(scenario.name)': " + diagnostic.rendered, diagnostic.location, nil))
    }
    for invariant in result.invariants {
      guard let violation = invariant.violation else { continue }
      let failure = InvariantFailure(invariant, violation: violation, scenario: scenario)
      let text = ([failure.diagnostic.rendered] + failure.lines.map { "  " + $0 }).joined(separator: "\n")
      failures.append(atYAML(text, invariant.spec.location, invariant.spec.name))
    }
    for expectation in result.expectations where !expectation.passed {
      let location = expectation.spec.location
      let who = expectation.model == nil ? "" : " (bound to the code)"
      var lines = [
        "\(scenario.path):\(location.line):\(location.column): expectation '\(expectation.spec.target)'\(who)"
          + " failed in '\(scenario.name)'"
      ]
      let diff = ExpectationDiff(expectation, grammar: scenario.grammar)
      lines += diff.lines.map { "  " + $0 }
      if let type = observedTypes[expectation.spec.target], let note = kindNote(expectation, swiftType: type) {
        lines.append("  " + note)
      }
      var failure = atYAML(lines.joined(separator: "\n"), location, expectation.spec.target)
      failure.kind = .expectation
      failure.frame = diff.firstDifference?.frame
      failure.expected = diff.expectedMarble
      failure.actual = diff.actualMarble
      failure.model = diff.modelMarble
      failure.difference = diff.differenceSentence
      failure.legend = Dictionary(diff.legend.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
      failures.append(failure)
    }
    for index in failures.indices where failures[index].scenario == nil {
      failures[index].scenario = scenario.name
      if failures[index].kind == .other, result.invariants.contains(where: { $0.spec.name == failures[index].target }) {
        failures[index].kind = .invariant
      }
    }
    return failures
  }

  /// When the code's values are all of other kinds than the scenario's (an `Int` publisher
  /// bound to a lane of strings), the line that names the Swift type the code sent.
  static func kindNote(_ expectation: ExpectationResult, swiftType: String) -> String? {
    guard case .events(let actual) = expectation.actual, case .events(let expected) = expectation.spec.expected
    else { return nil }
    func kinds(_ tape: EventTape) -> [String] {
      var seen: [String] = []
      for recorded in tape.events {
        guard case .next(let value) = recorded.event, !value.isNull else { continue }
        let kind = value.kindName == "Double" || value.kindName == "Int" ? "number" : value.kindName
        if !seen.contains(kind) { seen.append(kind) }
      }
      return seen
    }
    let (code, file) = (kinds(actual), kinds(expected))
    guard !code.isEmpty, !file.isEmpty, Set(code).isDisjoint(with: file) else { return nil }
    return "the code sent values of Swift type \(swiftType) (\(code.joined(separator: ", ")));"
      + " the scenario expects \(file.joined(separator: ", ")) values"
  }

  /// The one issue of a run whose default-clock sleeps this platform's runtime kept in real time.
  static func realTimeSleepText(_ scenario: Scenario, _ count: Int) -> String {
    let location = scenario.location
    return "\(scenario.path):\(location.line):\(location.column): '\(scenario.name)': the code slept \(count)"
      + " time(s) on ContinuousClock or SuspendingClock (Task.sleep) in real time: this platform's Swift runtime"
      + " does not give those sleeps to the run; give the code a clock and pass it flow.clock"
  }

  static func closest(to name: String, in candidates: [String]) -> String? {
    closestName(to: name, among: candidates, maxDistance: max(2, name.count / 3))
  }
}

/// One run with the code bound: what the run gave, the binding's problems, and the first error the
/// binding closure threw.
struct BoundOutcome<Result> {
  var result: Result
  var problems: [ScenarioCheck.Failure]
  var thrown: (any Error)?
  /// The run's `Flow` (nil when the run bound nothing) and runtime, for what they left pending.
  var flow: Flow?
  var runtime: AsyncRuntime
}

extension ScenarioCheck {
  /// Runs `run` with a binding that gives `bind` a fresh `Flow` for each bound run; the code's Swift
  /// concurrency jobs run one at a time on the scenario's frames (`AsyncRuntime`).
  static func bound<Result>(
    _ bind: (Flow) throws -> Void, tolerating tolerated: Set<String> = [], _ run: (CodeBinding) -> Result
  ) -> BoundOutcome<Result> {
    let runtime = AsyncRuntime()
    var problems: [Failure] = []
    var thrown: (any Error)?
    var made: Flow?
    let result = runtime.withJobs {
      withoutActuallyEscaping(bind) { bind in
        run(
          CodeBinding { bound in
            let flow = Flow(bound: bound, runtime: runtime)
            flow.tolerated = tolerated
            made = flow
            do {
              try bind(flow)
            } catch {
              if thrown == nil { thrown = error }
            }
            problems = flow.problems
          })
      }
    }
    return BoundOutcome(result: result, problems: problems, thrown: thrown, flow: made, runtime: runtime)
  }
}
