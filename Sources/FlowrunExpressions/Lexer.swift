import FlowrunDiagnostics

/// A punctuation or operator token.
enum Punct: String, Sendable {
  case lparen = "(", rparen = ")", lbracket = "[", rbracket = "]"
  case comma = ",", colon = ":", dot = ".", question = "?"
  case plus = "+", minus = "-", star = "*", slash = "/", percent = "%", bang = "!"
  case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
  case and = "&&", or = "||", coalesce = "??"
}

/// One piece of a string literal: text, or the tokens of an interpolated expression.
enum StringPart: Sendable {
  case text(String)
  case interpolation([Token])
}

/// The kind of a token, with its payload.
enum TokenKind: Sendable {
  /// An integer literal up to `Int.max`, and how many digits it was written with (`007`: 3).
  case integer(Int, digits: Int)
  /// The digits of an integer literal past `Int.max` (only `-9223372036854775808` is valid).
  case largeInteger(String)
  case decimal(Double)
  case string([StringPart])
  case identifier(String)
  case dollar(Int)
  case punct(Punct)
  case end
}

/// A token and the Unicode-scalar offset where it starts.
struct Token: Sendable {
  var kind: TokenKind
  var offset: Int

  /// How a diagnostic names the token: `')'`, `'foo'`, `end of expression`.
  var display: String {
    switch kind {
    case .integer(let n, let digits): "'\(Token.digits(of: n, width: digits))'"
    case .largeInteger(let digits): "'\(digits)'"
    case .decimal(let d): "'\(d)'"
    case .string: "string"
    case .identifier(let name): "'\(name)'"
    case .dollar(let n): "'$\(n)'"
    case .punct(let p): "'\(p.rawValue)'"
    case .end: "end of expression"
    }
  }

  /// The digits of an integer literal as written (without `_`): `n` padded with leading zeros.
  static func digits(of n: Int, width: Int) -> String {
    let text = String(n)
    return String(repeating: "0", count: max(0, width - text.utf8.count)) + text
  }
}

/// Splits expression text into tokens; string interpolations are lexed into nested token lists.
///
/// The lexer reads the text's UTF-8 bytes in place (no copy, no `Character` work); offsets in
/// tokens and diagnostics count Unicode scalars, found as the byte position less the UTF-8
/// continuation bytes passed so far.
struct Lexer {
  private let bytes: UnsafeBufferPointer<UInt8>
  /// The byte position.
  private var pos = 0
  /// The UTF-8 continuation bytes before `pos`.
  private var continuationBytes = 0
  private let maxDepth: Int
  private var depth = 0

  private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  /// All tokens of `text`, ending with `.end`.
  static func tokenize(_ text: String, maxDepth: Int) throws(ExpressionError) -> [Token] {
    var text = text
    let result = text.withUTF8 { bytes in
      var lexer = Lexer(bytes: bytes, maxDepth: maxDepth)
      return Result { () throws(ExpressionError) in try lexer.lexTokens(insideInterpolation: false).tokens }
    }
    return try result.get()
  }

  /// The Unicode-scalar offset of the current position.
  private var offset: Int { pos - continuationBytes }

  private func peek(_ ahead: Int = 0) -> UInt8? {
    let i = pos + ahead
    return i < bytes.count ? bytes[i] : nil
  }

  /// The scalar starting at byte `i` (the text is valid UTF-8), and its length in bytes.
  private func scalar(at i: Int) -> (scalar: Unicode.Scalar, length: Int) {
    let lead = bytes[i]
    if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    var value = UInt32(lead & (0x7F >> length))
    for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
  }

  /// Moves past one scalar of `length` bytes.
  private mutating func skip(_ length: Int) {
    pos += length
    continuationBytes += length - 1
  }

  /// The text of the bytes `from..<to`.
  private func text(_ from: Int, _ to: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
  }

