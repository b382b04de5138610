public import FlowrunDiagnostics

extension YAMLFile {
  /// The place in the file of the `n`-th Unicode scalar (0-based) of a scalar node's value.
  ///
  /// Exact for plain and quoted scalars, including single-quote `''` escapes, double-quote
  /// escapes (`\n`, `\"`, `\x41`, `\u263A`, `\U0001F600`), escaped line breaks and line folding;
  /// best effort, line by line, for literal and folded block scalars. An `n` past the value's
  /// end gives the place just after its last character (the closing quote for quoted scalars);
  /// a collection gives its start.
  public func location(ofScalarOffset n: Int, in node: YAMLNode) -> SourceLocation {
    guard case .scalar(let value, let style) = node.kind else { return node.start }
    var walker = ScalarSourceWalker(
      bytes: source.bytes, start: node.start.offset,
      end: min(node.end.offset, source.bytes.count), remaining: max(n, 0))
    walker.skipProperties()
    let offset: Int
    switch style {
    case .plain: offset = walker.flowScalar(quote: nil)
    case .singleQuoted: offset = walker.flowScalar(quote: UInt8(ascii: "'"))
    case .doubleQuoted: offset = walker.flowScalar(quote: UInt8(ascii: "\""))
    case .literal: offset = walker.blockScalar(folded: false, value: value)
    case .folded: offset = walker.blockScalar(folded: true, value: value)
    }
    return source.location(ofByte: offset)
  }
}

/// Walks a scalar's source text, counting the value scalars each piece of it produces, until
/// the wanted one is reached.
private struct ScalarSourceWalker {
  let bytes: [UInt8]
  var start: Int
  let end: Int
  /// Value scalars still to pass before the wanted one.
  var remaining: Int

  private static let space = UInt8(ascii: " ")
  private static let tab = UInt8(ascii: "\t")
  private static let lineFeed = UInt8(ascii: "\n")
  private static let carriageReturn = UInt8(ascii: "\r")
  private static let backslash = UInt8(ascii: "\\")

  init(bytes: [UInt8], start: Int, end: Int, remaining: Int) {
    self.bytes = bytes
    self.start = min(start, end)
    self.end = end
    self.remaining = remaining
  }

  /// Counts `count` value scalars produced at one place; true when the wanted one is among them.
  private mutating func emit(_ count: Int) -> Bool {
    if remaining < count { return true }
    remaining -= count
    return false
  }

  private func isBlank(_ byte: UInt8) -> Bool { byte == Self.space || byte == Self.tab }
  private func isBreak(_ byte: UInt8) -> Bool {
    byte == Self.lineFeed || byte == Self.carriageReturn
  }

  /// The offset after the line break at `i`.
  private func skipBreak(_ i: Int) -> Int {
    if i + 1 < end && bytes[i] == Self.carriageReturn && bytes[i + 1] == Self.lineFeed {
      return i + 2
    }
    return i + 1
  }

  private func nextScalar(after i: Int) -> Int {
    var j = i + 1
    while j < end && bytes[j] & 0xC0 == 0x80 { j += 1 }
    return j
  }

  /// Moves `start` past a tag and an anchor (`!cold &a "…"`) to the scalar's own first byte.
  mutating func skipProperties() {
    while start < end && (bytes[start] == UInt8(ascii: "!") || bytes[start] == UInt8(ascii: "&")) {
      while start < end && !isBlank(bytes[start]) && !isBreak(bytes[start]) { start += 1 }
      while start < end && (isBlank(bytes[start]) || isBreak(bytes[start])) { start += 1 }
    }
  }

