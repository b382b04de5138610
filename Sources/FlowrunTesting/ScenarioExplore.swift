import FlowrunAsyncRuntime
import FlowrunCore
import FlowrunDiagnostics
import FlowrunExplore
import FlowrunReport
import FlowrunScenario
import Foundation

extension ScenarioCheck {
  /// A counterexample found by exploring the code: the shrunk failing run written as a
  /// scenario file, and a Swift test that runs that file against the same binding.
  public struct Counterexample: Sendable {
    /// The scenario file: the explored scenario with the generated inputs written in, `until`
    /// the failing frame, the violated invariant, and what the declared graph (the model) does
    /// on those inputs as expectations. Nil for a same-frame order, which no scenario can say.
    public let yaml: String?
    /// Where the Swift test reads `yaml` from: `output` when given, else the scenario file's
    /// path with `.counterexample.yaml` for `.yaml`.
    public let yamlPath: String
    /// A ready-to-paste Swift test: `ScenarioCheck.run` on `yamlPath` with the binding closure
    /// of the exploring call, copied from its source file.
    public let swiftTest: String?
    /// The run that found it (0 for the written timeline or a same-frame order), and the
    /// shrinking steps taken.
    public let run: Int
    /// The shrinking steps taken from the first failing run to this one.
    public let shrinkSteps: Int
    /// Why the written file does not fail as the explored run did (nil when it does).
    public let note: String?
  }

  /// Explores the code: the scenario's `invariants:` are checked while generated timelines
  /// (its `explore:`) and, with `orders`, the written timeline's same-frame orders are fed to
  /// the code through the binding, which runs again for every run (a fresh view model each
  /// time). The first failing run is shrunk and recorded as one issue at the invariant's YAML
  /// line, with the counterexample as a scenario file and as a Swift test (written to
  /// `output`, relative to the package holding `root`, when given). Rethrows what `bind`
  /// throws.
  public static func explore(
    _ path: String, root: String? = nil, scenario: String? = nil, runs: Int = 1_000, seed: UInt64 = 0,
    orders: Bool = false, output: String? = nil, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column, _ bind: (Flow) throws -> Void
  ) throws {
    let failures = try exploreFailures(
      path, root: root, scenario: scenario, runs: runs, seed: seed, orders: orders, output: output, fileID: fileID,
      filePath: filePath, line: line, column: column, bind)
    for failure in failures { failure.record() }
  }

  /// What ``explore(_:root:scenario:runs:seed:orders:output:fileID:filePath:line:column:_:)``
  /// would record, without recording it: each failure of a counterexample carries it
  /// (``Failure/counterexample``), to assert on the shrunk run, the YAML and the Swift test.
  public static func exploreFailures(
    _ path: String, root: String? = nil, scenario: String? = nil, runs: Int = 1_000, seed: UInt64 = 0,
    orders: Bool = false, output: String? = nil, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column, _ bind: (Flow) throws -> Void
  ) throws -> [Failure] {
    let place = Place(
      path: path, root: root ?? filePath, fileID: fileID, filePath: filePath, line: line, column: column)
    var failures: [Failure] = []
    guard let scenarios = place.load(scenario: scenario, into: &failures) else { return failures }
    let options = ExploreOptions(runs: runs, seed: seed, orders: orders)
    // Expectations are not checked on generated runs: observing one that the file has (in any
    // of its scenarios, as the binding given to `run` does) is fine.
    let tolerated = Set(scenarios.flatMap { $0.expectations.map(\.target) })
    for scenario in scenarios {
      var thrown: (any Error)?
      var problems: [Failure]?
      let exploration = Explorer.explore(scenario, options: options) { variant, order in
        let outcome = bound(bind, tolerating: tolerated) {
          ScenarioRunner.run(variant, boundTo: $0, order: order, comparingWithModel: false)
        }
        if thrown == nil { thrown = outcome.thrown }
        if problems == nil { problems = outcome.problems }
        return outcome.result
      }
      if let thrown { throw thrown }
      failures += problems ?? []
      if exploration.skipped {
        failures.append(
          place.atYAML(
            "'\(scenario.name)' has no 'explore:': nothing to generate (orders: true explores the written"
              + " timeline's same-frame orders)", scenario.location))
        continue
      }
      guard let found = exploration.counterexample else { continue }
      failures.append(
        try counterexampleFailure(
          found, of: exploration, options: options, place: place, output: output, tolerating: tolerated, bind))
    }
    return failures
  }

