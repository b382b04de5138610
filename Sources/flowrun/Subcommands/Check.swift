import ArgumentParser
import FlowrunApp

extension FlowrunCommand {
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Load and validate scenarios without running them.")

    @OptionGroup var scenarios: ScenarioOptions

    @OptionGroup var output: OutputOptions

    func run() throws {
      var options = try scenarios.runOptions()
      output.apply(to: &options)
      options.checkOnly = true
      try runSession(options, isolated: true)
    }
  }
}
