import FlowrunTestSupport
import Foundation
import Testing

/// One golden diagnostics case: `Golden/<name>.yaml` and the rendered diagnostics it must give,
/// `Golden/<name>.out`.
///
/// Cases are discovered at run time from the `Golden` folder next to this file (found through
/// `#filePath`; the folder is excluded from the target, so it is read from the source tree).
struct GoldenCase: Sendable, CustomTestStringConvertible {
  let name: String

  var testDescription: String { name }

  static let directory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("Golden", isDirectory: true)

  /// Every `*.yaml` in the folder, sorted by name.
  static var all: [GoldenCase] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { GoldenCase(name: String($0.dropLast(5))) }
  }

  var inputURL: URL { Self.directory.appendingPathComponent(name + ".yaml") }
  var outputURL: URL { Self.directory.appendingPathComponent(name + ".out") }
}
