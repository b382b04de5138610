import ArgumentParser
import FlowrunApp
import Foundation

extension FlowrunCommand {
  struct Diagram: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run a scenario and draw every node and expectation as aligned marble lanes.")

    @Argument(help: ArgumentHelp("The scenario file.", valueName: "file"))
    var file: String

    @Option(help: "Output format: text, svg or html.")
    var format: DiagramFormat = .text

    @Option(
      name: .shortAndLong,
      help: ArgumentHelp("Write the diagram to this file instead of standard output.", valueName: "path"))
    var output: String?

    @Flag(help: "Draw a lane for every step of each signal's chain, with the values each step dropped.")
    var steps = false

    @Flag(help: "Run again and redraw whenever the file changes (Ctrl-C to stop).")
    var watch = false

    @Option(
      help: "Colour of a text diagram's report lines: auto (only on a terminal, honouring NO_COLOR), always or never."
    )
    var color: ColorMode = .auto

    func run() throws {
      try Watcher.run(path: file, watch: watch) {
        let result = try TeachingSession.diagram(
          path: file, format: format, steps: steps, color: output == nil && format == .text && color.isEnabled)
        if let output {
          try Data(result.text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } else {
          FileHandle.standardOutput.write(Data(result.text.utf8))
        }
        return result.exitCode
      }
    }
  }
}

extension DiagramFormat: ExpressibleByArgument {}
