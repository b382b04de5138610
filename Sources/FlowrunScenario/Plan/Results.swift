public import FlowrunCore
public import FlowrunDiagnostics

/// How a scenario ended.
public enum ScenarioStatus: String, Sendable {
  case passed
  case failed
  case error
  /// Not run: the file names another library than `flowrun run --library` asked for.
  case skipped
}

/// What one expectation saw, compared with what it expected.
public struct ExpectationResult: Sendable {
  public enum Actual: Sendable {
    case events(EventTape)
    case subscriptions([SubscriptionLog.Entry])
  }

  public let spec: ExpectationSpec
  public let actual: Actual
  public let passed: Bool
  /// The index of the first differing event (or subscription) in both lists.
  public let firstDifference: Int?
  /// When code answered this expectation (CodeBinding.swift): what the declared graph (the
  /// model) sent in a run of its own, shown beside the code's.
  public internal(set) var model: EventTape?
  /// `library: async`: the frame the consumer's task was cancelled at (the lane's `;`).
  public internal(set) var cancelled: Int? = nil
  /// `library: async`: the frames where a paced consumer called `next()` (`consumer:` or the
  /// marble's `,`); nil when the consumer pulls at once after each value.
  public internal(set) var pulls: [Int]? = nil
}

/// Counts of what a run did.
public struct RunStats: Sendable, Equatable {
  public var frames = 0
  public var events = 0
  public var subscriptions = 0
  public var rejectedExecutions = 0

  public init(frames: Int = 0, events: Int = 0, subscriptions: Int = 0, rejectedExecutions: Int = 0) {
    self.frames = frames
    self.events = events
    self.subscriptions = subscriptions
    self.rejectedExecutions = rejectedExecutions
  }
}

/// The outcome of running one scenario.
public struct ScenarioResult: Sendable {
  public let scenario: Scenario
  public let status: ScenarioStatus
  public internal(set) var expectations: [ExpectationResult]
  /// Run-time errors and warnings (expression failures, limits, bindings that failed).
  public let diagnostics: [Diagnostic]
  public let stats: RunStats
  public let durationSeconds: Double
  /// Every invariant, in file order (ScenarioCompiler+Invariants.swift).
  public internal(set) var invariants: [InvariantResult] = []

  /// A scenario that `flowrun check` loaded and validated without running it: it passed, with
  /// no expectation compared.
  public static func checked(_ scenario: Scenario) -> ScenarioResult {
    ScenarioResult(
      scenario: scenario, status: .passed, expectations: [], diagnostics: [], stats: RunStats(), durationSeconds: 0)
  }
}

extension ExpectationResult {
  static func compare(_ expected: [SubscriptionLog.Entry], _ actual: [SubscriptionLog.Entry]) -> Int? {
    for index in 0..<max(expected.count, actual.count) {
      guard index < expected.count, index < actual.count, expected[index] == actual[index] else {
        return index
      }
    }
    return nil
  }
}
