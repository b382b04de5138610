import ArgumentParser
import FlowrunApp
import FlowrunReport
import Foundation

extension FlowrunCommand {
  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run scenarios and compare what happened with their expectations.",
      discussion: """
        Reporters: human (default, to standard output), json, junit, tap and github; write one to \
        a file with --reporter junit:build/flowrun.xml. github is added when GITHUB_ACTIONS=true.
        --update rewrites the marble of each failing expectation in place with what happened; \
        when the CI variable is set it refuses unless given as --update=force.
        """)

    @OptionGroup var scenarios: ScenarioOptions

    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Run only the i-th of n deterministic slices of the scenarios.", valueName: "i/n"))
    var shard: ShardArgument?

    @Flag(help: "Rewrite the marbles of failing expectations with what happened (--update=force in CI).")
    var update = false

    @Flag(name: .customLong("update-force"), help: .hidden)
    var updateForce = false

    @Flag(name: .shortAndLong, help: "Also list every expectation that held.")
    var verbose = false

    @Flag(name: .customLong("fail-fast"), help: "Stop after the first failing scenario.")
    var failFast = false

    @Flag(help: "Print the frame-by-frame walkthrough of each scenario file (as flowrun trace).")
    var trace = false

    @Flag(help: "Run again whenever a scenario file changes (Ctrl-C to stop).")
    var watch = false

    func run() throws {
      var options = try scenarios.runOptions()
      if verbose { options.verbosity = .verbose }
      output.apply(to: &options)
      options.failFast = failFast
      options.shard = shard.map { ($0.index, $0.count) }
      options.update = updateForce ? .force : update ? .on : .off
      try runOrWatch(options)
    }
  }
}

struct ShardArgument: ExpressibleByArgument {
  var index: Int
  var count: Int

  init?(argument: String) {
    let parts = argument.split(separator: "/")
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (1...count).contains(index)
    else { return nil }
    self.index = index
    self.count = count
  }
}
