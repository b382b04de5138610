import ArgumentParser
import FlowrunReport

extension FlowrunCommand {
  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run scenarios and compare what happened with their expectations.")

    @OptionGroup var scenarios: ScenarioOptions

    @Flag(name: .shortAndLong, help: "Print only failures and the summary.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Also list every expectation that held.")
    var verbose = false

    @Flag(name: .customLong("fail-fast"), help: "Stop after the first failing scenario.")
    var failFast = false

    func run() throws {
      var options = scenarios.runOptions()
      options.verbosity = quiet ? .quiet : verbose ? .verbose : .normal
      options.failFast = failFast
      try runSession(options)
    }
  }
}