  /// Whether a name starts at byte `i`: `_`, an ASCII letter, or an alphabetic scalar.
  private func startsName(at i: Int) -> Bool {
    let b = bytes[i]
    if b < 0x80 { return b == UInt8(ascii: "_") || isASCIILetter(b) }
    return scalar(at: i).scalar.properties.isAlphabetic
  }

  /// Lexes until the end of text, or (inside an interpolation) until the `)` that closes it;
  /// `closed` tells which.
  private mutating func lexTokens(
    insideInterpolation: Bool
  ) throws(ExpressionError) -> (tokens: [Token], closed: Bool) {
    var tokens: [Token] = []
    // About one token per two bytes; a long text grows the array as it goes.
    tokens.reserveCapacity(min(bytes.count - pos, 64) / 2 + 1)
    var parens = 0
    while true {
      while let c = peek(), isSpace(c) { pos += 1 }
      let start = offset
      guard let c = peek() else {
        tokens.append(Token(kind: .end, offset: start))
        return (tokens, false)
      }
      if insideInterpolation, c == UInt8(ascii: ")"), parens == 0 {
        tokens.append(Token(kind: .end, offset: start))
        pos += 1
        return (tokens, true)
      }
      if c == UInt8(ascii: "(") { parens += 1 } else if c == UInt8(ascii: ")") { parens -= 1 }
      if isDigit(c) {
        tokens.append(try lexNumber())
      } else if startsName(at: pos) {
        let from = pos
        while pos < bytes.count {
          let d = bytes[pos]
          if d < 0x80 {
            guard isASCIILetter(d) || isDigit(d) || d == UInt8(ascii: "_") else { break }
            pos += 1
          } else {
            let (s, length) = scalar(at: pos)
            guard s.properties.isAlphabetic else { break }
            skip(length)
          }
        }
        tokens.append(Token(kind: .identifier(text(from, pos)), offset: start))
      } else if c == UInt8(ascii: "$") {
        tokens.append(try lexDollar())
      } else if c == UInt8(ascii: "\"") {
        tokens.append(try lexString())
      } else {
        tokens.append(Token(kind: .punct(try lexPunct()), offset: start))
      }
    }
  }

  /// `$` and its digits.
  private mutating func lexDollar() throws(ExpressionError) -> Token {
    let start = offset
    let from = pos
    pos += 1
    var n = 0
    var overflow = false
    while let d = peek(), isDigit(d) {
      let (times10, o1) = n.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(Int(d &- 48))
      overflow = overflow || o1 || o2
      n = sum
      pos += 1
    }
    guard pos > from + 1 else { throw ExpressionError(message: .digitAfterDollar, offset: start) }
    guard !overflow else {
      throw ExpressionError(message: .outOfRange(text(from, pos)), offset: start)
    }
    return Token(kind: .dollar(n), offset: start)
  }

  private mutating func lexPunct() throws(ExpressionError) -> Punct {
    if let (p, length) = Self.punct(bytes[pos], next: peek(1)) {
      pos += length
      return p
    }
    let c = String(scalar(at: pos).scalar)
    throw ExpressionError(
      message: "\(Diagnostic.Message.unexpectedCharacter(c))\(Self.habit(bytes[pos], next: peek(1)))", offset: offset)
  }

  /// A hint where another language's operator misleads: `=>` and `=<` for `>=` and `<=`, a
  /// single `=` for `==`.
  private static func habit(_ c: UInt8, next: UInt8?) -> String {
    guard c == UInt8(ascii: "=") else { return "" }
    switch next {
    case UInt8(ascii: ">"): return " in '=>'; did you mean '>='?"
    case UInt8(ascii: "<"): return " in '=<'; did you mean '<='?"
    default: return "; did you mean '=='?"
    }
  }

