import FlowrunCore

/// A recursive-descent parser over tokens, with precedence climbing for binary operators and a
/// nesting-depth limit so that no input can overflow the stack.
struct Parser {
  private let tokens: [Token]
  private var pos = 0
  private let maxDepth: Int
  private var depth: Int

  /// `depth` is the nesting around the tokens; the top level itself is not a nesting, so the
  /// parser starts one below it.
  init(tokens: [Token], maxDepth: Int, depth: Int = 0) {
    self.tokens = tokens
    self.maxDepth = maxDepth
    self.depth = depth - 1
  }

  /// Parses the whole token list as one expression.
  mutating func parseAll() throws(ExpressionError) -> Expr {
    let expr = try parseExpression()
    let token = current
    if case .end = token.kind { return expr }
    throw ExpressionError(message: "unexpected \(token.display)", offset: token.offset)
  }

  private var current: Token { tokens[min(pos, tokens.count - 1)] }

  private mutating func advance() -> Token {
    let token = current
    if pos < tokens.count - 1 { pos += 1 }
    return token
  }

  private mutating func accept(_ p: Punct) -> Bool {
    guard current.isPunct(p) else { return false }
    pos += 1
    return true
  }

  private mutating func expect(_ p: Punct) throws(ExpressionError) {
    guard accept(p) else {
      if case .end = current.kind, p != .rparen, p != .rbracket {
        throw ExpressionError(message: "unexpected end of expression", offset: current.offset)
      }
      throw ExpressionError(message: "expected '\(p.rawValue)'", offset: current.offset)
    }
  }

  /// Counts one more level of nesting at `offset`, failing past the limit.
  private mutating func enter(_ offset: Int) throws(ExpressionError) {
    depth += 1
    if depth > maxDepth {
      throw ExpressionError(message: "expression nested deeper than \(maxDepth) levels", offset: offset)
    }
  }

  /// expression := or ('?' expression ':' expression)?; `opener` is the bracket that opened
  /// this level, where a too-deep nesting is reported.
  private mutating func parseExpression(opener: Int? = nil) throws(ExpressionError) -> Expr {
    try enter(opener ?? current.offset)
    defer { depth -= 1 }
    let condition = try parseBinary(minLevel: 1)
    guard accept(.question) else { return condition }
    let then = try parseExpression()
    try expect(.colon)
    let otherwise = try parseExpression()
    return Expr(.conditional(condition, then, otherwise), at: condition.offset)
  }

