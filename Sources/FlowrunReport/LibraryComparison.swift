import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
public import FlowrunScenario

/// `flowrun compare` (libraries.md): each scenario run under each library that can express it
/// (`LibraryComparison.compare(files:libraries:)` in `FlowrunApp` loads and runs them), and, for every expectation whose outcome differs between libraries, one lane per library with
/// the first frame where they part and the docs rows (docs/libraries.md) whose meanings explain
/// it.
public struct LibraryComparison: Sendable {
  /// A library that cannot express the scenario: the first load error it gives, which names the
  /// key that stops it.
  public struct Blocked: Sendable {
    public var library: Library
    public var diagnostic: Diagnostic

    package init(library: Library, diagnostic: Diagnostic) {
      self.library = library
      self.diagnostic = diagnostic
    }
  }

  /// One expectation's outcome under one library.
  public struct Lane: Sendable {
    public var library: Library
    /// The events (or subscriptions) as a marble, in a legend shared by the lanes.
    public var marble: String
    public var cells: [MarbleCell]
    /// Whether the expectation, as written, held under this library.
    public var passed: Bool
  }

  /// An expectation whose outcome differs between libraries.
  public struct Difference: Sendable {
    public var target: String
    public var lanes: [Lane]
    /// The first frame where the lanes part (nil for subscription logs, compared as text).
    public var frame: Int?
    /// Per lane, its token at `frame` (`nothing` when it has no event there).
    public var tokens: [String]
    /// The docs rows of the libraries whose lanes differ, with their library.
    public var rows: [(library: Library, row: String)]
    public var legend: [(key: String, value: String)]
  }

  /// One scenario compared.
  public struct ScenarioComparison: Sendable {
    public var path: String
    public var name: String
    public var description: String?
    /// The libraries it ran under, in the order asked for.
    public var libraries: [Library]
    public var blocked: [Blocked]
    public var differences: [Difference]
    /// The expectations whose outcome is the same under every library that ran.
    public var same: [String]
  }

  /// A scenario (a document of its file) none of the libraries could load, with the
  /// diagnostics of the first library against that document.
  public struct Unloaded: Sendable {
    public var path: String
    /// The document's `name:`, when it could be read.
    public var name: String?
    public var diagnostics: [Diagnostic]

    package init(path: String, name: String?, diagnostics: [Diagnostic]) {
      self.path = path
      self.name = name
      self.diagnostics = diagnostics
    }
  }

  public var scenarios: [ScenarioComparison] = []
  public var unloaded: [Unloaded] = []

  package init() {}

  /// The exit code: 0 when every scenario loaded (under at least one library), 1 otherwise.
  public var exitCode: Int32 { unloaded.isEmpty ? 0 : 1 }

  /// One scenario's comparison from its runs under the libraries that could load it.
  package static func compare(_ scenario: Scenario, runs: [(Library, ScenarioResult)], blocked: [Blocked])
    -> ScenarioComparison
  {
    var result = ScenarioComparison(
      path: scenario.path, name: scenario.name, description: scenario.description, libraries: runs.map(\.0),
      blocked: blocked, differences: [], same: [])
    guard let reference = runs.first?.1 else { return result }
    for (index, expectation) in reference.expectations.enumerated() {
      let target = expectation.spec.target
      let outcomes = runs.map { ($0.0, $0.1.expectations[index], $0.1.scenario.libraryRows(for: target)) }
      if let difference = difference(outcomes, grammar: scenario.grammar) {
        result.differences.append(difference)
      } else {
        result.same.append(expectation.spec.target)
      }
    }
    return result
  }

  private static func difference(_ outcomes: [(Library, ExpectationResult, [String])], grammar: MarbleGrammar)
    -> Difference?
  {
    guard let first = outcomes.first?.1 else { return nil }
    let target = first.spec.target
    switch first.actual {
    case .events:
      let events = outcomes.map { outcome -> [Recorded] in
        if case .events(let tape) = outcome.1.actual { return tape.events }
        return []
      }
      guard Set(events.map { "\($0)" }).count > 1 else { return nil }
      var printer = MarblePrinter(
        grammar: grammar, legend: Legend(layers: [first.spec.legend]), errorValue: first.spec.errorValue)
      var lanes: [Lane] = []
      let lastFrame = events.compactMap { $0.last?.frame }.max() ?? 0
      for (outcome, recorded) in zip(outcomes, events) {
        // A library under which nothing happened shows its frames as `-`.
        let printed = printer.print(recorded, through: recorded.isEmpty ? max(0, lastFrame) : nil)
        lanes.append(Lane(library: outcome.0, marble: printed.text, cells: printed.cells, passed: outcome.1.passed))
      }
      let frame = firstParting(events)
      let tokens = lanes.map { lane in
        frame.flatMap { frame in lane.cells.first { $0.frame == frame && $0.text != "-" }.map(\.text) } ?? "nothing"
      }
      let legend =
        printer.assigned.map { ($0.key, ExpectationDiff.describe($0.value)) }
        + first.spec.legend.filter { entry in lanes.contains { $0.marble.contains(entry.key) } }
        .map { ($0.key, ExpectationDiff.describe($0.value)) }
      return Difference(
        target: target, lanes: lanes, frame: frame, tokens: tokens, rows: rows(outcomes, events), legend: legend)
    case .subscriptions:
      let texts = outcomes.map { outcome -> String in
        guard case .subscriptions(let entries) = outcome.1.actual else { return "" }
        let marbles = entries.map { MarblePrinter.subscription(subscribe: $0.subscribed, unsubscribe: $0.unsubscribed) }
        return marbles.isEmpty ? "no subscription" : marbles.joined(separator: ", ")
      }
      guard Set(texts).count > 1 else { return nil }
      let lanes = zip(outcomes, texts).map { Lane(library: $0.0, marble: $1, cells: [], passed: $0.1.passed) }
      return Difference(
        target: target, lanes: lanes, frame: nil, tokens: texts, rows: rows(outcomes, texts), legend: [])
    }
  }

  /// The rows of the libraries whose outcome is not the default's (`rxjs`, or when it was not
  /// compared, the most common outcome): the meanings that make them part.
  private static func rows<T>(_ outcomes: [(Library, ExpectationResult, [String])], _ values: [T])
    -> [(library: Library, row: String)]
  {
    let keys = values.map { "\($0)" }
    let common =
      outcomes.firstIndex { $0.0 == .rxjs }.map { keys[$0] }
      ?? keys.max { lhs, rhs in keys.filter { $0 == lhs }.count < keys.filter { $0 == rhs }.count }
    var rows: [(library: Library, row: String)] = []
    for (outcome, key) in zip(outcomes, keys) where key != common {
      for row in outcome.2 { rows.append((outcome.0, row)) }
    }
    return rows
  }

  /// The earliest frame at which two of the event lists differ.
  private static func firstParting(_ lists: [[Recorded]]) -> Int? {
    var frame: Int?
    for list in lists.dropFirst() {
      guard let reference = lists.first else { break }
      let index =
        zip(reference, list).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(reference.count, list.count)
      let candidates = [
        index < reference.count ? reference[index].frame : nil, index < list.count ? list[index].frame : nil,
      ]
      if let at = candidates.compactMap({ $0 }).min() { frame = min(frame ?? at, at) }
    }
    return frame
  }
}