  /// The punctuation or operator that starts with `c`, followed by `next`, and its length.
  private static func punct(_ c: UInt8, next: UInt8?) -> (Punct, Int)? {
    let equalNext = next == UInt8(ascii: "=")
    switch c {
    case UInt8(ascii: "("): return (.lparen, 1)
    case UInt8(ascii: ")"): return (.rparen, 1)
    case UInt8(ascii: "["): return (.lbracket, 1)
    case UInt8(ascii: "]"): return (.rbracket, 1)
    case UInt8(ascii: ","): return (.comma, 1)
    case UInt8(ascii: ":"): return (.colon, 1)
    case UInt8(ascii: "."): return (.dot, 1)
    case UInt8(ascii: "+"): return (.plus, 1)
    case UInt8(ascii: "-"): return (.minus, 1)
    case UInt8(ascii: "*"): return (.star, 1)
    case UInt8(ascii: "/"): return (.slash, 1)
    case UInt8(ascii: "%"): return (.percent, 1)
    case UInt8(ascii: "?"): return next == UInt8(ascii: "?") ? (.coalesce, 2) : (.question, 1)
    case UInt8(ascii: "!"): return equalNext ? (.notEqual, 2) : (.bang, 1)
    case UInt8(ascii: "<"): return equalNext ? (.lessEqual, 2) : (.less, 1)
    case UInt8(ascii: ">"): return equalNext ? (.greaterEqual, 2) : (.greater, 1)
    case UInt8(ascii: "="): return equalNext ? (.equal, 2) : nil
    case UInt8(ascii: "&"): return next == UInt8(ascii: "&") ? (.and, 2) : nil
    case UInt8(ascii: "|"): return next == UInt8(ascii: "|") ? (.or, 2) : nil
    default: return nil
    }
  }

