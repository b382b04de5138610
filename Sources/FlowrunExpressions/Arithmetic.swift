import FlowrunCore
import FlowrunDiagnostics

/// The run-time semantics of the expression operators (arithmetic, comparison, negation).
enum Ops {
  static func mismatch(_ op: String, _ l: Value, _ r: Value, _ at: Int) -> EvaluationError {
    failure(.cannotApply(op, l, r), at)
  }

  /// The two operands as doubles when both are numbers and at least one is a Double.
  @inline(__always)
  static func doubles(_ l: Value, _ r: Value) -> (Double, Double)? {
    switch (l, r) {
    case (.double(let a), .double(let b)): (a, b)
    case (.int(let a), .double(let b)): (Double(a), b)
    case (.double(let a), .int(let b)): (a, Double(b))
    default: nil
    }
  }

  static func add(_ l: Value, _ r: Value, _ at: Int) throws(EvaluationError) -> Value {
    if case .int(let a) = l, case .int(let b) = r {
      let (sum, overflow) = a.addingReportingOverflow(b)
      if overflow { throw failure(.integerOverflow, at) }
      return .int(sum)
    }
    if let (a, b) = doubles(l, r) { return .double(a + b) }
    switch (l, r) {
    case (.string(let a), .string(let b)):
      try ValueGuard.checkString(a.utf8.count + b.utf8.count, at: at)
      return .string(a + b)
    case (.list(let a), .list(let b)):
      try ValueGuard.checkCount(a.count + b.count, at: at)
      return .list(a + b)
    default: throw mismatch("+", l, r, at)
    }
  }

  static func subtract(_ l: Value, _ r: Value, _ at: Int) throws(EvaluationError) -> Value {
    if case .int(let a) = l, case .int(let b) = r {
      let (difference, overflow) = a.subtractingReportingOverflow(b)
      if overflow { throw failure(.integerOverflow, at) }
      return .int(difference)
    }
    if let (a, b) = doubles(l, r) { return .double(a - b) }
    throw mismatch("-", l, r, at)
  }

  static func multiply(_ l: Value, _ r: Value, _ at: Int) throws(EvaluationError) -> Value {
    if case .int(let a) = l, case .int(let b) = r {
      let (product, overflow) = a.multipliedReportingOverflow(by: b)
      if overflow { throw failure(.integerOverflow, at) }
      return .int(product)
    }
    if let (a, b) = doubles(l, r) { return .double(a * b) }
    throw mismatch("*", l, r, at)
  }

  static func divide(_ l: Value, _ r: Value, _ at: Int) throws(EvaluationError) -> Value {
    if case .int(let a) = l, case .int(let b) = r {
      if b == 0 { throw failure(.divisionByZero, at) }
      let (quotient, overflow) = a.dividedReportingOverflow(by: b)
      if overflow { throw failure(.integerOverflow, at) }
      return .int(quotient)
    }
    if let (a, b) = doubles(l, r) {
      if b == 0 { throw failure(.divisionByZero, at) }
      return .double(a / b)
    }
    throw mismatch("/", l, r, at)
  }

  static func remainder(_ l: Value, _ r: Value, _ at: Int) throws(EvaluationError) -> Value {
    if case .int(let a) = l, case .int(let b) = r {
      if b == 0 { throw failure(.divisionByZero, at) }
      let (rest, overflow) = a.remainderReportingOverflow(dividingBy: b)
      if overflow { throw failure(.integerOverflow, at) }
      return .int(rest)
    }
    if let (a, b) = doubles(l, r) {
      if b == 0 { throw failure(.divisionByZero, at) }
      return .double(a.truncatingRemainder(dividingBy: b))
    }
    throw mismatch("%", l, r, at)
  }

  static func negate(_ v: Value, _ at: Int) throws(EvaluationError) -> Value {
    switch v {
    case .int(let a):
      let (result, overflow) = Int(0).subtractingReportingOverflow(a)
      if overflow { throw failure(.integerOverflow, at) }
      return .int(result)
    case .double(let a): return .double(-a)
    default: throw failure(.cannotApply("-", v), at)
    }
  }

  static func not(_ v: Value, _ at: Int) throws(EvaluationError) -> Value {
    guard case .bool(let b) = v else { throw failure(.cannotApply("!", v), at) }
    return .bool(!b)
  }

  /// Compares two numbers (mixed Int and Double allowed) or two strings with `op`.
  static func compare(_ op: BinaryOp, _ l: Value, _ r: Value, _ at: Int) throws(EvaluationError) -> Bool {
    if op == .equal { return l == r }
    if op == .notEqual { return l != r }
    switch (l, r) {
    case (.int(let a), .int(let b)):
      return ordered(op, a, b)
    case (.string(let a), .string(let b)):
      return ordered(op, a, b)
    default:
      guard let (a, b) = doubles(l, r) else { throw mismatch(op.rawValue, l, r, at) }
      return ordered(op, a, b)
    }
  }

  @inline(__always)
  static func ordered<T: Comparable>(_ op: BinaryOp, _ a: T, _ b: T) -> Bool {
    switch op {
    case .less: a < b
    case .lessEqual: a <= b
    case .greater: a > b
    case .greaterEqual: a >= b
    case .equal: a == b
    default: a != b
    }
  }

  static func arithmetic(_ op: BinaryOp, _ l: Value, _ r: Value, _ at: Int) throws(EvaluationError) -> Value {
    switch op {
    case .add: try add(l, r, at)
    case .subtract: try subtract(l, r, at)
    case .multiply: try multiply(l, r, at)
    case .divide: try divide(l, r, at)
    case .remainder: try remainder(l, r, at)
    default: .bool(try compare(op, l, r, at))
    }
  }

  /// The text of a value as `String(x)` and interpolation give it: strings as they are, numbers
  /// as Swift prints them, anything else in flow style.
  static func text(_ v: Value) -> String {
    switch v {
    case .string(let s): s
    case .int(let i): String(i)
    case .double(let d): String(d)
    default: v.description
    }
  }
}

extension Diagnostic.Message {
  fileprivate static let divisionByZero: Self = "division by zero"

  fileprivate static func cannotApply(_ op: String, _ l: Value, _ r: Value) -> Self {
    "cannot apply '\(op)' to \(l.kindName) and \(r.kindName)"
  }
  fileprivate static func cannotApply(_ op: String, _ value: Value) -> Self {
    "cannot apply '\(op)' to \(value.kindName)"
  }
}
