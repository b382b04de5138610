import FlowrunDiagnostics
import FlowrunScenario
import FlowrunYAML

/// `flowrun check`'s diagnostics of a document, as LSP diagnostics: the same messages, starting
/// at the same line and column (converted to UTF-16), spanning the scalar they point at (or the
/// word, or one character).
enum DiagnosticsProvider {
  static func diagnostics(of document: OpenDocument) -> [JSONValue] {
    let bytes = document.index.lines.bytes
    // A YAML file that is not a scenario gets none, as `flowrun DIR` skips it.
    guard ScenarioLoader.isScenarioFile(bytes: bytes) else { return [] }
    let loaded = ScenarioLoader.load(path: document.path, bytes: bytes)
    let index = document.index
    let ends = loaded.diagnostics.isEmpty ? [:] : index.scalarEnds()
    return loaded.diagnostics.map { convert($0, index: index, scalarEnds: ends, uri: document.uri) }
  }

  static func convert(_ diagnostic: Diagnostic, index: ScenarioIndex, scalarEnds: [Int: Int], uri: String) -> JSONValue
  {
    let location = diagnostic.location ?? SourceLocation(line: 1, column: 1, offset: 0)
    var result: [String: JSONValue] = [
      "range": range(at: location, index: index, scalarEnds: scalarEnds).json,
      "severity": .int(severity(diagnostic.severity)),
      "source": "flowrun",
      "message": .string(diagnostic.message),
    ]
    let related: [JSONValue] = diagnostic.notes.compactMap { note in
      guard let noteLocation = note.location else { return nil }
      return [
        "location": ["uri": .string(uri), "range": range(at: noteLocation, index: index, scalarEnds: scalarEnds).json],
        "message": .string(note.message),
      ]
    }
    if !related.isEmpty { result["relatedInformation"] = .array(related) }
    return .object(result)
  }

  /// LSP's DiagnosticSeverity: 1 error, 2 warning, 3 information.
  private static func severity(_ severity: Diagnostic.Severity) -> Int {
    switch severity {
    case .error: 1
    case .warning: 2
    case .note: 3
    }
  }

  /// The range a diagnostic at `location` covers: the scalar starting there (up to its line's
  /// end), else the name or number there, else one character.
  static func range(at location: SourceLocation, index: ScenarioIndex, scalarEnds: [Int: Int]) -> TextRange {
    let lines = index.lines
    let start = lines.position(of: location)
    let startByte = lines.byteOffset(of: start)
    let lineEnd = lines.lineBytes(start.line).endIndex
    var endByte = startByte
    if let scalarEnd = scalarEnds[startByte], scalarEnd > startByte {
      endByte = min(scalarEnd, lineEnd)
    } else {
      while endByte < lineEnd, isWordByte(lines.bytes[endByte]) { endByte += 1 }
      if endByte == startByte, endByte < lineEnd {
        endByte += 1
        while endByte < lineEnd, lines.bytes[endByte] & 0xC0 == 0x80 { endByte += 1 }
      }
    }
    return TextRange(start: start, end: endByte == startByte ? start : lines.position(ofByte: endByte))
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "$"):
      true
    default:
      false
    }
  }
}
