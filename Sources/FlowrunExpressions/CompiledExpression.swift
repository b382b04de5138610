public import FlowrunCore

/// An expression compiled once, at load, into closures that evaluate it without re-parsing or
/// re-resolving names.
public struct CompiledExpression: Sendable {
  private let eval: Eval
  /// The expression text as written (empty for a literal given as a YAML value).
  public let source: String
  /// Whether the expression reads `index`.
  public let usesIndex: Bool
  /// Whether the expression reads `now`.
  public let usesNow: Bool
  /// The slots of the properties the expression reads, ascending.
  public let referencedProperties: [Int]
  /// The value of the expression when it is known without evaluating it.
  public let constantValue: Value?

  /// Compiles `source` for `scope`, throwing the first problem with its scalar offset.
  public init(_ source: String, scope: ExpressionScope) throws(ExpressionError) {
    let length = source.unicodeScalars.count
    guard length <= scope.maxLength else {
      throw ExpressionError(message: "expression longer than \(scope.maxLength) characters", offset: 0)
    }
    var lexer = Lexer(source, maxDepth: scope.maxDepth)
    let tokens = try lexer.tokenize()
    var parser = Parser(tokens: tokens, maxDepth: scope.maxDepth)
    let tree = try parser.parseAll()
    var compiler = Compiler(scope: scope)
    let node = try compiler.compile(tree)
    self.eval = node.eval
    self.source = source
    self.usesIndex = compiler.usesIndex
    self.usesNow = compiler.usesNow
    self.referencedProperties = compiler.usedSlots.sorted()
    self.constantValue = node.constant
  }

  private init(constant value: Value) {
    self.eval = { _ in value }
    self.source = ""
    self.usesIndex = false
    self.usesNow = false
    self.referencedProperties = []
    self.constantValue = value
  }

  /// The expression that is always `value`: a YAML number, bool or null given where an
  /// expression is expected.
  public static func literal(_ value: Value) -> CompiledExpression {
    CompiledExpression(constant: value)
  }

  /// Evaluates the expression against `context`.
  @inline(__always)
  public func evaluate(_ context: borrowing EvalContext) throws(EvaluationError) -> Value {
    try eval(context)
  }

  /// Evaluates an expression whose result must be a Bool (`filter`, `when`, …); `role` names the
  /// step in the message: `'filter' needs a Bool, got Int`.
  public func evaluateCondition(_ context: borrowing EvalContext, role: String) throws(EvaluationError) -> Bool {
    let value = try eval(context)
    guard case .bool(let b) = value else {
      throw EvaluationError(message: "'\(role)' needs a Bool, got \(value.kindName)", offset: 0)
    }
    return b
  }
}
