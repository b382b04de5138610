import FlowrunApp
import FlowrunDiagnostics
import FlowrunReport
import FlowrunScenario
import FlowrunYAML
import Foundation

/// What the playground page shows for one version of the text: the diagrams (with and without
/// every step), the failed expectations' diffs, the diagnostics with their lines.
public struct PlaygroundRender: Codable, Sendable {
  public struct Problem: Codable, Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var severity: String
    public var message: String
    /// The full diagnostic as the command line prints it (with the caret snippet).
    public var text: String
  }

  /// The sections of the HTML diagram (HTMLDiagram.sections()).
  public var html: String
  /// The human report: load diagnostics, each scenario's ✓ or ✗, failed expectations' diffs.
  public var report: String
  public var problems: [Problem]
  /// `passed`, `failed` (an expectation failed) or `error` (did not load or hit a limit).
  public var status: String
  /// How long loading, running and drawing took, in milliseconds.
  public var milliseconds: Double
  /// The file's document (0, 1 … among its `---` documents) each section of `html` draws.
  public var sectionDocuments: [Int] = []
  /// The documents that did not load: the page keeps the last diagram of each, faded, as it
  /// does for a file of one document.
  public var brokenDocuments: [Int] = []

  /// Loads `text` as the file `path`, runs each scenario traced and draws it.
  public static func render(_ text: String, path: String) -> PlaygroundRender {
    let started = Date()
    let file = ScenarioLoader.load(path: path, bytes: Array(text.utf8))
    let runs = TeachingSession.traced(file)
    let plain = runs.map { DiagramModel($0) }
    let stepped = runs.map { DiagramModel($0, options: DiagramModel.Options(steps: true)) }
    let html = HTMLDiagram(plain, steps: stepped, showSteps: false).sections()
    var report = HumanReporter(color: false, verbosity: .normal).report(file: file, results: runs.map(\.result))
    if file.scenarios.isEmpty, file.diagnostics.isEmpty { report = "no scenario in the text\n" }
    let diagnostics = file.diagnostics + runs.flatMap(\.result.diagnostics)
    let problems = diagnostics.map { diagnostic in
      let location = diagnostic.location ?? SourceLocation(line: 1, column: 1, offset: 0)
      return Problem(
        line: location.line, column: location.column, severity: diagnostic.severity.rawValue,
        message: diagnostic.message, text: diagnostic.rendered)
    }
    var status = "passed"
    if file.hasErrors || file.scenarios.isEmpty || runs.contains(where: { $0.result.status == .error }) {
      status = "error"
    } else if runs.contains(where: { $0.result.status == .failed }) {
      status = "failed"
    }
    // Which document each scenario is, by the line its document starts at.
    let (yaml, _) = YAMLFile.parse(path: path, bytes: Array(text.utf8))
    let starts = yaml.documents.compactMap { $0.root?.start.line }
    let sectionDocuments = runs.map { run in starts.firstIndex(of: run.result.scenario.location.line) ?? 0 }
    let brokenDocuments = starts.indices.filter { !sectionDocuments.contains($0) }
    return PlaygroundRender(
      html: html, report: report, problems: problems, status: status,
      milliseconds: Date().timeIntervalSince(started) * 1000, sectionDocuments: sectionDocuments,
      brokenDocuments: brokenDocuments)
  }

  /// `render(_:path:)` on a thread of its own with a large stack (deep deliveries fit), awaited.
  public static func rendered(_ text: String, path: String) async -> PlaygroundRender {
    await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(returning: render(text, path: path))
      }
      thread.stackSize = 1 << 26
      thread.start()
    }
  }
}
