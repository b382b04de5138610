/// A marble's UTF-8, read in place by the parser: byte-level look-ups that never copy the text.
///
/// Every symbol of the marble grammar is ASCII, so the parser works on bytes and counts Unicode
/// scalars only where an offset is reported; a multi-byte scalar can only be (part of) a value
/// token, a quoted token or a word. The buffer is valid only while the marble's `withUTF8` runs.
struct MarbleBytes {
  let buffer: UnsafeBufferPointer<UInt8>

  var count: Int { buffer.count }

  subscript(position: Int) -> UInt8 { buffer[position] }

  /// The byte at `position`, or 0 past the end (0 is never looked for).
  func byte(at position: Int) -> UInt8 { position < buffer.count ? buffer[position] : 0 }

  /// Whether `byte` begins a scalar (is not a UTF-8 continuation byte).
  static func startsScalar(_ byte: UInt8) -> Bool { byte & 0xC0 != 0x80 }

  /// Whether `byte` is an ASCII digit.
  static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  /// The number of bytes of the scalar whose first byte is `lead`.
  static func scalarLength(lead: UInt8) -> Int { lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4 }

  /// The scalar whose `length` bytes start at `position`.
  func scalar(at position: Int, length: Int) -> Unicode.Scalar {
    let lead = buffer[position]
    guard length > 1 else { return Unicode.Scalar(lead) }
    // The lead byte keeps 7 - length bits of the value, each continuation byte 6 more.
    var value = UInt32(lead & (0x7F >> UInt8(length)))
    for next in position + 1..<position + length {
      value = value << 6 | UInt32(buffer[next] & 0x3F)
    }
    // A Swift string's UTF-8 is always valid, so the value is a scalar.
    return Unicode.Scalar(value) ?? "\u{FFFD}"
  }

  /// Whether the non-ASCII scalar of `length` bytes at `position` is whitespace or a control
  /// character (a Unicode property lookup, kept out of the ASCII path).
  @inline(never)
  func isUnprintable(at position: Int, length: Int) -> Bool {
    MarbleSymbol.isUnprintable(scalar(at: position, length: length))
  }

  /// The text of the bytes in `range`, which starts and ends on scalar boundaries.
  func text(_ range: Range<Int>) -> String {
    let count = range.count
    if count == 1, case let byte = buffer[range.lowerBound], byte < 0x80 { return MarbleBytes.asciiTexts[Int(byte)] }
    // Up to 15 bytes make a small string (no allocation) that, when ASCII, is not validated again;
    // longer texts are quickest through `decoding`.
    guard count <= 15, let source = buffer.baseAddress else {
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }
    return String(unsafeUninitializedCapacity: count) { target in
      target.baseAddress?.initialize(from: source + range.lowerBound, count: count)
      return count
    }
  }

  /// The one-character texts of the ASCII characters, made once: a one-character token is a copy
  /// of one of these rather than a string made per item.
  static let asciiTexts: [String] = (0..<128).map { String(Unicode.Scalar(UInt8($0))) }

  /// The word starting at `start`, up to the next space or the end: the index just past it and
  /// its number of scalars.
  func word(from start: Int) -> (end: Int, scalars: Int) {
    var end = start
    var continuations = 0
    while end < buffer.count {
      let byte = buffer[end]
      if byte == UInt8(ascii: " ") { break }
      if byte >= 0x80, !MarbleBytes.startsScalar(byte) { continuations += 1 }
      end += 1
    }
    return (end, end - start - continuations)
  }

  /// The closing quote of the quoted token whose opening quote is at `start`, with the number of
  /// scalars between the quotes; nil when the quote is never closed.
  func closingQuote(from start: Int) -> (end: Int, scalars: Int)? {
    var end = start + 1
    var continuations = 0
    while end < buffer.count {
      let byte = buffer[end]
      if byte == UInt8(ascii: "'") { return (end, end - start - 1 - continuations) }
      if byte >= 0x80, !MarbleBytes.startsScalar(byte) { continuations += 1 }
      end += 1
    }
    return nil
  }

  /// Whether `symbol` occurs outside quotes at or after `start`, where no quote is open (every
  /// quote before it was read as part of a quoted token).
  func hasUnquoted(_ symbol: UInt8, from start: Int) -> Bool {
    let rest = UnsafeBufferPointer(rebasing: buffer[start...])
    // Most marbles lack the symbol altogether: only when it is there do the quotes need counting.
    guard rest.contains(symbol) else { return false }
    var inQuote = false
    for byte in rest {
      if byte == UInt8(ascii: "'") {
        inQuote.toggle()
      } else if byte == symbol, !inQuote {
        return true
      }
    }
    return false
  }

  /// The frames of a word that is a plain frame count (`12f`, or `12` when `bareAllowed`),
  /// read without building a `DurationLiteral`; nil for anything else (then the general parser
  /// decides, with its messages).
  func wholeFrames(_ range: Range<Int>, bareAllowed: Bool = true) -> Int? {
    var end = range.upperBound
    if end > range.lowerBound, buffer[end - 1] == UInt8(ascii: "f") {
      end -= 1
    } else if !bareAllowed {
      return nil
    }
    guard end > range.lowerBound, end - range.lowerBound <= 18 else { return nil }
    var value = 0
    for position in range.lowerBound..<end {
      let byte = buffer[position]
      guard MarbleBytes.isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  /// The end of an RxJS duration `[0-9]+(\.[0-9]+)?(ms|s|m)` followed by a space, if one starts here.
  func rxjsDurationEnd(from start: Int) -> Int? {
    var i = start
    while MarbleBytes.isDigit(byte(at: i)) { i += 1 }
    if byte(at: i) == UInt8(ascii: "."), MarbleBytes.isDigit(byte(at: i + 1)) {
      i += 1
      while MarbleBytes.isDigit(byte(at: i)) { i += 1 }
    }
    let space = UInt8(ascii: " ")
    switch (byte(at: i), byte(at: i + 1)) {
    case (UInt8(ascii: "m"), UInt8(ascii: "s")) where byte(at: i + 2) == space: return i + 2
    case (UInt8(ascii: "s"), space), (UInt8(ascii: "m"), space): return i + 1
    default: return nil
    }
  }
}
