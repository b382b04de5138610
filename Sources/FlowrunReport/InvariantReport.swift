import FlowrunCore
public import FlowrunDiagnostics
public import FlowrunScenario
import FlowrunYAML

/// A failed invariant as reports show it: a located diagnostic, then the lanes of the names it
/// reads up to the failing frame, a caret at that frame with the values read, and the legend.
public struct InvariantFailure: Sendable {
  /// `path:line:column: error: invariant 'x' failed at frame 3`, with the source line and caret.
  public let diagnostic: Diagnostic
  /// The lanes, the caret line and the legend, without indentation.
  public let lines: [String]
  /// The values read, as `name = value`, in declaration order.
  public let values: [(name: String, value: String)]
  /// Each name's events up to the failing frame, as a marble with `legend`.
  public let marbles: [(name: String, marble: String)]
  /// The legend of the lanes: the file's values shown and the entries invented.
  public let legend: [(key: String, value: String)]

  public init(_ result: InvariantResult, violation: InvariantViolation, scenario: Scenario) {
    self.init(spec: result.spec, violation: violation, scenario: scenario, inputs: [])
  }

  /// The failure with `inputs` (an explored counterexample's generated marbles) drawn above
  /// the names read.
  public init(
    spec: InvariantSpec, violation: InvariantViolation, scenario: Scenario, inputs: [LaneDiagram.Lane]
  ) {
    diagnostic = scenario.file.diagnostic(Diagnostic.Message(violation.message(for: spec)), at: spec.location)
    values = violation.readings.map { ($0.name, ExpectationDiff.describe($0.value)) }
    let lanes = inputs + violation.readings.map { LaneDiagram.Lane(label: $0.name, events: $0.events.events) }
    let diagram = LaneDiagram(
      lanes: lanes, legend: scenario.legend, grammar: scenario.grammar, errorValue: scenario.errorValue,
      through: violation.frame)
    var lines = diagram.lines
    if !inputs.isEmpty, !violation.readings.isEmpty {
      lines.insert(String(repeating: "·", count: 3), at: inputs.count + 1)
    }
    let read = values.map { "\($0.name) = \($0.value)" }.joined(separator: ", ")
    lines.append(
      String(repeating: " ", count: diagram.column(of: violation.frame)) + "^ frame \(violation.frame)"
        + (read.isEmpty ? "" : ": " + read))
    if let legend = diagram.legendLine { lines.append(legend) }
    self.lines = lines
    legend = diagram.legend
    let marbles = zip(violation.readings, diagram.marbles.suffix(violation.readings.count)).map {
      ($0.name, $1)
    }
    self.marbles = marbles
  }
}

extension JSONReporter {
  /// An invariant of the JSON report: where it is, whether it held, and where it first failed.
  static func invariant(_ result: InvariantResult, scenario: Scenario) -> JSON {
    var entries: [(String, JSON)] = [
      ("name", .string(result.spec.name)),
      ("that", .string(result.spec.text)),
      ("line", .int(result.spec.location.line)),
      ("column", .int(result.spec.location.column)),
      ("status", .string(result.passed ? "passed" : "failed")),
    ]
    guard let violation = result.violation else {
      return .object(entries + [("failure", .null)])
    }
    entries.append(
      ("failure", violationJSON(InvariantFailure(result, violation: violation, scenario: scenario), violation)))
    return .object(entries)
  }

  /// The failure of an invariant: frame, problem, values read, their lanes and legend.
  public static func violationJSON(_ failure: InvariantFailure, _ violation: InvariantViolation) -> JSON {
    .object([
      ("frame", .int(violation.frame)),
      ("message", .string(failure.diagnostic.message)),
      ("problem", violation.problem.map(JSON.string) ?? .null),
      ("values", .object(failure.values.map { ($0.name, .string($0.value)) })),
      ("lanes", .object(failure.marbles.map { ($0.name, .string($0.marble)) })),
      ("legend", .object(failure.legend.map { ($0.key, .string($0.value)) })),
    ])
  }

  /// A diagnostic as the JSON report writes it (for the report of `flowrun explore`).
  public static func diagnosticJSON(_ diagnostic: Diagnostic) -> JSON {
    self.diagnostic(diagnostic)
  }
}
