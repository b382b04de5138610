import ArgumentParser
import FlowrunApp
import FlowrunCore
import FlowrunDiagnostics
import Foundation

@main
struct FlowrunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "flowrun",
    abstract: "Run reactive scenarios in virtual time.",
    discussion: """
      Exit codes: 0 when every selected scenario loaded and every expectation and invariant held, \
      1 when one failed, a scenario did not load or a run hit a limit (explore: when a \
      counterexample was found), 64 on a usage error.
      """,
    version: "0.1.0",
    subcommands: [
      Run.self, Check.self, Trace.self, Diagram.self, Compare.self, Explore.self, Init.self, Import.self, LSP.self,
      Playground.self,
    ],
    defaultSubcommand: Run.self
  )

  /// Parses the command line, reading `--update=force` as `--update --update-force`, and runs
  /// the command; a usage error is printed in flowrun's diagnostic style.
  static func main() {
    let arguments = CommandLine.arguments.dropFirst().flatMap { argument in
      argument == "--update=force" ? ["--update", "--update-force"] : [argument]
    }
    var command: any ParsableCommand
    do {
      command = try parseAsRoot(Array(arguments))
    } catch {
      exit(reporting: error)
    }
    do {
      try command.run()
    } catch let error as ValidationError {
      // A usage error found once the options are read: the usage is that of the subcommand.
      let subcommand = type(of: command)
      let usage = usageString(for: subcommand)
      let name = subcommand == Self.self ? "flowrun" : "flowrun \(subcommand._commandName)"
      printUsageError(usageMessage(error.message), usage: usage, help: name)
      exit(withError: ExitCode.validationFailure)
    } catch {
      exit(withError: error)
    }
  }

  /// Exits for a parse error: help and version as the parser prints them, a usage error as
  /// `error: message` (lowercase, `unknown option '--bogus'`) followed by the usage lines.
  static func exit(reporting error: any Error) -> Never {
    let text = fullMessage(for: error)
    guard exitCode(for: error) == .validationFailure, text.hasPrefix("Error: ") else { exit(withError: error) }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[0] = "error: " + usageMessage(String(lines[0].dropFirst("Error: ".count)))
    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    exit(withError: ExitCode.validationFailure)
  }

  /// Prints `error: message`, then the usage as the parser prints it.
  static func printUsageError(_ message: String, usage: String, help command: String) {
    let text = """
      error: \(message)
      Usage: \(usage)
        See '\(command) --help' for more information.

      """
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// The parser's message as flowrun words its diagnostics: lowercase, and a "did you mean"
  /// only for an option within edit distance 2 (the parser offers '--jobs' for '--bogus').
  static func usageMessage(_ message: String) -> String {
    let unknown = /^Unknown option '([^']+)'(?:\. Did you mean '([^']+)'\?)?$/
    if let match = message.wholeMatch(of: unknown) {
      let option = String(match.1)
      var text = "unknown option '\(option)'"
      if let offered = match.2.map(String.init), closestName(to: option, among: [offered]) != nil {
        text += "; did you mean '\(offered)'?"
      }
      return text
    }
    guard let first = message.first, first.isUppercase, message.dropFirst().first?.isUppercase != true else {
      return message
    }
    return first.lowercased() + message.dropFirst()
  }
}
