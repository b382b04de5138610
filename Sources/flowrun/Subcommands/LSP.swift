import ArgumentParser
import FlowrunLSP
import FlowrunReport
import Foundation

extension FlowrunCommand {
  struct LSP: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "lsp",
      abstract: "Serve the Language Server Protocol for scenario files over standard input and output.",
      discussion: """
        Diagnostics as you type (those of 'flowrun check'), hover on marbles, steps and names, \
        completion, go to definition, references and an outline. Editors start it as their \
        language server for scenario files (README: Editor support).
        """)

    @Option(
      name: .customLong("debounce"),
      help: ArgumentHelp("Milliseconds after the last change before diagnostics are published.", valueName: "ms"))
    var debounce: Int = 200

    func validate() throws {
      guard debounce >= 0 else { throw ValidationError("--debounce must not be negative") }
    }

    func run() throws {
      let reference = FlowrunCheckout.root().map { $0.appendingPathComponent("docs/reference/").absoluteString }
      let server = LanguageServer(options: .init(debounce: .milliseconds(debounce), referenceBase: reference))
      let code = server.run(
        input: FileHandle.standardInput.fileDescriptor, output: FileHandle.standardOutput.fileDescriptor)
      if code != 0 { throw ExitCode(code) }
    }
  }
}
