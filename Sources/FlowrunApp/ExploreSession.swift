import FlowrunDiagnostics
public import FlowrunExplore
import FlowrunReport
import FlowrunScenario
import FlowrunYAML
import Foundation

/// What `flowrun explore` was asked to do.
public struct ExploreRequest: Sendable {
  public var paths: [String]
  public var options = ExploreOptions()
  /// Where to write the counterexamples as scenarios (`--output`).
  public var output: String?
  /// Write the JSON report instead of the human one (`--reporter json`).
  public var json = false
  public var color = false

  public init(paths: [String]) {
    self.paths = paths
  }
}

/// Runs `flowrun explore`: loads the files, explores every scenario, writes the report and the
/// counterexamples; the executable only prints what it emits.
public enum ExploreSession {
  /// Explores, handing the report and the counterexample file to `emit`; returns the exit code
  /// (0 no counterexample, 1 a counterexample was found or a scenario did not load).
  public static func run(_ request: ExploreRequest, emit: (SessionOutput) -> Void) throws(UsageError) -> Int32 {
    guard request.options.runs >= 0 else { throw UsageError("--runs must be 0 or more") }
    let (paths, missing) = ScenarioDiscovery.files(in: request.paths)
    if let path = missing.first { throw UsageError("no such file or directory: \(path)") }
    if paths.isEmpty { throw UsageError("no scenario found in \(request.paths.joined(separator: ", "))") }
    let files = paths.map { ScenarioLoader.load(path: $0) }
    let explorations = files.flatMap { file in
      file.scenarios.map { Explorer.explore($0, options: request.options) }
    }
    var notes: [String] = []
    var written: String?
    if let output = request.output {
      var documents: [String] = []
      for exploration in explorations {
        guard let counterexample = exploration.counterexample else { continue }
        do throws(CounterexampleFile.Unwritable) {
          let text = try CounterexampleFile.document(
            for: counterexample, of: exploration.scenario, options: request.options)
          if let problem = verify(text, path: output, counterexample: counterexample) { notes.append(problem) }
          documents.append(text)
        } catch {
          notes.append(error.reason)
        }
      }
      if !documents.isEmpty {
        let header = """
          # Counterexamples found by flowrun explore (seed \(request.options.seed)): 'flowrun run' fails on each
          # scenario below until its bug is fixed; keep them as regression tests.

          """
        emit(.file(path: output, contents: header + documents.map { "---\n" + $0 }.joined()))
        written = output
      }
    }
    let report = ExploreReport(
      explorations: explorations, files: files, options: request.options, output: written, outputNotes: notes)
    emit(.standardOutput(request.json ? report.json() : report.human(color: request.color)))
    return report.isSuccess ? Session.exitSuccess : Session.exitFailure
  }

  /// Why the written counterexample does not fail as the explored run did (nil when it does).
  package static func verify(_ text: String, path: String, counterexample: Counterexample) -> String? {
    let loaded = ScenarioLoader.load(path: path, bytes: Array(text.utf8))
    guard let scenario = loaded.scenarios.first, !loaded.hasErrors else {
      let problem = loaded.diagnostics.first.map(\.rendered) ?? "it holds no scenario"
      return "the counterexample written to \(path) does not load: \(problem)"
    }
    let result = ScenarioRunner.run(scenario)
    let failed = Explorer.failure(of: result)
    let same: Bool
    switch counterexample.failure {
    case .invariant:
      same =
        failed?.failure == .invariant(0) && failed?.frame == counterexample.frame
        && result.expectations.allSatisfy(\.passed)
    case .runError: same = failed?.failure == .runError
    }
    return same ? nil : "the counterexample written to \(path) does not fail as the explored run did"
  }
}