  private static func counterexampleFailure(
    _ found: FlowrunExplore.Counterexample, of exploration: Exploration, options: ExploreOptions, place: Place,
    output: String?, tolerating tolerated: Set<String>, _ bind: (Flow) throws -> Void
  ) throws -> Failure {
    let scenario = exploration.scenario
    let yamlPath = output ?? Self.counterexamplePath(for: place.path)
    let call = "ScenarioCheck.explore against the code (seed \(options.seed))"
    var yaml: String?
    var note: String?
    do throws(CounterexampleFile.Unwritable) {
      yaml = try CounterexampleFile.document(
        for: found, of: scenario, options: options, foundBy: call, failing: "'ScenarioCheck.run' with the code",
        lanes: .model)
    } catch {
      note = error.reason
    }
    if let text = yaml {
      note = try verify(text, found: found, path: place.absolute(yamlPath), tolerating: tolerated, bind)
      if output != nil {
        let written = FileManager.default.createFile(
          atPath: place.absolute(yamlPath), contents: Data((yaml ?? "").utf8))
        if !written { note = (note.map { $0 + "; " } ?? "") + "cannot write \(place.absolute(yamlPath))" }
      }
    }
    let swiftTest = yaml == nil ? nil : SwiftTestText.test(place: place, yamlPath: yamlPath)
    var message = ExploreReport.human(exploration, options: options, checker: "'ScenarioCheck.run' with the code")
    if let note { message += "note: \(note)\n" }
    if let yaml {
      message += "\nthe counterexample as a scenario (\(output == nil ? "save it as" : "written to") \(yamlPath)):\n"
      message += yaml
    }
    if let swiftTest { message += "\na Swift test that runs it against the code:\n" + swiftTest }
    let run: Int
    if case .generated(let number) = found.origin { run = number } else { run = 0 }
    let counterexample = Counterexample(
      yaml: yaml, yamlPath: yamlPath, swiftTest: swiftTest, run: run, shrinkSteps: found.shrinkSteps, note: note)
    let location: FlowrunDiagnostics.SourceLocation?
    let target: String?
    switch found.failure {
    case .invariant(let index):
      location = scenario.invariants[index].location
      target = scenario.invariants[index].name
    case .runError:
      location = found.result.diagnostics.first { $0.severity == .error }?.location ?? scenario.location
      target = nil
    }
    var failure = place.atYAML(message, location, target: target)
    failure.counterexample = counterexample
    return failure
  }

  /// Why the written counterexample, run against the code, does not fail as the explored run
  /// did (nil when it does).
  private static func verify(
    _ text: String, found: FlowrunExplore.Counterexample, path: String, tolerating tolerated: Set<String>,
    _ bind: (Flow) throws -> Void
  ) throws -> String? {
    let loaded = ScenarioLoader.load(path: path, bytes: Array(text.utf8))
    guard let scenario = loaded.scenarios.first, !loaded.hasErrors else {
      return "the counterexample does not load: " + (loaded.diagnostics.first?.rendered ?? "it holds no scenario")
    }
    let outcome = bound(bind, tolerating: tolerated) {
      ScenarioRunner.run(scenario, boundTo: $0, comparingWithModel: false)
    }
    if let thrown = outcome.thrown { throw thrown }
    let result = outcome.result
    let failed = Explorer.failure(of: result)
    let same =
      switch found.failure {
      case .invariant: failed?.failure == .invariant(0) && failed?.frame == found.frame
      case .runError: failed?.failure == .runError
      }
    return same ? nil : "the counterexample, run against the code, does not fail as the explored run did"
  }

  /// `dir/name.yaml` → `dir/name.counterexample.yaml`.
  static func counterexamplePath(for path: String) -> String {
    let stem = path.hasSuffix(".yaml") ? String(path.dropLast(5)) : path
    return stem + ".counterexample.yaml"
  }
}

extension ScenarioCheck {
  /// Where a check's file is, and how its failures point at it.
  struct Place {
    let path: String
    let root: String
    let fileID: String
    let filePath: String
    let line: Int
    let column: Int

    /// `path` (relative to the package holding `root`, or absolute) as an absolute path.
    func absolute(_ path: String) -> String {
      path.hasPrefix("/") ? path : nearestPackageRoot(of: root) + "/" + path
    }

    /// A failure at the Swift call.
    func here(_ message: String) -> Failure {
      Failure(message: message, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A failure at a line of the scenario file.
    func atYAML(_ message: String, _ location: FlowrunDiagnostics.SourceLocation?, target: String? = nil) -> Failure {
      let module = fileID.split(separator: "/").first.map(String.init) ?? "Scenarios"
      let yamlID = module + "/" + path.split(separator: "/").filter { $0 != ".." && $0 != "." }.joined(separator: "/")
      return Failure(
        message: message, fileID: yamlID, filePath: absolute(path), line: location?.line ?? 1,
        column: location?.column ?? 1, target: target)
    }

    /// The scenarios of the file (or the one named), with the load's errors added to
    /// `failures`; nil when there is nothing to run.
    func load(scenario: String?, into failures: inout [Failure]) -> [Scenario]? {
      guard let data = FileManager.default.contents(atPath: absolute(path)) else {
        failures.append(here("cannot read the scenario file '\(absolute(path))'"))
        return nil
      }
      let loaded = ScenarioLoader.load(path: path, bytes: [UInt8](data))
      failures += loaded.diagnostics.filter { $0.severity == .error }.map { atYAML($0.rendered, $0.location) }
      let scenarios = loaded.scenarios.filter { scenario == nil || $0.name == scenario }
      if let scenario, scenarios.isEmpty, failures.isEmpty {
        var message = "\(path) has no scenario named '\(scenario)'"
        if let close = closest(to: scenario, in: loaded.scenarios.map(\.name)) {
          message += "; did you mean '\(close)'?"
        }
        failures.append(here(message))
        return nil
      }
      return scenarios
    }
  }
}
