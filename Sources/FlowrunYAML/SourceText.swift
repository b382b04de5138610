import FlowrunDiagnostics

/// The bytes of a file with a table of line starts, for exact conversions between byte offsets,
/// scalar indices and `SourceLocation`s.
///
/// Lines end at `\n`, `\r\n` or a lone `\r`. Columns count Unicode scalars from the line start.
/// A leading UTF-8 byte order mark is not part of line 1 (libyaml skips it too), so scalar index
/// 0 is the first scalar after it, exactly as libyaml's `mark.index` counts characters.
struct SourceText: Sendable {
  /// A problem found while checking the bytes: where it is and what to say.
  struct Problem: Sendable {
    var offset: Int
    var message: Diagnostic.Message
  }

  let bytes: [UInt8]
  /// The length of a leading byte order mark (0 or 3).
  let bomLength: Int
  /// Byte offset of the start of each line; line 1 is at index 0. (32 bits: files are smaller
  /// than 4 GiB, and a file of a million lines keeps 8 MB of tables instead of 16.)
  private(set) var lineStartBytes: [UInt32] = []
  /// Scalar index (counted after the BOM) of the start of each line: for converting libyaml's
  /// marks while parsing, dropped afterwards (`parsed`).
  private(set) var lineStartScalars: [UInt32] = []
  /// Whether every byte is ASCII (then scalar index + BOM length == byte offset).
  private(set) var isASCII = true
  /// The first invalid UTF-8 sequence, NUL or disallowed control character, if any.
  private(set) var firstProblem: Problem?

  /// Scans `bytes` once, building the line table and checking the encoding.
  init(bytes: [UInt8]) {
    self.bytes = bytes
    let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    bomLength = hasBOM ? 3 : 0
    scan()
  }

  private mutating func scan() {
    var starts: [UInt32] = [UInt32(bomLength)]
    var scalarStarts: [UInt32] = [0]
    var ascii = true
    var problem: Problem?
    let count = bytes.count
    let bom = bomLength
    bytes.withUnsafeBufferPointer { buffer in
      var i = bom
      var scalars = 0
      while i < count {
        let byte = buffer[i]
        if byte < 0x80 {
          i += 1
          scalars += 1
          if byte >= 0x20 && byte != 0x7F { continue }
          if byte == 0x0A {
            starts.append(UInt32(truncatingIfNeeded: i))
            scalarStarts.append(UInt32(truncatingIfNeeded: scalars))
          } else if byte == 0x0D {
            if i < count && buffer[i] == 0x0A {
              i += 1
              scalars += 1
            }
            starts.append(UInt32(truncatingIfNeeded: i))
            scalarStarts.append(UInt32(truncatingIfNeeded: scalars))
          } else if byte != 0x09 && problem == nil {
            let message: Diagnostic.Message = byte == 0 ? .nulByte : .controlCharacter(UInt32(byte))
            problem = Problem(offset: i - 1, message: message)
          }
          continue
        }
        ascii = false
        let (scalar, length) = Self.decode(buffer, at: i)
        if let scalar {
          if problem == nil && !Self.isPrintable(scalar) {
            problem = Problem(offset: i, message: .controlCharacter(scalar))
          }
        } else if problem == nil {
          problem = Problem(offset: i, message: .invalidUTF8(byte))
        }
        i += length
        scalars += 1
      }
    }
    lineStartBytes = starts
    lineStartScalars = scalarStarts
    isASCII = ascii
    firstProblem = problem
  }

