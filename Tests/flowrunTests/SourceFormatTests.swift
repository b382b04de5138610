import Foundation
import Testing

/// The code passes the committed `.swift-format` configuration: `swift format lint --strict`
/// over `Sources`, `Tests` and `Package.swift` reports nothing. To fix a finding, run
/// `swift format format -i -r Sources Tests Package.swift`.
@Suite struct SourceFormatTests {
  /// Whether the toolchain has `swift format` (Swift 6 toolchains do).
  static let hasSwiftFormat: Bool = (try? Shell.run(["swift", "format", "--version"]).status) == 0

  @Test(.enabled(if: hasSwiftFormat, "the toolchain has no `swift format`"))
  func theCodePassesTheCommittedConfiguration() throws {
    let configuration = CLI.packageRoot.appendingPathComponent(".swift-format")
    #expect(FileManager.default.fileExists(atPath: configuration.path), "no .swift-format at the package root")
    let lint = try Shell.run([
      "swift", "format", "lint", "--strict", "--configuration", configuration.path, "-r", "Sources", "Tests",
      "Package.swift",
    ])
    #expect(
      lint.status == 0 && lint.output.isEmpty,
      """
      swift format lint --strict found (fix with `swift format format -i -r Sources Tests Package.swift`):
      \(lint.output)
      """)
  }
}
