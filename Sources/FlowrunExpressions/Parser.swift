import FlowrunCore
import FlowrunDiagnostics

/// A recursive-descent parser over tokens, with precedence climbing for binary operators and a
/// nesting-depth limit so that no input can overflow the stack.
struct Parser {
  /// The tokens being parsed: the expression's, or those of an interpolation inside it.
  private var tokens: [Token]
  private var pos = 0
  private let maxDepth: Int
  private var depth: Int
  /// The nodes parsed so far.
  private(set) var tree: SyntaxTree

  /// The top level itself is not a nesting, so the parser starts one below it.
  init(tokens: [Token], maxDepth: Int) {
    self.tokens = tokens
    self.maxDepth = maxDepth
    self.depth = -1
    self.tree = SyntaxTree(capacity: tokens.count)
  }

  /// Parses the whole token list as one expression.
  mutating func parseAll() throws(ExpressionError) -> ExprID {
    let expr = try parseExpression()
    let token = current
    if case .end = token.kind { return expr }
    throw ExpressionError(message: .unexpected(token), offset: token.offset)
  }

  private mutating func node(_ kind: Expr.Kind, at offset: Int) -> ExprID {
    tree.add(kind, at: offset)
  }

  /// The current token. The position never passes the last token, `.end`: only tokens before it
  /// are consumed.
  private var current: Token { tokens[pos] }

  /// The punctuation of the current token, if it is one (read in place, without copying the
  /// token).
  private var currentPunct: Punct? {
    if case .punct(let p) = tokens[pos].kind { p } else { nil }
  }

  private var atEnd: Bool {
    if case .end = tokens[pos].kind { true } else { false }
  }

  /// Where the current token starts.
  private var offset: Int { tokens[pos].offset }

  private mutating func advance() -> Token {
    let token = current
    if pos < tokens.count - 1 { pos += 1 }
    return token
  }

  private mutating func accept(_ p: Punct) -> Bool {
    guard currentPunct == p else { return false }
    pos += 1
    return true
  }

  private mutating func expect(_ p: Punct) throws(ExpressionError) {
    guard accept(p) else {
      if atEnd, p != .rparen, p != .rbracket {
        throw ExpressionError(message: .unexpectedEnd, offset: offset)
      }
      throw ExpressionError(message: .expected(p), offset: offset)
    }
  }

  /// Counts one more level of nesting at `offset`, failing past the limit.
  private mutating func enter(_ offset: Int) throws(ExpressionError) {
    depth += 1
    if depth > maxDepth {
      throw ExpressionError(message: .nestedTooDeep(limit: maxDepth), offset: offset)
    }
  }

  /// expression := or ('?' expression ':' expression)?; `opener` is the bracket that opened
  /// this level, where a too-deep nesting is reported.
  private mutating func parseExpression(opener: Int? = nil) throws(ExpressionError) -> ExprID {
    try enter(opener ?? offset)
    defer { depth -= 1 }
    let condition = try parseBinary(minLevel: 1)
    guard accept(.question) else { return condition }
    let then = try parseExpression()
    try expect(.colon)
    let otherwise = try parseExpression()
    return node(.conditional(condition, then, otherwise), at: tree.offset(condition))
  }

  private func binaryOp(_ punct: Punct?) -> BinaryOp? {
    guard let p = punct else { return nil }
    switch p {
    case .or: return .or
    case .and: return .and
    case .equal: return .equal
    case .notEqual: return .notEqual
    case .less: return .less
    case .lessEqual: return .lessEqual
    case .greater: return .greater
    case .greaterEqual: return .greaterEqual
    case .coalesce: return .coalesce
    case .plus: return .add
    case .minus: return .subtract
    case .star: return .multiply
    case .slash: return .divide
    case .percent: return .remainder
    default: return nil
    }
  }

  /// Binary operators of level `minLevel` and tighter; `??` is right-associative and comparisons
  /// do not chain.
  private mutating func parseBinary(minLevel: Int) throws(ExpressionError) -> ExprID {
    var lhs = try parseUnary()
    let savedDepth = depth
    defer { depth = savedDepth }
    var lastWasComparison = false
    while let op = binaryOp(currentPunct), op.level >= minLevel {
      let opOffset = offset
      pos += 1
      if op.isComparison, lastWasComparison {
        throw ExpressionError(message: .chainedComparison, offset: opOffset)
      }
      try enter(opOffset)
      let rhs = try parseBinary(minLevel: op == .coalesce ? op.level : op.level + 1)
      lhs = node(.binary(op, lhs, rhs, operatorOffset: opOffset), at: tree.offset(lhs))
      lastWasComparison = op.isComparison
    }
    return lhs
  }

  /// Whether the token after the current one starts a postfix form.
  private var followedByPostfix: Bool {
    guard pos + 1 < tokens.count, case .punct(let next) = tokens[pos + 1].kind else { return false }
    return next == .dot || next == .lbracket || next == .lparen
  }

  /// prefix := ('!' | '-') prefix | postfix
  private mutating func parseUnary() throws(ExpressionError) -> ExprID {
    let op: UnaryOp
    switch currentPunct {
    case .bang: op = .not
    case .minus: op = .negate
    default: return try parsePostfix()
    }
    let start = offset
    pos += 1
    try enter(start)
    defer { depth -= 1 }
    if op == .negate, !followedByPostfix {
      switch current.kind {
      case .integer(let n, _):
        pos += 1
        return node(.literal(.int(-n)), at: start)
      case .largeInteger(let digits):
        pos += 1
        guard let n = Int("-" + digits) else {
          throw ExpressionError(message: .integerLiteralOverflows("-" + digits), offset: start)
        }
        return node(.literal(.int(n)), at: start)
      default:
        break
      }
    }
    let operand = try parseUnary()
    return node(.unary(op, operand), at: start)
  }

