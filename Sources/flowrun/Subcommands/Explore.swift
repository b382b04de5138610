import ArgumentParser
import FlowrunApp
import FlowrunExplore
import FlowrunReport

extension FlowrunCommand {
  struct Explore: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Generate inputs for scenarios' 'explore:' sections, check their invariants, and shrink what fails.",
      discussion: """
        Each scenario with an 'explore:' section runs as written, then --runs times with generated \
        inputs (from --seed: the same seed gives the same output, byte for byte). The first run \
        whose invariant fails, or that fails with a run-time error, is shrunk to a minimal \
        counterexample and printed; --output writes it as a scenario that 'flowrun run' fails on. \
        --orders also tries the orders of the inputs due in the same frame. Exit codes: 0 when no \
        counterexample was found, 1 when one was (or a scenario did not load), 64 on a usage error.
        """)

    @Argument(help: ArgumentHelp("Scenario files and directories (searched recursively).", valueName: "path"))
    var paths: [String] = []

    @Option(help: "Generated runs per scenario.")
    var runs = 1_000

    @Option(help: "The seed of the generated inputs.")
    var seed: UInt64 = 0

    @Option(
      name: .shortAndLong, help: ArgumentHelp("Write the counterexamples as scenarios to this file.", valueName: "file")
    )
    var output: String?

    @Option(help: "Output format: human or json.")
    var reporter: ExploreReporter = .human

    @Flag(help: "Also explore the orders of inputs due in the same frame.")
    var orders = false

    @Option(help: "Colour: auto (only on a terminal, honouring NO_COLOR), always or never.")
    var color: ColorMode = .auto

    func validate() throws {
      if paths.isEmpty { throw ValidationError("Please give at least one scenario file or directory.") }
      if runs < 0 { throw ValidationError("Please give --runs a number of at least 0.") }
    }

    func run() throws {
      var request = ExploreRequest(paths: paths)
      request.options = ExploreOptions(runs: runs, seed: seed, orders: orders)
      request.output = output
      request.json = reporter == .json
      request.color = color.isEnabled
      try runToExit { () throws(UsageError) in try ExploreSession.run(request, emit: printOutput) }
    }
  }
}

enum ExploreReporter: String, ExpressibleByArgument, CaseIterable {
  case human, json
}
