import ArgumentParser

@main
struct FlowrunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "flowrun",
    abstract: "Run reactive scenarios in virtual time."
  )
}
