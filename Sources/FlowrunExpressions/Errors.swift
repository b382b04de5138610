public import FlowrunCore

/// A problem found while compiling an expression, at a Unicode-scalar offset in its text.
public struct ExpressionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The lowercase message, names in single quotes: `expected ')'`.
  public var message: String
  /// The Unicode-scalar offset in the expression text where the problem is.
  public var offset: Int

  public init(message: String, offset: Int) {
    self.message = message
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

  public init(message: String, offset: Int, thrown: Value? = nil) {
    self.message = message
    self.offset = offset
    self.thrown = thrown
  }

  public var description: String { "\(offset): \(message)" }
}

/// Builds a run-time error; a short helper so operations read as one line.
@inline(__always)
func failure(_ message: String, _ offset: Int) -> EvaluationError {
  EvaluationError(message: message, offset: offset)
}
