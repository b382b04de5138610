import ArgumentParser
import FlowrunReport
import Foundation

extension FlowrunCommand {
  struct Diagram: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Draw a scenario's run as marble lanes.")
    @Argument var file: String
    func run() throws {}
  }
}
