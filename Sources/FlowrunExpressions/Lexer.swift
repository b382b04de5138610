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
  case integer(String)
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
    case .integer(let text): "'\(text)'"
    case .decimal(let d): "'\(d)'"
    case .string: "string"
    case .identifier(let name): "'\(name)'"
    case .dollar(let n): "'$\(n)'"
    case .punct(let p): "'\(p.rawValue)'"
    case .end: "end of expression"
    }
  }

  func isPunct(_ p: Punct) -> Bool {
    if case .punct(let q) = kind { return p == q }
    return false
  }
}

/// Splits expression text into tokens; string interpolations are lexed into nested token lists.
struct Lexer {
  let scalars: [Unicode.Scalar]
  var pos = 0
  let maxDepth: Int
  var depth = 0

  init(_ text: String, maxDepth: Int) {
    self.scalars = Array(text.unicodeScalars)
    self.maxDepth = maxDepth
  }

  /// All tokens of the text, ending with `.end`.
  mutating func tokenize() throws(ExpressionError) -> [Token] {
    try lexTokens(insideInterpolation: false)
  }

  private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
    let i = pos + ahead
    return i < scalars.count ? scalars[i] : nil
  }

  /// Lexes until the end of text, or (inside an interpolation) until the `)` that closes it.
  private mutating func lexTokens(insideInterpolation: Bool) throws(ExpressionError) -> [Token] {
    var tokens: [Token] = []
    var parens = 0
    while true {
      while let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" { pos += 1 }
      guard let c = peek() else {
        tokens.append(Token(kind: .end, offset: pos))
        return tokens
      }
      let start = pos
      if insideInterpolation, c == ")", parens == 0 {
        tokens.append(Token(kind: .end, offset: pos))
        pos += 1
        return tokens
      }
      if c == "(" { parens += 1 } else if c == ")" { parens -= 1 }
      if isDigit(c) {
        tokens.append(try lexNumber())
      } else if isIdentifierStart(c) {
        while let d = peek(), isIdentifierStart(d) || isDigit(d) { pos += 1 }
        tokens.append(Token(kind: .identifier(text(start, pos)), offset: start))
      } else if c == "$" {
        pos += 1
        while let d = peek(), isDigit(d) { pos += 1 }
        guard pos > start + 1 else { throw ExpressionError(message: "expected a digit after '$'", offset: start) }
        guard let n = Int(text(start + 1, pos)) else {
          throw ExpressionError(message: "'\(text(start, pos))' is out of range", offset: start)
        }
        tokens.append(Token(kind: .dollar(n), offset: start))
      } else if c == "\"" {
        tokens.append(try lexString())
      } else {
        tokens.append(Token(kind: .punct(try lexPunct()), offset: start))
      }
    }
  }

  private mutating func lexPunct() throws(ExpressionError) -> Punct {
    let start = pos
    if let c = peek(), let n = peek(1), let p = Self.twoCharacterPunct(c, n) {
      pos += 2
      return p
    }
    if let c = peek(), let p = Self.oneCharacterPunct(c) {
      pos += 1
      return p
    }
    let c = peek().map { String($0) } ?? ""
    throw ExpressionError(message: "unexpected character '\(c)'", offset: start)
  }

  /// `==`, `!=`, `<=`, `>=`, `&&`, `||`, `??` (a switch, not a string look-up per token).
  private static func twoCharacterPunct(_ c: Unicode.Scalar, _ n: Unicode.Scalar) -> Punct? {
    switch (c, n) {
    case ("=", "="): .equal
    case ("!", "="): .notEqual
    case ("<", "="): .lessEqual
    case (">", "="): .greaterEqual
    case ("&", "&"): .and
    case ("|", "|"): .or
    case ("?", "?"): .coalesce
    default: nil
    }
  }

  private static func oneCharacterPunct(_ c: Unicode.Scalar) -> Punct? {
    switch c {
    case "(": .lparen
    case ")": .rparen
    case "[": .lbracket
    case "]": .rbracket
    case ",": .comma
    case ":": .colon
    case ".": .dot
    case "?": .question
    case "+": .plus
    case "-": .minus
    case "*": .star
    case "/": .slash
    case "%": .percent
    case "!": .bang
    case "<": .less
    case ">": .greater
    default: nil
    }
  }

  private mutating func lexNumber() throws(ExpressionError) -> Token {
    let start = pos
    var digits = ""
    func eatDigits(_ lexer: inout Lexer, into out: inout String) {
      while let d = lexer.peek(), isDigit(d) || d == "_" {
        if d != "_" { out.unicodeScalars.append(d) }
        lexer.pos += 1
      }
    }
    eatDigits(&self, into: &digits)
    var isDecimal = false
    if peek() == ".", let d = peek(1), isDigit(d) {
      isDecimal = true
      digits += "."
      pos += 1
      eatDigits(&self, into: &digits)
    }
    if let e = peek(), e == "e" || e == "E" {
      var ahead = 1
      if let s = peek(1), s == "+" || s == "-" { ahead = 2 }
      if let d = peek(ahead), isDigit(d) {
        isDecimal = true
        digits += "e"
        if ahead == 2, let s = peek(1) { digits.unicodeScalars.append(s) }
        pos += ahead
        eatDigits(&self, into: &digits)
      }
    }
    if let c = peek(), isIdentifierStart(c) {
      throw ExpressionError(message: "invalid number '\(text(start, pos + 1))'", offset: start)
    }
    if isDecimal {
      guard let d = Double(digits) else {
        throw ExpressionError(message: "invalid number '\(text(start, pos))'", offset: start)
      }
      return Token(kind: .decimal(d), offset: start)
    }
    return Token(kind: .integer(digits), offset: start)
  }

  private mutating func lexString() throws(ExpressionError) -> Token {
    let start = pos
    pos += 1
    var parts: [StringPart] = []
    var current = ""
    while true {
      guard let c = peek() else {
        throw ExpressionError(message: "unterminated string", offset: start)
      }
      if c == "\"" {
        pos += 1
        break
      }
      guard c == "\\" else {
        current.unicodeScalars.append(c)
        pos += 1
        continue
      }
      let escape = pos
      guard let e = peek(1) else { throw ExpressionError(message: "unterminated string", offset: start) }
      pos += 2
      switch e {
      case "n": current += "\n"
      case "t": current += "\t"
      case "r": current += "\r"
      case "0": current += "\0"
      case "\"": current += "\""
      case "'": current += "'"
      case "\\": current += "\\"
      case "u": current.unicodeScalars.append(try lexUnicodeEscape(escape))
      case "(":
        if !current.isEmpty { parts.append(.text(current)) }
        current = ""
        depth += 1
        defer { depth -= 1 }
        if depth > maxDepth {
          throw ExpressionError(message: "expression nested deeper than \(maxDepth) levels", offset: escape)
        }
        let inner = try lexTokens(insideInterpolation: true)
        if inner.last.map({ $0.offset >= scalars.count }) ?? true {
          throw ExpressionError(message: "unterminated string", offset: start)
        }
        parts.append(.interpolation(inner))
      default:
        throw ExpressionError(message: "invalid escape sequence '\\\(e)'", offset: escape)
      }
    }
    if !current.isEmpty || parts.isEmpty { parts.append(.text(current)) }
    return Token(kind: .string(parts), offset: start)
  }

  private mutating func lexUnicodeEscape(_ escape: Int) throws(ExpressionError) -> Unicode.Scalar {
    let invalid = ExpressionError(message: "invalid unicode escape", offset: escape)
    guard peek() == "{" else { throw invalid }
    pos += 1
    let digitsStart = pos
    while let d = peek(), d.properties.isASCIIHexDigit { pos += 1 }
    let hex = text(digitsStart, pos)
    guard peek() == "}", (1...8).contains(hex.count), let code = UInt32(hex, radix: 16),
      let scalar = Unicode.Scalar(code)
    else { throw invalid }
    pos += 1
    return scalar
  }

  private func text(_ from: Int, _ to: Int) -> String {
    let range = from..<max(from, min(to, scalars.count))
    // UTF-8 written straight into the string's storage (a short name needs no allocation).
    return String(unsafeUninitializedCapacity: range.count * 4) { buffer in
      var count = 0
      for scalar in scalars[range] {
        for byte in scalar.utf8 {
          buffer[count] = byte
          count += 1
        }
      }
      return count
    }
  }
}

@inline(__always)
func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }

func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
  c == "_" || (c.value < 128 ? ((c.value | 0x20) >= 97 && (c.value | 0x20) <= 122) : c.properties.isAlphabetic)
}
