import FlowrunCore
import FlowrunExpressions
import OrderedCollections

extension Value: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
  ExpressibleByNilLiteral
{
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(stringLiteral value: String) { self = .string(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: Value...) { self = .list(elements) }
  public init(dictionaryLiteral elements: (String, Value)...) {
    self = .map(OrderedDictionary(uniqueKeysWithValues: elements))
  }
  public init(nilLiteral: ()) { self = .null }
}

/// Property values by slot, for tests.
final class Properties: PropertyReader {
  var values: [Value]
  init(_ values: [Value]) { self.values = values }
  func propertyValue(at slot: Int) -> Value { values[slot] }
}

/// Compiles and evaluates `source` with `$0` bound to `value`.
func run(
  _ source: String, value: Value = nil, scope: ExpressionScope = ExpressionScope(), context: EvalContext? = nil
) throws -> Value {
  let compiled = try CompiledExpression(source, scope: scope)
  var ctx = context ?? EvalContext()
  if context == nil { ctx.value = value }
  return try compiled.evaluate(ctx)
}

/// The compile error of `source`, or nil when it compiles.
func compileError(_ source: String, scope: ExpressionScope = ExpressionScope()) -> ExpressionError? {
  do {
    _ = try CompiledExpression(source, scope: scope)
    return nil
  } catch {
    return error
  }
}

/// The run-time error of `source`, or nil when it evaluates.
func runtimeError(_ source: String, value: Value = nil, scope: ExpressionScope = ExpressionScope()) throws
  -> EvaluationError?
{
  let compiled = try CompiledExpression(source, scope: scope)
  do {
    _ = try compiled.evaluate(EvalContext(value: value))
    return nil
  } catch {
    return error
  }
}

/// Whether two values are the same, including the Int/Double distinction that `==` ignores.
func identical(_ a: Value, _ b: Value) -> Bool {
  switch (a, b) {
  case (.int, .double), (.double, .int): return false
  case (.list(let x), .list(let y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
  default: return a == b
  }
}
