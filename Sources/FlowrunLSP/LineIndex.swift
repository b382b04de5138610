import FlowrunDiagnostics
import FlowrunYAML

/// A position as LSP counts it: a 0-based line, and a 0-based column in UTF-16 code units.
struct Position: Hashable, Comparable, Sendable {
  var line: Int
  var character: Int

  static func < (lhs: Position, rhs: Position) -> Bool {
    (lhs.line, lhs.character) < (rhs.line, rhs.character)
  }

  var json: JSONValue { ["line": .int(line), "character": .int(character)] }

  init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }

  init?(_ json: JSONValue?) {
    guard let line = json?["line"]?.intValue, let character = json?["character"]?.intValue else { return nil }
    self.init(line: line, character: character)
  }
}

/// A range of positions, end exclusive.
struct TextRange: Hashable, Sendable {
  var start: Position
  var end: Position

  var json: JSONValue { ["start": start.json, "end": end.json] }

  func contains(_ position: Position) -> Bool {
    start <= position && position <= end
  }
}

/// The lines of a document's UTF-8 bytes, for converting between the loader's places (byte
/// offsets; 1-based lines and columns counted in Unicode scalars) and LSP positions (UTF-16).
///
/// Lines end at `\n`, `\r\n` or a lone `\r`, as both the loader and LSP count them. A leading
/// byte order mark is not part of line 1's columns for the loader, and is one UTF-16 unit for
/// the client.
struct LineIndex: Sendable {
  let bytes: [UInt8]
  /// The byte offset where each line starts.
  private(set) var lineStarts: [Int] = [0]
  let bomLength: Int

  init(bytes: [UInt8]) {
    self.bytes = bytes
    bomLength = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == 0x0A {
        lineStarts.append(index)
      } else if byte == 0x0D {
        if index < bytes.count, bytes[index] == 0x0A { index += 1 }
        lineStarts.append(index)
      }
    }
  }

  var lineCount: Int { lineStarts.count }

  /// The bytes of 0-based `line`, without its line break.
  func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
    guard line >= 0, line < lineStarts.count else { return [] }
    var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
    while end > lineStarts[line], bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
    return bytes[lineStarts[line]..<end]
  }

  /// The text of 0-based `line`, without its line break.
  func lineText(_ line: Int) -> String {
    String(decoding: lineBytes(line), as: UTF8.self)
  }

  /// The 0-based line holding byte `offset`.
  func line(ofByte offset: Int) -> Int {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The LSP position of byte `offset` (a byte inside a character counts as that character).
  func position(ofByte offset: Int) -> Position {
    let clamped = max(0, min(offset, bytes.count))
    let line = line(ofByte: clamped)
    let lineBytes = lineBytes(line)
    let prefix = lineBytes[lineBytes.startIndex..<min(max(clamped, lineBytes.startIndex), lineBytes.endIndex)]
    return Position(line: line, character: String(decoding: prefix, as: UTF8.self).utf16.count)
  }

  /// The LSP position of a loader location (1-based line, column in Unicode scalars).
  func position(of location: SourceLocation) -> Position {
    let line = max(0, min(location.line - 1, lineStarts.count - 1))
    var text = lineText(line)
    var character = 0
    if line == 0, bomLength > 0, text.unicodeScalars.first == "\u{FEFF}" {
      text.unicodeScalars.removeFirst()
      character = 1
    }
    var remaining = max(0, location.column - 1)
    for scalar in text.unicodeScalars {
      guard remaining > 0 else { break }
      character += scalar.utf16.count
      remaining -= 1
    }
    return Position(line: line, character: character + remaining)
  }

  /// The byte offset of an LSP position (clamped to its line; a position inside a surrogate
  /// pair counts as the character's start).
  func byteOffset(of position: Position) -> Int {
    guard position.line < lineStarts.count else { return bytes.count }
    let line = max(0, position.line)
    let lineBytes = lineBytes(line)
    var units = 0
    var offset = lineBytes.startIndex
    for scalar in String(decoding: lineBytes, as: UTF8.self).unicodeScalars {
      guard units + scalar.utf16.count <= position.character else { break }
      units += scalar.utf16.count
      offset += scalar.utf8.count
    }
    return offset
  }

  /// The range of bytes `start..<end` as LSP positions.
  func range(_ start: Int, _ end: Int) -> TextRange {
    TextRange(start: position(ofByte: start), end: position(ofByte: end))
  }
}
