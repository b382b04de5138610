import FlowrunCore
import FlowrunDiagnostics

/// Counts the element evaluations of `.map` / `.filter` bodies in one evaluation, so that
/// nested element-wise calls cannot multiply into a hang (`[0,…].map([0,…].map(…))`).
public final class EvaluationMeter {
  /// Element evaluations left.
  public private(set) var remaining: Int

  public init(budget: Int = EvaluationMeter.defaultBudget) {
    remaining = budget
  }

  /// The element evaluations one top-level evaluation may make.
  public static let defaultBudget = 1_000_000

  func charge(_ count: Int, at offset: Int) throws(EvaluationError) {
    remaining -= count
    if remaining < 0 {
      throw failure(.tooManyEvaluations(limit: EvaluationMeter.defaultBudget), offset)
    }
  }
}

/// Checks on the values expressions make, so that no value grows past `ValueLimits`: strings
/// and lists that would be too long, and lists and maps nested too deep, are run-time errors.
enum ValueGuard {
  static let limits = ValueLimits.default

  static func tooLarge(_ at: Int) -> EvaluationError {
    failure(
      "value larger than the limit of \(limits.size) bytes or nested deeper than \(limits.depth) levels", at)
  }

  /// A string of `byteCount` UTF-8 bytes may be made.
  @inline(__always)
  static func checkString(_ byteCount: Int, at: Int) throws(EvaluationError) {
    if byteCount > limits.size { throw tooLarge(at) }
  }

  /// A list or map of `count` elements may be made.
  @inline(__always)
  static func checkCount(_ count: Int, at: Int) throws(EvaluationError) {
    if count > limits.size / 16 { throw tooLarge(at) }
  }

  /// `value` (a new list or map, or one about to be printed) is within the limits.
  static func checkDeep(_ value: Value, at: Int) throws(EvaluationError) {
    switch value {
    case .list, .map:
      if value.estimatedSize(limit: limits.size, depth: limits.depth) == nil { throw tooLarge(at) }
    default:
      break
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func tooManyEvaluations(limit: Int) -> Self { "expression evaluates more than \(limit) elements" }
}
