import ArgumentParser
import FlowrunApp
import FlowrunReport
import FlowrunScenario
import Foundation

extension FlowrunCommand {
  struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run scenarios under each library and show where their outcomes part.",
      discussion: """
        Each scenario is read in the names and meanings of each library (whatever its own \
        'library:' says). For every expectation whose outcome differs, one lane per library, a \
        caret at the first frame where they part, and the rows of docs/libraries.md that explain \
        it; a library that cannot express the scenario is listed with the key that stops it. \
        Exit 0 when every scenario loaded under some library, 1 otherwise.
        """)

    @Argument(help: ArgumentHelp("Scenario files and directories (searched recursively).", valueName: "path"))
    var paths: [String] = []

    @Option(
      help: ArgumentHelp(
        "The libraries to compare, comma-separated, of rac2, rxswift, combine, async and rxjs (default: all five).",
        valueName: "rac2,rxswift,…"))
    var libraries: LibraryList = LibraryList(libraries: Library.allCases)

    @Option(help: "Output format: human, json, or markdown (the libraries gallery page).")
    var reporter: CompareReporter = .human

    @Option(help: "Colour: auto (only on a terminal, honouring NO_COLOR), always or never.")
    var color: ColorMode = .auto

    func validate() throws {
      if paths.isEmpty { throw ValidationError("Please give at least one scenario file or directory.") }
    }

    func run() throws {
      let (files, missing) = ScenarioDiscovery.files(in: paths)
      if let path = missing.first { throw ValidationError("no such file or directory: \(path)") }
      if files.isEmpty { throw ValidationError("no scenario found in \(paths.joined(separator: ", "))") }
      let comparison = LibraryComparison.compare(files: files, libraries: libraries.libraries)
      let text: String
      switch reporter {
      case .human: text = comparison.human(color: color.isEnabled)
      case .json: text = comparison.json
      case .markdown: text = comparison.markdown(title: "Where the libraries part")
      }
      FileHandle.standardOutput.write(Data(text.utf8))
      if comparison.exitCode != 0 { throw ExitCode(comparison.exitCode) }
    }
  }
}

/// `--libraries rac2,rxswift`.
struct LibraryList: ExpressibleByArgument {
  var libraries: [Library]

  init(libraries: [Library]) {
    self.libraries = libraries
  }

  init?(argument: String) {
    var libraries: [Library] = []
    for name in argument.split(separator: ",") {
      guard let library = Library(rawValue: name.trimmingCharacters(in: .whitespaces)) else { return nil }
      if !libraries.contains(library) { libraries.append(library) }
    }
    guard !libraries.isEmpty else { return nil }
    self.libraries = libraries
  }

  var defaultValueDescription: String { libraries.map(\.rawValue).joined(separator: ",") }
}

enum CompareReporter: String, ExpressibleByArgument, CaseIterable {
  case human, json, markdown
}
