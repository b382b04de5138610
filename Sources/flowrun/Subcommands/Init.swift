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

        With --swift <scenario.yaml>, prints instead the skeleton of a Swift test that checks \
        real code against that scenario with the FlowrunTesting library: one drive per input, \
        one observe per expectation (docs/testing-real-code.md). Nothing is written.
        """)

    @Argument(help: ArgumentHelp("The scenario to create: 'login' writes login.yaml.", valueName: "name"))
    var name: String?

    @Option(
      help: ArgumentHelp(
        "Print the skeleton of a Swift test binding real code to this scenario file.", valueName: "scenario.yaml"))
    var swift: String?

    @Option(
      help: ArgumentHelp(
        "The schema reference of the first line (default: schemas/ of the nearest directory above the file that has one, else the schema of the checkout this flowrun was built in).",
        valueName: "url-or-path"))
    var schema: String?

    @Option(
      help: ArgumentHelp(
        "Write the starter in this library's words: rac2, rxswift, combine, async or rxjs (libraries.md).",
        valueName: "library"))
    var library: String?

    func validate() throws {
      if swift != nil {
        guard name == nil else { throw ValidationError("give either a name to create or --swift, not both") }
        return
      }
      guard let name, !name.isEmpty, !name.hasSuffix("/") else {
        throw ValidationError("the name of the scenario file to create is missing, such as 'login'")
      }
      if let library, Library(rawValue: library) == nil {
        let names = Library.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        throw ValidationError("unknown library '\(library)' (the libraries are \(names))")
      }
    }

    func run() throws {
      if let swift { return try printSkeleton(swift) }
      guard let name else { return }
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

    /// `--swift FILE`: the test skeleton on standard output; a file that does not load is its
    /// diagnostics and exit code 1.
    private func printSkeleton(_ path: String) throws {
      switch SwiftTestSkeleton.text(ofFileAt: path) {
      case .success(let text):
        FileHandle.standardOutput.write(Data(text.utf8))
      case .failure(let problems):
        FileHandle.standardError.write(Data(problems.text.utf8))
        throw ExitCode(1)
      }
    }
  }
}
