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
    if let location {
      return "\(path):\(location.line):\(location.column): \(severity.rawValue): \(message)"
    }
    return "\(path): \(severity.rawValue): \(message)"
  }

  /// The full text: headline, snippet with caret, notes. Lines are joined with `\n`, no final
  /// newline.
  public var rendered: String {
    var lines = [headline]
    if let sourceLine, let location {
      let text = sourceLine.replacingTabs()
      lines.append("    " + text)
      let caretColumn = max(location.column - 1, 0)
      lines.append("    " + String(repeating: " ", count: caretColumn) + "^")
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

extension String {
  fileprivate func replacingTabs() -> String {
    String(unicodeScalars.map { $0 == "\t" ? " " : Character($0) })
  }
}
