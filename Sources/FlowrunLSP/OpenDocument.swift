import FlowrunDiagnostics
import Foundation

/// A scenario file open in the editor: its current text and what was read from it.
final class OpenDocument {
  let uri: String
  /// The path the loader reports against (the file's path for `file:` URIs).
  let path: String
  private(set) var version: Int
  private(set) var bytes: [UInt8]
  private var cachedIndex: ScenarioIndex?
  /// The index of the last version whose YAML parsed, for completing names while a line is
  /// half written.
  private var lastParsed: ScenarioIndex?
  /// The index of the current text without one line, for `namesIndex(editing:)`.
  private var withoutLine: (Int, ScenarioIndex)?

  init(uri: String, version: Int, text: String) {
    self.uri = uri
    path = Self.path(of: uri)
    self.version = version
    bytes = Array(text.utf8)
  }

  /// The index of the current text, read once per version.
  var index: ScenarioIndex {
    if let cachedIndex { return cachedIndex }
    let index = ScenarioIndex(path: path, bytes: bytes)
    cachedIndex = index
    if index.parsed { lastParsed = index }
    return index
  }

  /// The index to complete names from while `line` is being written: the current text's if
  /// its YAML parses, else the text's without that line, else the last text that parsed.
  func namesIndex(editing line: Int) -> ScenarioIndex {
    let current = index
    if current.parsed { return current }
    if let (cachedLine, cached) = withoutLine, cachedLine == line { return cached }
    let lines = current.lines
    var blanked = Array(lines.bytes[..<lines.lineBytes(line).startIndex])
    blanked += lines.bytes[lines.lineBytes(line).endIndex...]
    let without = ScenarioIndex(path: path, bytes: blanked)
    guard without.parsed else { return lastParsed ?? current }
    withoutLine = (line, without)
    return without
  }

  var lines: LineIndex { index.lines }

  /// Applies `contentChanges` of `textDocument/didChange`: whole texts, or ranges replaced
  /// (positions in UTF-16 units of the text as it is before each change).
  func apply(changes: [JSONValue], version: Int) {
    for change in changes {
      guard let text = change["text"]?.stringValue else { continue }
      if let range = change["range"], let start = Position(range["start"]), let end = Position(range["end"]) {
        let lines = LineIndex(bytes: bytes)
        let from = lines.byteOffset(of: start)
        let to = max(from, lines.byteOffset(of: end))
        bytes.replaceSubrange(from..<to, with: Array(text.utf8))
      } else {
        bytes = Array(text.utf8)
      }
    }
    self.version = version
    cachedIndex = nil
    withoutLine = nil
  }

  /// The file path of a `file:` URI (percent-decoded), else the URI itself.
  static func path(of uri: String) -> String {
    guard uri.hasPrefix("file://"), let url = URL(string: uri), url.isFileURL else { return uri }
    return url.path
  }
}
