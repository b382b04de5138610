/// A problem found in a scenario file, at a place in it.
///
/// Every layer (YAML, marbles, expressions, scenario loading, the run) reports through this one
/// type. Its rendering is the spec's: `path:line:column: error: message`, then the source line
/// and a caret under the column when the source line is known, then one line per note.
public struct Diagnostic: Hashable, Sendable {
  public enum Severity: String, Sendable {
    case error
    case warning
    case note
  }

  /// A related place, printed on its own `note:` line.
  public struct Note: Hashable, Sendable {
    public var location: SourceLocation?
    public var message: String

    public init(location: SourceLocation?, message: String) {
      self.location = location
      self.message = message
    }
  }

  public var severity: Severity
  public var path: String
  public var location: SourceLocation?
  public var message: String
  /// The text of the source line at `location`, for the caret snippet.
  public var sourceLine: String?
  public var notes: [Note]

  public init(
    severity: Severity = .error,
    path: String,
    location: SourceLocation?,
    message: String,
    sourceLine: String? = nil,
    notes: [Note] = []
  ) {
    self.severity = severity
    self.path = path
    self.location = location
    self.message = message
    self.sourceLine = sourceLine
    self.notes = notes
  }

  /// The first line: `path:line:column: severity: message`.
  public var headline: String {
    // A problem with the file as a whole is placed at its start, so every diagnostic reads
    // `path:line:column:` for editors and CI annotations.
    let location = location ?? SourceLocation(line: 1, column: 1, offset: 0)
    return "\(path):\(location.line):\(location.column): \(severity.rawValue): \(message)"
  }

  /// The full text: headline, snippet with caret, notes. Lines are joined with `\n`, no final
  /// newline.
  public var rendered: String {
    var lines = [headline]
    if let sourceLine, let location {
      let scalars = Array(sourceLine.unicodeScalars)
      var text = ""
      var padding = ""
      for (index, scalar) in scalars.enumerated() {
        let shown = Self.printable(scalar)
        text += shown
        if index < location.column - 1 {
          padding += String(repeating: " ", count: scalar.displayColumns)
        }
      }
      lines.append("    " + text)
      let missing = max(location.column - 1 - scalars.count, 0)
      lines.append("    " + padding + String(repeating: " ", count: missing) + "^")
    }
    for note in notes {
      if let noteLocation = note.location {
        lines.append("\(path):\(noteLocation.line):\(noteLocation.column): note: \(note.message)")
      } else {
        lines.append("\(path): note: \(note.message)")
      }
    }
    return lines.joined(separator: "\n")
  }
}

// MARK: - CustomStringConvertible

extension Diagnostic: CustomStringConvertible {
  public var description: String { rendered }
}

extension Diagnostic {
  /// A scalar as the snippet shows it: a tab as a space, other control characters as `�`.
  fileprivate static func printable(_ scalar: Unicode.Scalar) -> String {
    if scalar == "\t" { return " " }
    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return "\u{FFFD}" }
    return String(scalar)
  }

}

extension Unicode.Scalar {
  /// The columns the scalar takes in a terminal or a monospaced font: 2 for East Asian wide
  /// characters and emoji, else 1.
  public var displayColumns: Int {
    if value < 0x1100 { return 1 }
    return switch value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      2
    default:
      1
    }
  }
}

extension String {
  /// The columns the text takes in a terminal or a monospaced font (wide characters count 2).
  public var displayColumns: Int {
    // Below U+1100 every scalar takes one column; such text has no UTF-8 byte of 0xE1 or
    // more, and one leading (non-continuation) byte per scalar.
    var scalars = 0
    for byte in utf8 {
      if byte >= 0xE1 { return unicodeScalars.reduce(0) { $0 + $1.displayColumns } }
      if byte & 0xC0 != 0x80 { scalars += 1 }
    }
    return scalars
  }
}
