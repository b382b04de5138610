import ArgumentParser

@main
struct FlowrunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "flowrun",
    abstract: "Run reactive scenarios in virtual time.",
    discussion: """
      Exit codes: 0 when every selected scenario loaded and every expectation held, 1 when an \
      expectation failed, a scenario did not load or a run hit a limit, 64 on a usage error.
      """,
    version: "0.1.0",
    subcommands: [Run.self, Check.self, Trace.self, Diagram.self, Init.self, Playground.self],
    defaultSubcommand: Run.self
  )

  /// Parses the command line, reading `--update=force` as `--update --update-force`.
  static func main() {
    let arguments = CommandLine.arguments.dropFirst().flatMap { argument in
      argument == "--update=force" ? ["--update", "--update-force"] : [argument]
    }
    main(Array(arguments))
  }
}
