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

  public init(message: Diagnostic.Message, offset: Int, thrown: Value? = nil) {
    self.message = message.text
    self.offset = offset
    self.thrown = thrown
  }

  public var description: String { "\(offset): \(message)" }
}

/// Builds a run-time error; a short helper so operations read as one line.
@inline(__always)
func failure(_ message: Diagnostic.Message, _ offset: Int) -> EvaluationError {
  EvaluationError(message: message, offset: offset)
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
