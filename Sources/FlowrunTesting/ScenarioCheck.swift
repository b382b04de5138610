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
    public let message: String
    /// `Module/path` as Swift Testing wants it (a `/` in it).
    public let fileID: String
    public let filePath: String
    public let line: Int
    public let column: Int
    /// The expectation (or bound name) it is about, if any.
    public let target: String?

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

  /// Runs every scenario of the file at `path` (relative to the package holding `root`, which
  /// is `#filePath` of the test; or absolute), or only the one called `scenario`, with `bind`
  /// binding the code into each run, and records one issue per failure. Rethrows what `bind`
  /// throws.
  public static func run(
    _ path: String, root: String, scenario: String? = nil, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column, _ bind: (Flow) throws -> Void
  ) throws {
    let failures = try self.failures(
      path, root: root, scenario: scenario, fileID: fileID, filePath: filePath, line: line, column: column, bind)
    for failure in failures { failure.record() }
  }

  /// What ``run(_:root:scenario:fileID:filePath:line:column:_:)`` would record, without
  /// recording it: to assert that a check fails, and where (a planted bug, say).
  public static func failures(
    _ path: String, root: String, scenario: String? = nil, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column, _ bind: (Flow) throws -> Void
  ) throws -> [Failure] {
    let absolute = path.hasPrefix("/") ? path : packageRoot(of: root) + "/" + path
    let module = fileID.split(separator: "/").first.map(String.init) ?? "Scenarios"
    let yamlID = module + "/" + path.split(separator: "/").filter { $0 != ".." && $0 != "." }.joined(separator: "/")
    func here(_ message: String) -> Failure {
      Failure(message: message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
    func atYAML(_ message: String, _ location: FlowrunDiagnostics.SourceLocation?, target: String? = nil) -> Failure {
      Failure(
        message: message, fileID: yamlID, filePath: absolute, line: location?.line ?? 1,
        column: location?.column ?? 1, target: target)
    }
    guard let data = FileManager.default.contents(atPath: absolute) else {
      return [here("cannot read the scenario file '\(absolute)'")]
    }
    let loaded = ScenarioLoader.load(path: path, bytes: [UInt8](data))
    var failures: [Failure] = loaded.diagnostics.filter { $0.severity == .error }.map {
      atYAML($0.rendered, $0.location)
    }
    let scenarios = loaded.scenarios.filter { scenario == nil || $0.name == scenario }
    if let scenario, scenarios.isEmpty, failures.isEmpty {
      var message = "\(path) has no scenario named '\(scenario)'"
      let names = loaded.scenarios.map(\.name)
      if let close = closest(to: scenario, in: names) { message += "; did you mean '\(close)'?" }
      return [here(message)]
    }
    for scenario in scenarios {
      var thrown: (any Error)?
      var problems: [Failure] = []
      // The code's Swift concurrency jobs run one at a time on the scenario's frames.
      let runtime = AsyncRuntime()
      let result = try runtime.withJobs {
        try withoutActuallyEscaping(bind) { bind in
          let binding = CodeBinding { bound in
            let flow = Flow(bound: bound, runtime: runtime)
            do {
              try bind(flow)
            } catch {
              thrown = error
            }
            problems = flow.problems
          }
          let result = ScenarioRunner.run(scenario, boundTo: binding)
          if let thrown { throw thrown }
          return result
        }
      }
      failures += problems
      failures += self.failures(of: result, atYAML: atYAML)
    }
    return failures
  }

  static func failures(
    of result: ScenarioResult,
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
      lines += ExpectationDiff(expectation, grammar: scenario.grammar).lines.map { "  " + $0 }
      failures.append(atYAML(lines.joined(separator: "\n"), location, expectation.spec.target))
    }
    return failures
  }

  /// The nearest directory at or above `path` holding a `Package.swift`.
  static func packageRoot(of path: String) -> String {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    var directory = URL(fileURLWithPath: path)
    if !(exists && isDirectory.boolValue) { directory.deleteLastPathComponent() }
    directory = directory.standardizedFileURL
    let start = directory
    while true {
      if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
        return directory.path
      }
      let parent = directory.deletingLastPathComponent()
      if parent.path == directory.path { return start.path }
      directory = parent
    }
  }

  static func closest(to name: String, in candidates: [String]) -> String? {
    closestName(to: name, among: candidates, maxDistance: max(2, name.count / 3))
  }
}