  /// Plain (`quote` nil), single- or double-quoted scalars: one value scalar per source scalar,
  /// except escapes, trailing blanks before a break (none), and folded line breaks (a space,
  /// or one newline per empty line).
  mutating func flowScalar(quote: UInt8?) -> Int {
    var i = start
    if quote != nil { i += 1 }
    while i < end {
      let byte = bytes[i]
      if let quote, byte == quote {
        guard quote == UInt8(ascii: "'"), i + 1 < end, bytes[i + 1] == quote else { return i }
        if emit(1) { return i }
        i += 2
        continue
      }
      if quote == UInt8(ascii: "\""), byte == Self.backslash, i + 1 < end {
        let escape = bytes[i + 1]
        if isBreak(escape) {
          i = skipBreak(i + 1)
          while i < end && isBlank(bytes[i]) { i += 1 }
          continue
        }
        if emit(1) { return i }
        switch escape {
        case UInt8(ascii: "x"): i += 4
        case UInt8(ascii: "u"): i += 6
        case UInt8(ascii: "U"): i += 10
        default: i = nextScalar(after: i + 1)
        }
        continue
      }
      if isBlank(byte) {
        var j = i
        while j < end && isBlank(bytes[j]) { j += 1 }
        if j < end && isBreak(bytes[j]) {
          i = j
          continue
        }
        if remaining < j - i { return i + remaining }
        remaining -= j - i
        i = j
        continue
      }
      if isBreak(byte) {
        let first = i
        var breaks = 0
        while i < end {
          if isBreak(bytes[i]) {
            breaks += 1
            i = skipBreak(i)
          } else if isBlank(bytes[i]) {
            i += 1
          } else {
            break
          }
        }
        if emit(breaks == 1 ? 1 : breaks - 1) { return first }
        continue
      }
      if emit(1) { return i }
      i = nextScalar(after: i)
    }
    return min(i, end)
  }

  /// Literal and folded block scalars, line by line: each content line's scalars map one to
  /// one after the indentation; each line break gives one value scalar, except in a folded
  /// scalar the break after a text line that is followed by an empty line.
  mutating func blockScalar(folded: Bool, value: String) -> Int {
    var i = start
    while i < end && !isBreak(bytes[i]) { i += 1 }
    guard i < end else { return end }
    i = skipBreak(i)
    let indent = contentIndent(from: i, value: value)
    while i < end {
      var contentStart = i
      while contentStart < end && contentStart - i < indent && bytes[contentStart] == Self.space {
        contentStart += 1
      }
      var lineEnd = contentStart
      while lineEnd < end && !isBreak(bytes[lineEnd]) { lineEnd += 1 }
      var j = contentStart
      while j < lineEnd {
        if emit(1) { return j }
        j = nextScalar(after: j)
      }
      guard lineEnd < end else { return end }
      let next = skipBreak(lineEnd)
      var breakCount = 1
      if folded && lineEnd > contentStart && !isBlank(bytes[contentStart])
        && isEmptyLine(at: next)
      {
        breakCount = 0
      }
      if emit(breakCount) { return lineEnd }
      i = next
    }
    return end
  }

  /// The block's indentation: leading spaces of its first non-empty source line minus those of
  /// the value's first non-empty line (non-zero when an indentation indicator was used).
  private func contentIndent(from lineStart: Int, value: String) -> Int {
    var i = lineStart
    var sourceIndent = 0
    while i < end {
      var j = i
      while j < end && bytes[j] == Self.space { j += 1 }
      if j < end && !isBreak(bytes[j]) {
        sourceIndent = j - i
        break
      }
      guard j < end else { break }
      i = skipBreak(j)
    }
    var valueIndent = 0
    var atLineStart = true
    for byte in value.utf8 {
      if byte == Self.lineFeed {
        valueIndent = 0
        atLineStart = true
      } else if atLineStart && byte == Self.space {
        valueIndent += 1
      } else {
        break
      }
    }
    return max(sourceIndent - valueIndent, 0)
  }

  private func isEmptyLine(at lineStart: Int) -> Bool {
    var i = lineStart
    while i < end && isBlank(bytes[i]) { i += 1 }
    return i < end && isBreak(bytes[i])
  }
}
