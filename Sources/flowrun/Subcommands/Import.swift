import ArgumentParser
import Foundation

extension FlowrunCommand {
  /// `flowrun import`: runs the `flowrun-import` executable beside this one, or says how to
  /// build it. The importer is its own product so that building `flowrun` never builds
  /// swift-syntax (docs/import.md).
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Draft a scenario and its binding test from a Swift view model (runs flowrun-import).",
      discussion: """
        The importer is the separate product flowrun-import: build it with \
        'swift build --product flowrun-import'. Exit codes are flowrun-import's: 0 when the draft loads, \
        1 when the Swift file or the draft has an error, 64 on a usage error.
        """)

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp(valueName: "ViewModel.swift [--out DIR]"))
    var arguments: [String] = []

    func run() throws {
      let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
      let importer = here.appendingPathComponent("flowrun-import")
      guard FileManager.default.isExecutableFile(atPath: importer.path) else {
        let text = """
          error: flowrun-import is not built beside flowrun (\(here.path))
            It is its own product, so that building flowrun never builds swift-syntax:
              swift build --product flowrun-import
              .build/debug/flowrun-import ViewModel.swift --out DIR

          """
        FileHandle.standardError.write(Data(text.utf8))
        throw ExitCode(64)
      }
      let process = Process()
      process.executableURL = importer
      process.arguments = arguments
      try process.run()
      process.waitUntilExit()
      throw ExitCode(process.terminationStatus)
    }
  }
}
