public import FlowrunCore
public import FlowrunDiagnostics

/// A problem found while compiling an expression, at a Unicode-scalar offset in its text.
public struct ExpressionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The lowercase message, names in single quotes: `expected ')'`.
  public var message: String
  /// The Unicode-scalar offset in the expression text where the problem is.
  public var offset: Int

  public init(message: Diagnostic.Message, offset: Int) {
    self.message = message.text
    self.offset = offset
  }

  public var description: String { "\(offset): \(message)" }
}

/// A failure while evaluating an expression: a run-time error, or a value sent by `throw(value)`.
public struct EvaluationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The lowercase message: `division by zero`.
  public var message: String
  /// The Unicode-scalar offset of the sub-expression that failed.
  public var offset: Int
  /// The value given to `throw(value)`, which the step sends as its error; nil for a run-time error.
  public var thrown: Value?
  /// A hint for the warning (not the error value): `did you mean 'count'?` after `.length`.
  public var hint: String?
  /// Whether a member or method of nil was asked for (`$0.count` where `$0` is nil).
  public var readsNil = false

  public init(message: Diagnostic.Message, offset: Int, thrown: Value? = nil, hint: String? = nil) {
    self.message = message.text
    self.offset = offset
    self.thrown = thrown
    self.hint = hint
  }

  public var description: String { "\(offset): \(message)" }
}

/// Builds a run-time error; a short helper so operations read as one line.
@inline(__always)
func failure(_ message: Diagnostic.Message, _ offset: Int) -> EvaluationError {
  EvaluationError(message: message, offset: offset)
}

/// A member or method that does not apply to `value`: marks a read of nil, and hints at
/// `count` for `.length` and `.size`, the names JavaScript and Objective-C habits reach for.
func wrongKind(_ message: Diagnostic.Message, _ value: Value, member: String, _ at: Int) -> EvaluationError {
  var error = EvaluationError(message: message, offset: at)
  switch value {
  case .null: error.readsNil = true
  case .string, .list, .map:
    if member == "length" || member == "size" { error.hint = "did you mean 'count'?" }
  default: break
  }
  return error
}

/// The expression with a nil base read as an empty string: `($0 ?? "").count` for the text
/// `$0.count` whose member `count` starts at `offset` (Unicode scalars). Nil when the base is
/// not a plain name or `$n` (chains such as `vm.name` included).
public func readingNilAsEmpty(_ text: String, memberAt offset: Int) -> String? {
  let scalars = Array(text.unicodeScalars)
  guard offset >= 2, offset < scalars.count, scalars[offset - 1] == "." else { return nil }
  func isNamePart(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || scalar == "$" || scalar == "." || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
  }
  var start = offset - 1
  while start > 0, isNamePart(scalars[start - 1]) { start -= 1 }
  var end = offset
  while end < scalars.count, isNamePart(scalars[end]), scalars[end] != "." { end += 1 }
  let base = String(String.UnicodeScalarView(scalars[start..<(offset - 1)]))
  let member = String(String.UnicodeScalarView(scalars[offset..<end]))
  guard !base.isEmpty, !base.hasPrefix("."), !base.hasSuffix("."), !member.isEmpty else { return nil }
  var call = ""
  if end < scalars.count, scalars[end] == "(" {
    call = end + 1 < scalars.count && scalars[end + 1] == ")" ? "()" : "(…)"
  }
  return "(\(base) ?? \"\").\(member)\(call)"
}

extension Diagnostic.Message {
  // Shared by the compiler, the parser and the evaluation.
  static let integerOverflow: Self = "integer overflow"

  static func nestedTooDeep(limit: Int) -> Self { "expression nested deeper than \(limit) levels" }
  static func needsBool(_ role: String, got value: Value) -> Self { "'\(role)' needs a Bool, got \(value.kindName)" }
  static func mapKeyNotString(_ key: Value) -> Self { "a map key must be a String, got \(key.kindName)" }
  static func cannotCall(_ method: String, on value: Value) -> Self { "cannot call '\(method)' on \(value.kindName)" }
  static func invalidRegex(_ pattern: String) -> Self { "invalid regular expression '\(pattern)'" }

  /// `message`, followed by a suggestion from `candidates` when one is close to `name`: within
  /// two edits, and at most half its length away (so that a short name such as `foo` does not
  /// suggest `Bool`).
  func suggesting(_ name: String, among candidates: [String]) -> Self {
    suggesting(name, among: candidates, maxDistance: min(2, name.unicodeScalars.count / 2))
  }
}
