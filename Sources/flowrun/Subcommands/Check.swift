import ArgumentParser
import FlowrunApp

extension FlowrunCommand {
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Load and validate scenarios without running them.")

    @OptionGroup var scenarios: ScenarioOptions

    func run() throws {
      var options = scenarios.runOptions()
      options.checkOnly = true
      try runSession(options)
    }
  }
}
