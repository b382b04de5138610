import FlowrunReport
public import FlowrunScenario
import Foundation

/// What a teaching command (`trace`, `diagram`) produced: its text and the exit code.
public struct TeachingOutput: Sendable {
  public var text: String
  public var exitCode: Int32
}

/// Loads one scenario file and runs its scenarios traced, for `flowrun trace` and
/// `flowrun diagram`. Libraries never print: the executable writes what this returns.
public enum TeachingSession {
  /// Loads `path`; a missing file or a file with no scenario is a usage error.
  public static func load(path: String) throws(UsageError) -> LoadedFile {
    guard FileManager.default.fileExists(atPath: path) else {
      throw .noSuchFile(path)
    }
    let file = ScenarioLoader.load(path: path)
    if file.scenarios.isEmpty, file.diagnostics.isEmpty {
      throw .noScenario(in: [path])
    }
    return file
  }

  /// Runs every scenario of `file` traced, one after the other, on a thread with a large stack.
  public static func traced(_ file: LoadedFile) -> [TracedRun] {
    let scenarios = file.scenarios
    let pool = WorkPool<TracedRun>(count: scenarios.count, jobs: 1) { index in
      ScenarioRunner.traced(scenarios[index])
    }
    return scenarios.indices.map { pool.result($0) }
  }

  /// `flowrun trace <path>`: the walkthrough of each scenario, then the usual report lines
  /// (coloured as `run`'s with `color`); with `steps`, every step's delivery and every value a
  /// step dropped.
  public static func trace(path: String, steps: Bool = false, color: Bool = false) throws(UsageError)
    -> TeachingOutput
  {
    let file = try load(path: path)
    let runs = traced(file)
    var text = ""
    for run in runs {
      text += TraceRenderer(run, steps: steps).render() + "\n"
    }
    let reporter = HumanReporter(color: color, verbosity: .normal)
    text += reporter.report(file: file, results: runs.map(\.result))
    return TeachingOutput(text: text, exitCode: exitCode(file, runs))
  }

  static func exitCode(_ file: LoadedFile, _ runs: [TracedRun]) -> Int32 {
    if file.hasErrors { return Session.exitFailure }
    return runs.allSatisfy { $0.result.status == .passed } ? Session.exitSuccess : Session.exitFailure
  }
}

extension TeachingSession {
  /// The file drawn under each other library that can express it and draws it differently
  /// (libraries.md: the HTML page lets the reader switch library).
  static func libraryVariants(path: String, models: [DiagramModel], own: Library)
    -> [(library: String, models: [DiagramModel])]
  {
    guard !models.isEmpty else { return [] }
    let drawn = SVGDiagram(models).render()
    var variants: [(library: String, models: [DiagramModel])] = []
    for library in Library.allCases where library != own {
      let file = ScenarioLoader.load(path: path, library: library, forcing: true)
      guard !file.hasErrors, file.scenarios.count == models.count else { continue }
      let variant = traced(file).map(DiagramModel.init)
      if SVGDiagram(variant).render() != drawn { variants.append((library.rawValue, variant)) }
    }
    return variants
  }
}

/// The formats of `flowrun diagram`.
public enum DiagramFormat: String, Sendable, CaseIterable {
  case text, svg, html
}

extension TeachingSession {
  /// `flowrun diagram <path>`: every scenario of the file drawn in `format`; with `steps`, a
  /// lane for every step (the HTML page has both drawings and opens on this one). `color`
  /// colours the report lines a text diagram ends with, as `run` does.
  public static func diagram(
    path: String, format: DiagramFormat, steps: Bool = false, color: Bool = false
  ) throws(UsageError) -> TeachingOutput {
    let file = try load(path: path)
    let runs = traced(file)
    let options = DiagramModel.Options(steps: steps)
    let models = runs.map { DiagramModel($0, options: options) }
    let text: String
    switch format {
    case .text:
      var out = models.map { TextDiagram($0).render() }.joined(separator: "\n")
      if file.hasErrors || runs.isEmpty {
        out += HumanReporter(color: color, verbosity: .normal).report(file: file, results: [])
      }
      text = out
    case .svg:
      text = SVGDiagram(models).render()
    case .html:
      let plain = steps ? runs.map { DiagramModel($0) } : models
      let stepped = steps ? models : runs.map { DiagramModel($0, options: DiagramModel.Options(steps: true)) }
      var page = HTMLDiagram(plain, steps: stepped, showSteps: steps)
      let own = file.scenarios.first?.library ?? .rxjs
      page.library = own.rawValue
      page.variants = libraryVariants(path: path, models: plain, own: own)
      text = page.render()
    }
    return TeachingOutput(text: text, exitCode: exitCode(file, runs))
  }
}

extension UsageError {
  fileprivate static func noSuchFile(_ path: String) -> Self { UsageError("no such file: \(path)") }
}