  private func binaryOp(_ token: Token) -> BinaryOp? {
    guard case .punct(let p) = token.kind else { return nil }
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
  private mutating func parseBinary(minLevel: Int) throws(ExpressionError) -> Expr {
    var lhs = try parseUnary()
    let savedDepth = depth
    defer { depth = savedDepth }
    var lastWasComparison = false
    while let op = binaryOp(current), op.level >= minLevel {
      let opToken = advance()
      if op.isComparison, lastWasComparison {
        throw ExpressionError(message: "comparison operators cannot be chained", offset: opToken.offset)
      }
      try enter(opToken.offset)
      let rhs = try parseBinary(minLevel: op == .coalesce ? op.level : op.level + 1)
      lhs = Expr(.binary(op, lhs, rhs, operatorOffset: opToken.offset), at: lhs.offset)
      lastWasComparison = op.isComparison
    }
    return lhs
  }

  /// Whether the token after the current one starts a postfix form.
  private var followedByPostfix: Bool {
    guard pos + 1 < tokens.count else { return false }
    let next = tokens[pos + 1]
    return next.isPunct(.dot) || next.isPunct(.lbracket) || next.isPunct(.lparen)
  }

  /// prefix := ('!' | '-') prefix | postfix
  private mutating func parseUnary() throws(ExpressionError) -> Expr {
    let token = current
    let op: UnaryOp
    if token.isPunct(.bang) {
      op = .not
    } else if token.isPunct(.minus) {
      op = .negate
    } else {
      return try parsePostfix()
    }
    pos += 1
    try enter(token.offset)
    defer { depth -= 1 }
    if op == .negate, case .integer(let digits) = current.kind, !followedByPostfix {
      pos += 1
      guard let n = Int("-" + digits) else {
        throw ExpressionError(message: "integer literal '-\(digits)' overflows", offset: token.offset)
      }
      return Expr(.literal(.int(n)), at: token.offset)
    }
    let operand = try parseUnary()
    return Expr(.unary(op, operand), at: token.offset)
  }

  /// postfix := primary ('.' name | '.' name '(' args ')' | '[' expression ']' | '(' args ')')*
  private mutating func parsePostfix() throws(ExpressionError) -> Expr {
    var base = try parsePrimary()
    let savedDepth = depth
    defer { depth = savedDepth }
    while true {
      let token = current
      if accept(.dot) {
        let nameToken = advance()
        guard case .identifier(let name) = nameToken.kind else {
          throw ExpressionError(message: "expected a member name after '.'", offset: nameToken.offset)
        }
        try enter(token.offset)
        if current.isPunct(.lparen) {
          pos += 1
          let arguments = try parseArguments()
          base = Expr(.method(base, name: name, nameOffset: nameToken.offset, arguments: arguments), at: base.offset)
        } else {
          base = Expr(.member(base, name: name, nameOffset: nameToken.offset), at: base.offset)
        }
      } else if accept(.lbracket) {
        try enter(token.offset)
        let index = try parseExpression()
        try expect(.rbracket)
        base = Expr(.subscripted(base, index, bracketOffset: token.offset), at: base.offset)
      } else if token.isPunct(.lparen), case .name(let name) = base.kind {
        pos += 1
        try enter(token.offset)
        let arguments = try parseArguments()
        base = Expr(.call(name: name, arguments: arguments), at: base.offset)
      } else {
        return base
      }
    }
  }

  /// Arguments after `(`, through the closing `)`.
  private mutating func parseArguments() throws(ExpressionError) -> [Expr] {
    var arguments: [Expr] = []
    if accept(.rparen) { return arguments }
    while true {
      arguments.append(try parseExpression())
      if accept(.rparen) { return arguments }
      if case .end = current.kind {
        throw ExpressionError(message: "expected ')'", offset: current.offset)
      }
      guard accept(.comma) else {
        throw ExpressionError(message: "expected ')'", offset: current.offset)
      }
    }
  }

  private mutating func parsePrimary() throws(ExpressionError) -> Expr {
    let token = advance()
    switch token.kind {
    case .integer(let digits):
      guard let n = Int(digits) else {
        throw ExpressionError(message: "integer literal '\(digits)' overflows", offset: token.offset)
      }
      return Expr(.literal(.int(n)), at: token.offset)
    case .decimal(let d):
      return Expr(.literal(.double(d)), at: token.offset)
    case .string(let parts):
      return try parseString(parts, at: token.offset)
    case .dollar(let n):
      return Expr(.dollar(n), at: token.offset)
    case .identifier(let name):
      switch name {
      case "nil", "null": return Expr(.literal(.null), at: token.offset)
      case "true": return Expr(.literal(.bool(true)), at: token.offset)
      case "false": return Expr(.literal(.bool(false)), at: token.offset)
      default: return Expr(.name(name), at: token.offset)
      }
    case .punct(.lparen):
      let inner = try parseExpression(opener: token.offset)
      try expect(.rparen)
      return inner
    case .punct(.lbracket):
      return try parseCollection(at: token.offset)
    case .end:
      throw ExpressionError(message: "unexpected end of expression", offset: token.offset)
    case .punct:
      throw ExpressionError(message: "unexpected \(token.display)", offset: token.offset)
    }
  }

  private mutating func parseString(_ parts: [StringPart], at offset: Int) throws(ExpressionError) -> Expr {
    if parts.count == 1, case .text(let text) = parts[0] {
      return Expr(.literal(.string(text)), at: offset)
    }
    var segments: [StringSegment] = []
    for part in parts {
      switch part {
      case .text(let text):
        segments.append(.text(text))
      case .interpolation(let tokens):
        try enter(offset)
        var inner = Parser(tokens: tokens, maxDepth: maxDepth, depth: depth)
        depth -= 1
        let expr = try inner.parseAll()
        segments.append(.expression(expr))
      }
    }
    return Expr(.string(segments), at: offset)
  }

  /// A list `[a, b]`, a map `["k": v]` or the empty map `[:]`, after the `[`.
  private mutating func parseCollection(at offset: Int) throws(ExpressionError) -> Expr {
    if accept(.rbracket) { return Expr(.list([]), at: offset) }
    if current.isPunct(.colon) {
      pos += 1
      try expect(.rbracket)
      return Expr(.map([]), at: offset)
    }
    let first = try parseExpression()
    if accept(.colon) {
      var entries = [(key: first, value: try parseExpression())]
      while accept(.comma) {
        if current.isPunct(.rbracket) { break }
        let key = try parseExpression()
        try expect(.colon)
        entries.append((key: key, value: try parseExpression()))
      }
      try expectClosingBracket()
      return Expr(.map(entries), at: offset)
    }
    var items = [first]
    while accept(.comma) {
      if current.isPunct(.rbracket) { break }
      items.append(try parseExpression())
    }
    try expectClosingBracket()
    return Expr(.list(items), at: offset)
  }

  private mutating func expectClosingBracket() throws(ExpressionError) {
    guard accept(.rbracket) else {
      throw ExpressionError(message: "expected ']'", offset: current.offset)
    }
  }
}
