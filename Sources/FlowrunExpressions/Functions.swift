import FlowrunCore
import FlowrunDiagnostics

/// How many arguments each function takes.
let functionArity: [String: ClosedRange<Int>] = [
  "min": 2...Int.max, "max": 2...Int.max, "abs": 1...1, "String": 1...1, "Int": 1...1,
  "Double": 1...1, "Bool": 1...1, "throw": 1...1,
]

extension Compiler {
  func compileCall(_ name: String, at: Int, arguments: [ExprID]) throws(ExpressionError) -> Node {
    guard let arity = functionArity[name] else {
      throw ExpressionError(
        message: .unknownFunction(name).suggesting(name, among: functionArity.keys.sorted()), offset: at)
    }
    guard arity.contains(arguments.count) else {
      throw ExpressionError(message: .wrongArity(name, arity, got: arguments.count), offset: at)
    }
    let args = try arguments.map { (argument) throws(ExpressionError) in try compile(argument) }
    let evals = args.map(\.eval)
    if name == "min" || name == "max" {
      let op: BinaryOp = name == "min" ? .less : .greater
      let offsets = arguments.map { tree.offset($0) }
      return folded(
        Node { ctx throws(EvaluationError) in
          var best = try evals[0](ctx)
          for i in 1..<evals.count {
            let candidate = try evals[i](ctx)
            if try Ops.compare(op, candidate, best, offsets[i]) { best = candidate }
          }
          return best
        }, args)
    }
    let ae = evals[0]
    let convert = Compiler.function(name, at: at)
    return folded(Node { ctx throws(EvaluationError) in try convert(try ae(ctx)) }, args)
  }

  /// The operation of a one-argument function.
  static func function(_ name: String, at: Int) -> @Sendable (Value) throws(EvaluationError) -> Value {
    let cannot = { @Sendable (v: Value) -> EvaluationError in failure(.cannotConvert(v, to: name), at) }
    switch name {
    case "abs":
      return { v throws(EvaluationError) in
        switch v {
        case .int(let i):
          guard i != Int.min else { throw failure(.integerOverflow, at) }
          return .int(Swift.abs(i))
        case .double(let d): return .double(Swift.abs(d))
        default: throw failure(.absNeedsNumber(got: v), at)
        }
      }
    case "String":
      return { v throws(EvaluationError) in
        try ValueGuard.checkDeep(v, at: at)
        return .string(Ops.text(v))
      }
    case "Int":
      return { v throws(EvaluationError) in
        switch v {
        case .int: return v
        case .double(let d): return Int(exactly: d.rounded(.towardZero)).map(Value.int) ?? .null
        case .string(let s): return Int(s).map(Value.int) ?? .null
        default: throw cannot(v)
        }
      }
    case "Double":
      return { v throws(EvaluationError) in
        switch v {
        case .int(let i): return .double(Double(i))
        case .double: return v
        case .string(let s): return Double(s).map(Value.double) ?? .null
        default: throw cannot(v)
        }
      }
    case "Bool":
      return { v throws(EvaluationError) in
        switch v {
        case .bool: return v
        case .string(let s): return Bool(s).map(Value.bool) ?? .null
        default: throw cannot(v)
        }
      }
    default:  // throw
      return { v throws(EvaluationError) in
        throw EvaluationError(message: .threw(v), offset: at, thrown: v)
      }
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func unknownFunction(_ name: String) -> Self { "unknown function '\(name)'" }
  fileprivate static func cannotConvert(_ value: Value, to type: String) -> Self {
    "cannot convert \(value.kindName) to \(type)"
  }
  fileprivate static func absNeedsNumber(got value: Value) -> Self { "'abs' needs a number, got \(value.kindName)" }
  fileprivate static func threw(_ value: Value) -> Self { "threw \(value.description)" }
}
