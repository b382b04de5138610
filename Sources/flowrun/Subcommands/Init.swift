import ArgumentParser
import FlowrunApp
import FlowrunScenario
import Foundation

extension FlowrunCommand {
  struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a commented starter scenario to <name>.yaml.",
      discussion: """
        The starter is the login button example in miniature; it passes as written. Its first \
        line attaches the scenario schema for editors (yaml-language-server). An existing file \
        is never overwritten.
        """)

    @Argument(help: ArgumentHelp("The scenario to create: 'login' writes login.yaml.", valueName: "name"))
    var name: String

    @Option(
      help: ArgumentHelp(
        "The schema reference of the first line (default: schemas/ of the nearest directory above the file that has one, else the schema of the checkout this flowrun was built in).",
        valueName: "url-or-path"))
    var schema: String?

    @Option(
      help: ArgumentHelp(
        "Write the starter in this library's words: rac2, rxswift, combine or rxjs (libraries.md).",
        valueName: "library"))
    var library: String?

    func validate() throws {
      if name.isEmpty || name.hasSuffix("/") {
        throw ValidationError("the name of the scenario file to create is missing, such as 'login'")
      }
      if let library, Library(rawValue: library) == nil {
        let names = Library.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        throw ValidationError("unknown library '\(library)' (the libraries are \(names))")
      }
    }

    func run() throws {
      let path = name.hasSuffix(".yaml") || name.hasSuffix(".yml") ? name : name + ".yaml"
      let url = URL(fileURLWithPath: path)
      if FileManager.default.fileExists(atPath: url.path) {
        FileHandle.standardError.write(
          Data("error: \(path) already exists; flowrun init never overwrites a file\n".utf8))
        throw ExitCode(1)
      }
      let text = StarterScenario.text(
        schema: schema ?? StarterScenario.schemaReference(forFileAt: path), library: library.flatMap(Library.init))
      do {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .withoutOverwriting)
      } catch {
        FileHandle.standardError.write(Data("error: cannot write \(path): \(error.localizedDescription)\n".utf8))
        throw ExitCode(1)
      }
      FileHandle.standardOutput.write(Data("wrote \(path); run it with: flowrun \(path)\n".utf8))
    }
  }
}
