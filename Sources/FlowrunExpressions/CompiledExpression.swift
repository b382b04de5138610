public import FlowrunCore
import FlowrunDiagnostics

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
    // A text of no more bytes than the limit has no more scalars either.
    if source.utf8.count > scope.maxLength, source.unicodeScalars.count > scope.maxLength {
      throw ExpressionError(message: .tooLong(limit: scope.maxLength), offset: 0)
    }
    let tokens = try Lexer.tokenize(source, maxDepth: scope.maxDepth)
    var parser = Parser(tokens: tokens, maxDepth: scope.maxDepth)
    let root = try parser.parseAll()
    let compiler = Compiler(scope: scope, tree: parser.tree)
    let node = try compiler.compile(root)
    self.eval = node.eval
    self.source = source
    self.usesIndex = compiler.usesIndex
    self.usesNow = compiler.usesNow
    self.referencedProperties = compiler.usedSlots.isEmpty ? [] : compiler.usedSlots.sorted()
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
      throw EvaluationError(message: .needsBool(role, got: value), offset: 0)
    }
    return b
  }
}

extension Diagnostic.Message {
  fileprivate static func tooLong(limit: Int) -> Self { "expression longer than \(limit) characters" }
}
