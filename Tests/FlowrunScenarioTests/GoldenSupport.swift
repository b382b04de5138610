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

  /// Whether this run rewrites the expected files (`FLOWRUN_RECORD=1`).
  static var isRecording: Bool { ProcessInfo.processInfo.environment["FLOWRUN_RECORD"] == "1" }
}

/// Compares `actual` with the golden file at `url`; in recording mode rewrites it and records
/// an issue, so that a recording run never passes silently.
func assertGolden(
  _ actual: String, file url: URL, sourceLocation: SourceLocation = #_sourceLocation
) {
  if GoldenCase.isRecording {
    do {
      try Data(actual.utf8).write(to: url)
      Issue.record("recorded \(url.lastPathComponent); run again without FLOWRUN_RECORD", sourceLocation: sourceLocation)
    } catch {
      Issue.record("cannot write \(url.path): \(error)", sourceLocation: sourceLocation)
    }
    return
  }
  guard let data = FileManager.default.contents(atPath: url.path) else {
    Issue.record(
      "missing golden file \(url.lastPathComponent); run with FLOWRUN_RECORD=1 to create it",
      sourceLocation: sourceLocation)
    return
  }
  let expected = String(decoding: data, as: UTF8.self)
  guard expected != actual else { return }
  let message = "\(url.lastPathComponent) differs (- expected, + actual):\n" + lineDiff(expected, actual)
  Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}

/// A line diff: common lines prefixed with two spaces, removed ones with `- `, added ones with
/// `+ ` (longest common subsequence; golden files are small).
func lineDiff(_ old: String, _ new: String) -> String {
  let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  var lcs = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
  for i in stride(from: a.count - 1, through: 0, by: -1) {
    for j in stride(from: b.count - 1, through: 0, by: -1) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
    }
  }
  var lines: [String] = []
  var i = 0
  var j = 0
  while i < a.count || j < b.count {
    if i < a.count, j < b.count, a[i] == b[j] {
      lines.append("  " + a[i])
      i += 1
      j += 1
    } else if j < b.count, i == a.count || lcs[i][j + 1] >= lcs[i + 1][j] {
      lines.append("+ " + b[j])
      j += 1
    } else {
      lines.append("- " + a[i])
      i += 1
    }
  }
  return lines.joined(separator: "\n")
}
