import FlowrunCore
import FlowrunExpressions
import FuzzSupport

/// The expression language: compile any text, and evaluate what compiles against a few values.
@main
enum Main {
  static func main() { runFuzzer(fuzz) }
}

func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data = pointer else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let scope = ExpressionScope(parameters: .value, indexAvailable: true, templateNames: [.outer], maxLength: 4_096)
  guard let expression = try? CompiledExpression(text, scope: scope) else { return 0 }
  let inputs: [Value] = [
    .null, .int(Int.max), .int(Int.min), .double(-0.0), .string("a\u{0}é"),
    .list([.int(1), .string("x"), .list([])]), .map(["count": .int(3), "k": .list([.null])]),
  ]
  for value in inputs {
    let context = EvalContext(value: value, index: Int.max, now: Int.max, outer: value)
    if let result = try? expression.evaluate(context) { _ = result.description }
  }
  return 0
}