  /// postfix := primary ('.' name | '.' name '(' args ')' | '[' expression ']' | '(' args ')')*
  private mutating func parsePostfix() throws(ExpressionError) -> ExprID {
    var base = try parsePrimary()
    let savedDepth = depth
    defer { depth = savedDepth }
    while true {
      let start = offset
      switch currentPunct {
      case .dot:
        pos += 1
        let nameOffset = offset
        guard case .identifier(let name) = current.kind else {
          throw ExpressionError(message: .memberNameAfterDot, offset: nameOffset)
        }
        pos += 1
        try enter(start)
        if accept(.lparen) {
          let arguments = try parseArguments()
          base = node(.method(base, name: name, nameOffset: nameOffset, arguments: arguments), at: tree.offset(base))
        } else {
          base = node(.member(base, name: name, nameOffset: nameOffset), at: tree.offset(base))
        }
      case .lbracket:
        pos += 1
        try enter(start)
        let index = try parseExpression()
        try expect(.rbracket)
        base = node(.subscripted(base, index, bracketOffset: start), at: tree.offset(base))
      case .lparen:
        guard case .name(let name) = tree[base].kind else { return base }
        pos += 1
        try enter(start)
        let arguments = try parseArguments()
        base = node(.call(name: name, arguments: arguments), at: tree.offset(base))
      default:
        return base
      }
    }
  }

  /// Arguments after `(`, through the closing `)`.
  private mutating func parseArguments() throws(ExpressionError) -> [ExprID] {
    var arguments: [ExprID] = []
    if accept(.rparen) { return arguments }
    while true {
      arguments.append(try parseExpression())
      if accept(.rparen) { return arguments }
      guard accept(.comma) else {
        throw ExpressionError(message: .expected(.rparen), offset: offset)
      }
    }
  }

  private mutating func parsePrimary() throws(ExpressionError) -> ExprID {
    let token = advance()
    switch token.kind {
    case .integer(let n, _):
      return node(.literal(.int(n)), at: token.offset)
    case .largeInteger(let digits):
      throw ExpressionError(message: .integerLiteralOverflows(digits), offset: token.offset)
    case .decimal(let d):
      return node(.literal(.double(d)), at: token.offset)
    case .string(let parts):
      return try parseString(parts, at: token.offset)
    case .dollar(let n):
      return node(.dollar(n), at: token.offset)
    case .identifier(let name):
      switch name {
      case "nil", "null": return node(.literal(.null), at: token.offset)
      case "true": return node(.literal(.bool(true)), at: token.offset)
      case "false": return node(.literal(.bool(false)), at: token.offset)
      default: return node(.name(name), at: token.offset)
      }
    case .punct(.lparen):
      let inner = try parseExpression(opener: token.offset)
      try expect(.rparen)
      return inner
    case .punct(.lbracket):
      return try parseCollection(at: token.offset)
    case .end:
      throw ExpressionError(message: .unexpectedEnd, offset: token.offset)
    case .punct:
      throw ExpressionError(message: .unexpected(token), offset: token.offset)
    }
  }

  private mutating func parseString(_ parts: [StringPart], at start: Int) throws(ExpressionError) -> ExprID {
    if parts.count == 1, case .text(let text) = parts[0] {
      return node(.literal(.string(text)), at: start)
    }
    var segments: [StringSegment] = []
    for part in parts {
      switch part {
      case .text(let text):
        segments.append(.text(text))
      case .interpolation(let inner):
        // The interpolation is parsed on its own tokens, one level inside the string.
        try enter(start)
        depth -= 1
        let outer = (tokens, pos)
        (tokens, pos) = (inner, 0)
        let expr = try parseAll()
        (tokens, pos) = outer
        segments.append(.expression(expr))
      }
    }
    return node(.string(segments), at: start)
  }

  /// A list `[a, b]`, a map `["k": v]` or the empty map `[:]`, after the `[`.
  private mutating func parseCollection(at start: Int) throws(ExpressionError) -> ExprID {
    if accept(.rbracket) { return node(.list([]), at: start) }
    if accept(.colon) {
      try expect(.rbracket)
      return node(.map([]), at: start)
    }
    let first = try parseExpression()
    if accept(.colon) {
      var entries = [(key: first, value: try parseExpression())]
      while accept(.comma) {
        if currentPunct == .rbracket { break }
        let key = try parseExpression()
        try expect(.colon)
        entries.append((key: key, value: try parseExpression()))
      }
      try expectClosingBracket()
      return node(.map(entries), at: start)
    }
    var items = [first]
    while accept(.comma) {
      if currentPunct == .rbracket { break }
      items.append(try parseExpression())
    }
    try expectClosingBracket()
    return node(.list(items), at: start)
  }

  private mutating func expectClosingBracket() throws(ExpressionError) {
    guard accept(.rbracket) else {
      throw ExpressionError(message: .expected(.rbracket), offset: offset)
    }
  }
}

extension Diagnostic.Message {
  fileprivate static let unexpectedEnd: Self = "unexpected end of expression"
  fileprivate static let chainedComparison: Self = "comparison operators cannot be chained"
  fileprivate static let memberNameAfterDot: Self = "expected a member name after '.'"

  fileprivate static func unexpected(_ token: Token) -> Self { "unexpected \(token.display)" }
  fileprivate static func expected(_ punct: Punct) -> Self { "expected '\(punct.rawValue)'" }
  fileprivate static func integerLiteralOverflows(_ digits: String) -> Self { "integer literal '\(digits)' overflows" }
}
