public import FlowrunScenario

/// Everything one `flowrun run` produced, file by file in the order the files were given.
public struct RunReport: Sendable {
  /// One scenario file: how it loaded and the results of the scenarios that ran.
  public struct FileReport: Sendable {
    public var file: LoadedFile
    public var results: [ScenarioResult]

    public init(file: LoadedFile, results: [ScenarioResult]) {
      self.file = file
      self.results = results
    }
  }

  public var files: [FileReport]
  public var summary: RunSummary
  public var durationSeconds: Double

  public init(files: [FileReport], summary: RunSummary, durationSeconds: Double) {
    self.files = files
    self.summary = summary
    self.durationSeconds = durationSeconds
  }
}

/// A report format written once the run is over (JSON, JUnit, TAP, GitHub annotations).
public protocol Reporter: Sendable {
  func render(_ report: RunReport) -> String
}

/// The output formats of `--reporter`.
public enum ReporterKind: String, Sendable, CaseIterable {
  case human, json, junit, tap, github

  /// The reporter writing this format; nil for `human`, which streams. With `.verbose`, the
  /// diffs in JUnit and TAP reports are not folded.
  public func reporter(color: Bool, verbosity: HumanReporter.Verbosity = .normal) -> (any Reporter)? {
    switch self {
    case .human: nil
    case .json: JSONReporter()
    case .junit: JUnitReporter(verbosity: verbosity)
    case .tap: TAPReporter(verbosity: verbosity)
    case .github: GitHubReporter()
    }
  }
}