  /// An integer (`1_000`) or a decimal (`1.5`, `2e-3`); `_` separates digits.
  private mutating func lexNumber() throws(ExpressionError) -> Token {
    let start = offset
    let from = pos
    var value = 0
    var digitCount = 0
    var overflow = false
    while let d = peek(), isDigit(d) || d == UInt8(ascii: "_") {
      if d != UInt8(ascii: "_") {
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(Int(d &- 48))
        overflow = overflow || o1 || o2
        value = sum
        digitCount += 1
      }
      pos += 1
    }
    let integerEnd = pos
    var isDecimal = false
    if peek() == UInt8(ascii: "."), let d = peek(1), isDigit(d) {
      isDecimal = true
      pos += 1
      skipDigits()
    }
    if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      var ahead = 1
      if let s = peek(1), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { ahead = 2 }
      if let d = peek(ahead), isDigit(d) {
        isDecimal = true
        pos += ahead
        skipDigits()
      }
    }
    if pos < bytes.count, startsName(at: pos) {
      let end = pos + scalar(at: pos).length
      throw ExpressionError(message: .invalidNumber(text(from, end)), offset: start)
    }
    if isDecimal {
      guard let d = Double(numberText(from, pos)) else {
        throw ExpressionError(message: .invalidNumber(text(from, pos)), offset: start)
      }
      return Token(kind: .decimal(d), offset: start)
    }
    if overflow { return Token(kind: .largeInteger(numberText(from, integerEnd)), offset: start) }
    return Token(kind: .integer(value, digits: digitCount), offset: start)
  }

  private mutating func skipDigits() {
    while let d = peek(), isDigit(d) || d == UInt8(ascii: "_") { pos += 1 }
  }

  /// The number written at bytes `from..<to` without its `_` separators, with `e` for `E`.
  private func numberText(_ from: Int, _ to: Int) -> String {
    var out = ""
    for b in bytes[from..<to] where b != UInt8(ascii: "_") {
      out.unicodeScalars.append(Unicode.Scalar(b == UInt8(ascii: "E") ? UInt8(ascii: "e") : b))
    }
    return out
  }

  private mutating func lexString() throws(ExpressionError) -> Token {
    let start = offset
    pos += 1
    var parts: [StringPart] = []
    var current = ""
    // The bytes since `runStart` are plain text, copied in one piece.
    var runStart = pos
    while true {
      guard let c = peek() else {
        throw ExpressionError(message: .unterminatedString, offset: start)
      }
      if c == UInt8(ascii: "\"") {
        appendRun(from: runStart, to: &current)
        pos += 1
        break
      }
      guard c == UInt8(ascii: "\\") else {
        if c & 0xC0 == 0x80 { continuationBytes += 1 }
        pos += 1
        continue
      }
      appendRun(from: runStart, to: &current)
      let escape = offset
      guard let e = peek(1) else { throw ExpressionError(message: .unterminatedString, offset: start) }
      pos += 2
      switch e {
      case UInt8(ascii: "n"): current += "\n"
      case UInt8(ascii: "t"): current += "\t"
      case UInt8(ascii: "r"): current += "\r"
      case UInt8(ascii: "0"): current += "\0"
      case UInt8(ascii: "\""): current += "\""
      case UInt8(ascii: "'"): current += "'"
      case UInt8(ascii: "\\"): current += "\\"
      case UInt8(ascii: "u"): current.unicodeScalars.append(try lexUnicodeEscape(escape))
      case UInt8(ascii: "("):
        if !current.isEmpty { parts.append(.text(current)) }
        current = ""
        depth += 1
        defer { depth -= 1 }
        if depth > maxDepth {
          throw ExpressionError(message: .nestedTooDeep(limit: maxDepth), offset: escape)
        }
        let inner = try lexTokens(insideInterpolation: true)
        guard inner.closed else { throw ExpressionError(message: .unterminatedString, offset: start) }
        parts.append(.interpolation(inner.tokens))
      default:
        let shown = String(scalar(at: pos - 1).scalar)
        throw ExpressionError(message: .invalidEscape(shown), offset: escape)
      }
      runStart = pos
    }
    if !current.isEmpty || parts.isEmpty { parts.append(.text(current)) }
    return Token(kind: .string(parts), offset: start)
  }

  /// Appends the plain text from byte `from` to the current position.
  private func appendRun(from: Int, to current: inout String) {
    guard from < pos else { return }
    if current.isEmpty {
      current = text(from, pos)
    } else {
      current += text(from, pos)
    }
  }

  private mutating func lexUnicodeEscape(_ escape: Int) throws(ExpressionError) -> Unicode.Scalar {
    let invalid = ExpressionError(message: .invalidUnicodeEscape, offset: escape)
    guard peek() == UInt8(ascii: "{") else { throw invalid }
    pos += 1
    let digitsStart = pos
    var code: UInt32 = 0
    while let d = peek(), let digit = hexValue(d) {
      code = code &<< 4 | digit
      pos += 1
    }
    guard peek() == UInt8(ascii: "}"), (1...8).contains(pos - digitsStart), let scalar = Unicode.Scalar(code) else {
      throw invalid
    }
    pos += 1
    return scalar
  }
}

/// Space, tab, line feed or carriage return: what separates tokens.
@inline(__always)
func isSpace(_ c: UInt8) -> Bool {
  c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r")
}

@inline(__always)
func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

@inline(__always)
func isASCIILetter(_ c: UInt8) -> Bool { (c | 0x20) >= 97 && (c | 0x20) <= 122 }

/// The value of an ASCII hex digit.
@inline(__always)
func hexValue(_ c: UInt8) -> UInt32? {
  switch c {
  case 48...57: UInt32(c - 48)
  case 65...70: UInt32(c - 55)
  case 97...102: UInt32(c - 87)
  default: nil
  }
}

extension Diagnostic.Message {
  fileprivate static let digitAfterDollar: Self = "expected a digit after '$'"
  fileprivate static let unterminatedString: Self = "unterminated string"
  fileprivate static let invalidUnicodeEscape: Self = "invalid unicode escape"

  fileprivate static func outOfRange(_ text: String) -> Self { "'\(text)' is out of range" }
  fileprivate static func unexpectedCharacter(_ character: String) -> Self { "unexpected character '\(character)'" }
  fileprivate static func invalidNumber(_ text: String) -> Self { "invalid number '\(text)'" }
  fileprivate static func invalidEscape(_ character: String) -> Self { "invalid escape sequence '\\\(character)'" }
}
