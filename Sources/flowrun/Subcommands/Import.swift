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
        'swift build --product flowrun-import' (add '-c release' for a release flowrun); flowrun looks \
        for it beside itself, then in the other build configuration. Exit codes are flowrun-import's: 0 when the draft loads, \
        1 when the Swift file or the draft has an error, 64 on a usage error.
        """)

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp(valueName: "ViewModel.swift [--out DIR]"))
    var arguments: [String] = []

    func run() throws {
      let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
      guard let importer = Self.importer(near: here) else {
        // Built as flowrun was (a release flowrun: `-c release`), it lands beside it.
        let release = here.lastPathComponent == "release"
        let build = release ? "swift build -c release --product flowrun-import" : "swift build --product flowrun-import"
        let text = """
          error: flowrun-import is not built beside flowrun (\(here.path)) nor in its other build configuration
            It is its own product, so that building flowrun never builds swift-syntax:
              \(build)
              flowrun import ViewModel.swift --out DIR

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

    /// `flowrun-import` beside `flowrun`, else in the build folder's other configuration
    /// (`.build/<triple>/debug` for a release `flowrun`, and the other way round).
    static func importer(near here: URL) -> URL? {
      let configurations = ["debug", "release"].filter { $0 != here.lastPathComponent }
      let candidates =
        [here] + configurations.map { here.deletingLastPathComponent().appendingPathComponent($0) }
      return candidates.map { $0.appendingPathComponent("flowrun-import") }.first {
        FileManager.default.isExecutableFile(atPath: $0.path)
      }
    }
  }
}
