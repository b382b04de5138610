@_exported import FlowrunApp
@_exported import FlowrunExplore
@_exported import FlowrunReport
@_exported import FlowrunScenario
import Foundation

/// Runs flowrun scenarios from Swift, for instance inside `swift test`: one test per scenario
/// file, each failing with the same aligned diff that the `flowrun` command prints.
///
/// ```swift
/// import Flowrun
/// import Testing
///
/// @Test(arguments: Flowrun.scenarioFiles(in: ["scenarios"], root: Flowrun.packageRoot(of: #filePath)))
/// func scenario(_ file: ScenarioFile) {
///   let outcome = Flowrun.run(file)
///   #expect(outcome.passed, "\(outcome.failureDescription)")
/// }
/// ```
///
/// Nothing here prints; the outcomes carry the text.
public enum Flowrun {
  /// The scenario files under `paths`, found as the `flowrun` command finds them: a file given
  /// directly is taken as it is; a directory is searched recursively for `*.yaml` / `*.yml`
  /// files whose first document has a `flowrun:` key. Relative paths are resolved against
  /// `root` (default: the current directory) and shown relative to it in reports. Sorted within
  /// each directory; empty when nothing is found (a test over no arguments runs nothing, so
  /// check the count when that matters).
  public static func scenarioFiles(in paths: [String], root: String? = nil) -> [ScenarioFile] {
    let base = root.map { URL(fileURLWithPath: $0, isDirectory: true) }
    var files: [ScenarioFile] = []
    for written in paths {
      var path = written
      while path.count > 1, path.hasSuffix("/") { path.removeLast() }
      let absolute = path.hasPrefix("/") || base == nil ? path : base!.appendingPathComponent(path).path
      for file in ScenarioDiscovery.files(in: [absolute]).files {
        let shown = path + file.dropFirst(absolute.count)
        files.append(ScenarioFile(path: file, displayPath: shown))
      }
    }
    return files
  }

  /// The directory of the Swift package holding `filePath` (pass `#filePath`): the nearest
  /// directory above it with a `Package.swift`, or the file's own directory when there is none.
  public static func packageRoot(of filePath: String) -> String {
    nearestPackageRoot(of: filePath)
  }

  /// Loads and runs every scenario of the file at `path`.
  public static func run(file path: String) -> FileOutcome {
    run(ScenarioFile(path: path, displayPath: path))
  }

  /// Loads and runs every scenario of `file`.
  public static func run(_ file: ScenarioFile) -> FileOutcome {
    let loaded = load(file)
    return FileOutcome(file: loaded, results: loaded.scenarios.map { ScenarioRunner.run($0) }, checkOnly: false)
  }

  /// Loads and runs the scenarios of YAML `text`, reported as the file `path`.
  public static func run(text: String, path: String = "scenario.yaml") -> FileOutcome {
    let loaded = ScenarioLoader.load(path: path, bytes: Array(text.utf8))
    return FileOutcome(file: loaded, results: loaded.scenarios.map { ScenarioRunner.run($0) }, checkOnly: false)
  }

  /// Loads and validates the file at `path` without running it (`flowrun check`).
  public static func check(file path: String) -> FileOutcome {
    check(ScenarioFile(path: path, displayPath: path))
  }

  /// Loads and validates `file` without running it (`flowrun check`).
  public static func check(_ file: ScenarioFile) -> FileOutcome {
    FileOutcome(file: load(file), results: [], checkOnly: true)
  }

  private static func load(_ file: ScenarioFile) -> LoadedFile {
    guard let data = FileManager.default.contents(atPath: file.path) else {
      // Reports "cannot read the file" against the path that could not be read.
      return ScenarioLoader.load(path: file.path)
    }
    return ScenarioLoader.load(path: file.displayPath, bytes: [UInt8](data))
  }
}

/// A scenario file to run: where it is, and the path reports show.
public struct ScenarioFile: Sendable, Hashable, CustomStringConvertible {
  /// The path to read the file from.
  public let path: String
  /// The path as diagnostics and reports show it (relative to the root it was found under).
  public let displayPath: String

  public init(path: String, displayPath: String? = nil) {
    self.path = path
    self.displayPath = displayPath ?? path
  }

  /// The display path, which also names the test of this file in Swift Testing.
  public var description: String { displayPath }
}

/// What running (or checking) one scenario file gave.
public struct FileOutcome: Sendable, CustomStringConvertible {
  /// The file as loaded: its scenarios and load diagnostics.
  public let file: LoadedFile
  /// The result of each scenario that loaded, in file order (empty after `check`).
  public let results: [ScenarioResult]
  /// Counts, as in the summary line of the human output.
  public let summary: RunSummary
  /// Whether every document loaded and every expectation held (after `check`: every document
  /// loaded and is valid).
  public let passed: Bool
  /// Empty when `passed`; otherwise the human report of what failed, without colour (and
  /// without a final newline): load
  /// diagnostics, run-time errors, and each failed expectation as aligned expected and actual
  /// lanes under a frame ruler, with a caret at the first difference and the legend.
  public let failureDescription: String
  /// The human report of the whole file (passing scenarios included) and its summary line.
  public let report: String

  /// One line: the path and the summary line (`login.yaml: 2 scenarios, 1 passed, 1 failed …`).
  public var description: String { "\(file.path): \(HumanReporter(color: false).summary(summary, seconds: nil))" }

  /// The path as reports show it.
  public var path: String { file.path }

  init(file: LoadedFile, results: [ScenarioResult], checkOnly: Bool) {
    self.file = file
    self.results = results
    var summary = RunSummary()
    summary.add(file: file)
    if checkOnly {
      summary.scenarios += file.scenarios.count
      summary.passed += file.scenarios.count
    }
    for result in results { summary.add(result) }
    self.summary = summary
    passed = summary.isSuccess && !file.hasErrors
    let quiet = HumanReporter(color: false, verbosity: .quiet)
    let normal = HumanReporter(color: false)
    var failures = passed ? "" : quiet.report(file: file, results: results)
    while failures.last == "\n" { failures.removeLast() }
    failureDescription = failures
    let lines =
      checkOnly ? normal.checked(file: file, scenarios: file.scenarios) : normal.report(file: file, results: results)
    report = lines + normal.summary(summary, seconds: nil) + "\n"
  }
}
