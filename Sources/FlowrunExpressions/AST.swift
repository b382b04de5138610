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
  case expression(ExprID)
}

/// The position of a node in its `SyntaxTree`.
typealias ExprID = Int

/// A node of the parsed expression, with the Unicode-scalar offset where it starts; children are
/// other nodes of the same tree.
struct Expr: Sendable {
  enum Kind: Sendable {
    case literal(Value)
    case string([StringSegment])
    case list([ExprID])
    case map([(key: ExprID, value: ExprID)])
    case dollar(Int)
    case name(String)
    /// `base.name`; `nameOffset` is where the member name starts.
    case member(ExprID, name: String, nameOffset: Int)
    /// `base[index]`; the node offset of the subscript is the `[`.
    case subscripted(ExprID, ExprID, bracketOffset: Int)
    /// `base.name(args)`.
    case method(ExprID, name: String, nameOffset: Int, arguments: [ExprID])
    /// `name(args)`.
    case call(name: String, arguments: [ExprID])
    case unary(UnaryOp, ExprID)
    case binary(BinaryOp, ExprID, ExprID, operatorOffset: Int)
    case conditional(ExprID, ExprID, ExprID)
  }

  let kind: Kind
  let offset: Int
}

/// The nodes of a parsed expression in one array, so that building and dropping a tree costs one
/// allocation rather than one per node.
struct SyntaxTree: Sendable {
  private var nodes: [Expr] = []

  init(capacity: Int) {
    nodes.reserveCapacity(capacity)
  }

  /// Adds a node and returns its position.
  mutating func add(_ kind: Expr.Kind, at offset: Int) -> ExprID {
    nodes.append(Expr(kind: kind, offset: offset))
    return nodes.count - 1
  }

  subscript(id: ExprID) -> Expr { nodes[id] }

  /// Where node `id` starts.
  func offset(_ id: ExprID) -> Int { nodes[id].offset }
}
