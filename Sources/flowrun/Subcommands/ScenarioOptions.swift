import ArgumentParser
import FlowrunReport
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

  @Option(help: "Colour: auto (only on a terminal, honouring NO_COLOR), always or never.")
  var color: ColorMode = .auto

  func validate() throws {
    if paths.isEmpty { throw ValidationError("Please give at least one scenario file or directory.") }
  }

  func runOptions() -> RunOptions {
    var options = RunOptions(paths: paths)
    options.filter = filter
    options.tags = tag
    options.skipTags = skipTag
    options.color = color.isEnabled
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
func runSession(_ options: RunOptions) throws {
  let code: Int32
  do {
    code = try Session.run(options) { chunk in
      FileHandle.standardOutput.write(Data(chunk.utf8))
    }
  } catch {
    FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
    throw ExitCode(64)
  }
  if code != 0 { throw ExitCode(code) }
}
