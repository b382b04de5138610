import ArgumentParser
import FlowrunApp
import FlowrunReport
import FlowrunScenario
import Foundation

/// Flags shared by the commands that read scenarios.
struct ScenarioOptions: ParsableArguments {
  @Argument(help: ArgumentHelp("Scenario files and directories (searched recursively).", valueName: "path"))
  var paths: [String] = []

  @Option(help: "Only scenarios whose name or path matches this regular expression.")
  var filter: String?

  @Option(help: "Only scenarios with this tag (repeatable).")
  var tag: [String] = []

  @Option(name: .customLong("skip-tag"), help: "Skip scenarios with this tag (repeatable).")
  var skipTag: [String] = []

  @Flag(
    name: .customLong("pass-with-no-scenarios"),
    help: "Exit 0 when the paths, --filter and the tags select no scenario (else that fails).")
  var passWithNoScenarios = false

  @Option(help: "Colour: auto (only on a terminal, honouring NO_COLOR), always or never.")
  var color: ColorMode = .auto

  @Option(
    name: [.customShort("j", allowingJoined: true), .long],
    help: "Load and run scenarios on this many workers (default: the number of cores).")
  var jobs: Int?

  @Option(
    help: ArgumentHelp(
      "Read files without 'library:' in this library's names and meanings (rac2, rxswift, combine, async or rxjs); files that name another library are reported as not run.",
      valueName: "library"))
  var library: LibraryArgument?

  @Option(
    name: .customLong("limit"),
    help: ArgumentHelp(
      "Set a limit for every scenario, repeatable (docs/limits.md): time, steps, depth, events, deliveries, memory, nesting, file-size, yaml-depth, yaml-nodes, aliases. A scenario's own 'limit:' may only lower it.",
      valueName: "key=n"))
  var limits: [LimitArgument] = []

  @Flag(
    help:
      "Fail a scenario that ends with work still pending: an armed timer, a command still executing, a service call in flight (as 'exhaustive: true'; docs/semantics.md)."
  )
  var exhaustive = false

  func validate() throws {
    if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
  }

  /// The options of a session; fails (a usage error) without a path. Checked here rather than
  /// in `validate()`, which runs before the parser reports an unknown option.
  func runOptions() throws -> RunOptions {
    if paths.isEmpty { throw ValidationError("no scenario file or directory given") }
    var options = RunOptions(paths: paths)
    options.filter = filter
    options.tags = tag
    options.skipTags = skipTag
    options.passWithNoScenarios = passWithNoScenarios
    options.color = color.isEnabled
    options.library = library?.library
    if let jobs { options.jobs = jobs }
    for limit in limits { options.limits[limit.key] = limit.value }
    options.exhaustive = exhaustive
    options.isCI = ProcessInfo.processInfo.environment["CI"] != nil
    return options
  }
}

enum ColorMode: String, ExpressibleByArgument, CaseIterable {
  case auto, always, never

  var isEnabled: Bool {
    switch self {
    case .always: true
    case .never: false
    case .auto:
      ProcessInfo.processInfo.environment["NO_COLOR"] == nil && isatty(STDOUT_FILENO) != 0
    }
  }
}

/// Runs a session, printing as it goes, and turns its result into the process's exit code.
/// `isolated`: in a child process of this executable, so that a crash is reported as the
/// crashing scenario's error and the run goes on (FlowrunApp/IsolatedRun.swift).
func runSession(_ options: RunOptions, isolated: Bool = false) throws {
  var options = options
  let environment = ProcessInfo.processInfo.environment
  if let child = IsolatedRun.child(environment: environment) {
    options.isolation = child
    IsolatedRun.exitWithParent()
  } else if isolated, let executable = Bundle.main.executablePath {
    let outcome = IsolatedRun.supervise(
      executable: executable, arguments: Array(CommandLine.arguments.dropFirst()), environment: environment
    ) { FileHandle.standardError.write($0) }
    switch outcome {
    case .exited(let code):
      if code != 0 { throw ExitCode(code) }
      return
    case .runInProcess(let child, let reason):
      FileHandle.standardError.write(Data("note: \(reason)\n".utf8))
      options.isolation = child
    }
  }
  try runToExit { () throws(UsageError) in try Session.run(options, emit: printOutput) }
}

/// Turns what `session` returns into the process's exit code; a usage error is printed and
/// exits with 64.
func runToExit(_ session: () throws(UsageError) -> Int32) throws {
  let code: Int32
  do {
    code = try session()
  } catch {
    FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
    throw ExitCode(64)
  }
  if code != 0 { throw ExitCode(code) }
}

/// Prints what a session emits, or writes it to its file.
func printOutput(_ output: SessionOutput) {
  switch output {
  case .standardOutput(let text):
    FileHandle.standardOutput.write(Data(text.utf8))
  case .standardError(let text):
    FileHandle.standardError.write(Data(text.utf8))
  case .file(let path, let contents):
    do {
      try writeReport(contents, to: path)
    } catch {
      FileHandle.standardError.write(Data("error: cannot write \(path): \(error.localizedDescription)\n".utf8))
    }
  }
}

/// Writes a report file, creating its directory, replacing the file atomically.
private func writeReport(_ contents: String, to path: String) throws {
  let url = URL(fileURLWithPath: path)
  try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
  try Data(contents.utf8).write(to: url, options: .atomic)
}

/// `--library L`.
struct LibraryArgument: ExpressibleByArgument {
  var library: Library

  init?(argument: String) {
    guard let library = Library(rawValue: argument) else { return nil }
    self.library = library
  }

  static var allValueStrings: [String] { Library.allCases.map(\.rawValue) }
}

/// `--limit key=n`.
struct LimitArgument: ExpressibleByArgument {
  var key: String
  var value: Int

  init?(argument: String) {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, RunOptions.limitKeys.contains(parts[0]), let value = Int(parts[1]), value >= 1 else {
      return nil
    }
    key = parts[0]
    self.value = value
  }
}
