import ArgumentParser
import FlowrunApp
import Foundation

extension FlowrunCommand {
  struct Trace: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Walk through a scenario frame by frame: every event at every node, in delivery order.")

    @Argument(help: ArgumentHelp("The scenario file.", valueName: "file"))
    var file: String

    @Flag(help: "Give every step of each signal's chain a line, and every value a step dropped.")
    var steps = false

    @Flag(help: "Run again and print again whenever the file changes (Ctrl-C to stop).")
    var watch = false

    @Option(help: "Colour of the report lines: auto (only on a terminal, honouring NO_COLOR), always or never.")
    var color: ColorMode = .auto

    func run() throws {
      try Watcher.run(path: file, watch: watch) {
        let output = try TeachingSession.trace(path: file, steps: steps, color: color.isEnabled)
        FileHandle.standardOutput.write(Data(output.text.utf8))
        return output.exitCode
      }
    }
  }
}
