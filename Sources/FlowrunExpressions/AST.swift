import FlowrunCore

/// A binary operator, by precedence group.
enum BinaryOp: String, Sendable {
  case or = "||", and = "&&"
  case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
  case coalesce = "??"
  case add = "+", subtract = "-"
  case multiply = "*", divide = "/", remainder = "%"

  /// The precedence level, loosest first; the conditional is level 0.
  var level: Int {
    switch self {
    case .or: 1
    case .and: 2
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: 3
    case .coalesce: 4
    case .add, .subtract: 5
    case .multiply, .divide, .remainder: 6
    }
  }

  var isComparison: Bool { level == 3 }
}

/// A prefix operator.
enum UnaryOp: String, Sendable {
  case not = "!", negate = "-"
}

/// One part of a string literal in the tree.
enum StringSegment: Sendable {
  case text(String)
  case expression(Expr)
}

/// A node of the parsed expression, with the Unicode-scalar offset where it starts.
final class Expr: Sendable {
  enum Kind: Sendable {
    case literal(Value)
    case string([StringSegment])
    case list([Expr])
    case map([(key: Expr, value: Expr)])
    case dollar(Int)
    case name(String)
    /// `base.name`; `nameOffset` is where the member name starts.
    case member(Expr, name: String, nameOffset: Int)
    /// `base[index]`; the node offset of the subscript is the `[`.
    case subscripted(Expr, Expr, bracketOffset: Int)
    /// `base.name(args)`.
    case method(Expr, name: String, nameOffset: Int, arguments: [Expr])
    /// `name(args)`.
    case call(name: String, arguments: [Expr])
    case unary(UnaryOp, Expr)
    case binary(BinaryOp, Expr, Expr, operatorOffset: Int)
    case conditional(Expr, Expr, Expr)
  }

  let kind: Kind
  let offset: Int

  init(_ kind: Kind, at offset: Int) {
    self.kind = kind
    self.offset = offset
  }
}