  /// Decodes one UTF-8 sequence starting at a non-ASCII byte: the scalar (nil when invalid) and
  /// the number of bytes consumed (1 for an invalid lead byte or a truncated sequence).
  private static func decode(
    _ buffer: UnsafeBufferPointer<UInt8>, at i: Int
  ) -> (UInt32?, Int) {
    let lead = buffer[i]
    let length: Int
    var value: UInt32
    var minimum: UInt32
    switch lead {
    case 0xC2...0xDF: (length, value, minimum) = (2, UInt32(lead & 0x1F), 0x80)
    case 0xE0...0xEF: (length, value, minimum) = (3, UInt32(lead & 0x0F), 0x800)
    case 0xF0...0xF4: (length, value, minimum) = (4, UInt32(lead & 0x07), 0x10000)
    default: return (nil, 1)
    }
    guard i + length <= buffer.count else { return (nil, 1) }
    for k in 1..<length {
      let next = buffer[i + k]
      guard next & 0xC0 == 0x80 else { return (nil, 1) }
      value = value << 6 | UInt32(next & 0x3F)
    }
    if value < minimum || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) {
      return (nil, 1)
    }
    return (value, length)
  }

  /// YAML's printable set for non-ASCII scalars (libyaml rejects the rest).
  private static func isPrintable(_ value: UInt32) -> Bool {
    value == 0x85 || (0xA0...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
      || (0x10000...0x10FFFF).contains(value)
  }

  static func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
  }

  fileprivate static func codePointName(_ value: UInt32) -> String {
    var hex = String(value, radix: 16, uppercase: true)
    while hex.count < 4 { hex = "0" + hex }
    return "U+" + hex
  }

  // MARK: - Lines

  var lineCount: Int { lineStartBytes.count }

  /// The 0-based index of the line holding byte `offset`.
  func lineIndex(ofByte offset: Int) -> Int {
    Self.lastIndex(in: lineStartBytes, notAfter: offset)
  }

  /// The 0-based index of the line holding scalar `index`.
  func lineIndex(ofScalar index: Int) -> Int {
    Self.lastIndex(in: lineStartScalars, notAfter: index)
  }

  /// Binary search: the last index whose value is <= `value` (0 when none).
  private static func lastIndex(in table: [UInt32], notAfter value: Int) -> Int {
    var low = 0
    var high = table.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if Int(table[mid]) <= value { low = mid } else { high = mid - 1 }
    }
    return low
  }

  /// The byte range of a line's text, without its terminator.
  func contentRange(ofLine index: Int) -> Range<Int> {
    let start = Int(lineStartBytes[index])
    var end = index + 1 < lineStartBytes.count ? Int(lineStartBytes[index + 1]) : bytes.count
    if end > start && bytes[end - 1] == 0x0A { end -= 1 }
    if end > start && bytes[end - 1] == 0x0D { end -= 1 }
    return start..<end
  }

  /// The text of 1-based line `line`, without its terminator; nil when out of range.
  func sourceLine(_ line: Int) -> String? {
    guard line >= 1 && line <= lineStartBytes.count else { return nil }
    return String(decoding: bytes[contentRange(ofLine: line - 1)], as: UTF8.self)
  }

  /// This text once parsed: without the table only libyaml's marks need.
  var parsed: SourceText {
    var text = self
    text.lineStartScalars = []
    return text
  }

  // MARK: - Conversions

  /// The location of byte `offset` (clamped into the file). An offset inside a multi-byte
  /// sequence counts as the scalar it belongs to.
  func location(ofByte offset: Int) -> SourceLocation {
    let offset = min(max(offset, bomLength), bytes.count)
    let line = lineIndex(ofByte: offset)
    let start = Int(lineStartBytes[line])
    var column = 1
    var i = start
    while i < offset {
      i += 1
      while i < offset && bytes[i] & 0xC0 == 0x80 { i += 1 }
      column += 1
    }
    // Stepping over a whole scalar may pass `offset` when it points inside one.
    if i > offset { column -= 1 }
    return SourceLocation(line: line + 1, column: column, offset: offset)
  }

  /// The byte offset where the UTF-8 sequence after `offset` starts.
  func nextScalarStart(after offset: Int) -> Int {
    var i = offset + 1
    while i < bytes.count && bytes[i] & 0xC0 == 0x80 { i += 1 }
    return min(i, bytes.count)
  }
}

/// Converts libyaml's character indices to locations, walking forward from the last conversion
/// so that a whole file's marks (which arrive almost in order) cost linear time.
struct MarkConverter {
  let source: SourceText
  private var cursorScalar = 0
  private var cursorByte: Int
  /// The line of the last conversion, tried first.
  private var cursorLine = 0

  init(source: SourceText) {
    self.source = source
    cursorByte = source.bomLength
  }

  /// The location of the scalar at libyaml character index `index`.
  mutating func location(ofScalar index: Int) -> SourceLocation {
    let line = lineIndex(ofScalar: index)
    let lineScalar = Int(source.lineStartScalars[line])
    let column = index - lineScalar + 1
    if source.isASCII {
      return SourceLocation(
        line: line + 1, column: column, offset: min(index + source.bomLength, source.bytes.count))
    }
    let bytes = source.bytes
    if index > cursorScalar && index - lineScalar < index - cursorScalar {
      cursorScalar = lineScalar
      cursorByte = Int(source.lineStartBytes[line])
    } else if index < cursorScalar {
      if cursorScalar - index < index - lineScalar {
        while cursorScalar > index && cursorByte > 0 {
          cursorByte -= 1
          while cursorByte > 0 && bytes[cursorByte] & 0xC0 == 0x80 { cursorByte -= 1 }
          cursorScalar -= 1
        }
      } else {
        cursorScalar = lineScalar
        cursorByte = Int(source.lineStartBytes[line])
      }
    }
    while cursorScalar < index && cursorByte < bytes.count {
      cursorByte = source.nextScalarStart(after: cursorByte)
      cursorScalar += 1
    }
    return SourceLocation(line: line + 1, column: column, offset: cursorByte)
  }

  /// The line holding scalar `index`: the last line or the next one when possible (marks
  /// arrive almost in order), else a binary search.
  private mutating func lineIndex(ofScalar index: Int) -> Int {
    let starts = source.lineStartScalars
    var line = cursorLine
    if Int(starts[line]) <= index {
      while line + 1 < starts.count && Int(starts[line + 1]) <= index {
        line += 1
        if line > cursorLine + 2 {
          line = source.lineIndex(ofScalar: index)
          break
        }
      }
    } else {
      line = source.lineIndex(ofScalar: index)
    }
    cursorLine = line
    return line
  }
}

extension Diagnostic.Message {
  fileprivate static let nulByte: Self = "NUL bytes are not allowed"
  fileprivate static func controlCharacter(_ codePoint: UInt32) -> Self {
    "control character \(SourceText.codePointName(codePoint)) is not allowed"
  }
  fileprivate static func invalidUTF8(_ byte: UInt8) -> Self { "invalid UTF-8 (byte \(SourceText.hexByte(byte)))" }
}
