public import Foundation
public import Testing

/// Whether golden files are being recorded (`FLOWRUN_RECORD=1`).
public var isRecordingGoldenFiles: Bool {
  ProcessInfo.processInfo.environment["FLOWRUN_RECORD"] == "1"
}

/// Compares `actual` with the golden file at `url`, showing a line diff on a mismatch.
///
/// With `FLOWRUN_RECORD=1` it writes the file instead and records an issue, so that a recording
/// run never passes silently.
public func assertGolden(_ actual: String, file url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
  if isRecordingGoldenFiles {
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(actual.utf8).write(to: url, options: .atomic)
      Issue.record(
        "recorded \(url.lastPathComponent); run again without FLOWRUN_RECORD", sourceLocation: sourceLocation)
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

/// A line diff (longest common subsequence): `  ` common, `- ` removed, `+ ` added lines.
public func lineDiff(_ old: String, _ new: String) -> String {
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
