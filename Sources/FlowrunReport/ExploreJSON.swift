import FlowrunCore
import FlowrunDiagnostics
import FlowrunExplore
import FlowrunMarbles
import FlowrunScenario
import FlowrunYAML

extension ExploreReport {
  /// The JSON report, described by `schemas/flowrun-explore.schema.json`. It holds no time, so
  /// the same seed gives the same bytes.
  public func json() -> String {
    var scenarios: [JSON] = []
    for file in files where file.failedDocuments > 0 {
      scenarios.append(
        .object([
          ("path", .string(file.path)),
          ("name", .string(file.path)),
          ("status", .string("error")),
          ("runs", .int(0)),
          ("orders", .int(0)),
          ("shrinkRuns", .int(0)),
          ("diagnostics", .array(file.diagnostics.map(JSONReporter.diagnosticJSON))),
          ("counterexample", .null),
        ]))
    }
    for exploration in explorations { scenarios.append(Self.json(exploration, options: options)) }
    let explored = explorations.filter { !$0.skipped }.count
    let report = JSON.object([
      ("flowrun", .int(1)),
      ("command", .string("explore")),
      ("seed", .string(String(options.seed))),
      ("runs", .int(options.runs)),
      ("orders", .bool(options.orders)),
      ("output", output.map(JSON.string) ?? .null),
      ("notes", .array(outputNotes.map(JSON.string))),
      ("scenarios", .array(scenarios)),
      (
        "summary",
        .object([
          ("scenarios", .int(explored + loadFailures)),
          ("passed", .int(explored - counterexamples)),
          ("failed", .int(counterexamples + loadFailures)),
          ("skipped", .int(explorations.count - explored)),
          ("runs", .int(explorations.reduce(0) { $0 + $1.runs + $1.orderRuns })),
          ("counterexamples", .int(counterexamples)),
        ])
      ),
    ])
    return report.rendered() + "\n"
  }

  private static func json(_ exploration: Exploration, options: ExploreOptions) -> JSON {
    let scenario = exploration.scenario
    let status = exploration.skipped ? "skipped" : exploration.counterexample == nil ? "passed" : "failed"
    return .object([
      ("path", .string(scenario.path)),
      ("name", .string(scenario.name)),
      ("status", .string(status)),
      ("runs", .int(exploration.runs)),
      ("orders", .int(exploration.orderRuns)),
      ("shrinkRuns", .int(exploration.shrinkRuns)),
      ("diagnostics", .array([])),
      ("counterexample", exploration.counterexample.map { json($0, scenario: scenario, options: options) } ?? .null),
    ])
  }

  private static func json(_ counterexample: Counterexample, scenario: Scenario, options: ExploreOptions) -> JSON {
    var origin: [(String, JSON)] = []
    switch counterexample.origin {
    case .written: origin = [("origin", .string("written")), ("run", .null)]
    case .generated(let run): origin = [("origin", .string("generated")), ("run", .int(run))]
    case .order: origin = [("origin", .string("order")), ("run", .null)]
    }
    var invariant: JSON = .null
    var failure: JSON = .null
    var message = counterexample.result.diagnostics.first { $0.severity == .error }?.message ?? "the run failed"
    if case .invariant(let index) = counterexample.failure {
      let spec = scenario.invariants[index]
      invariant = .object([
        ("name", .string(spec.name)),
        ("that", .string(spec.text)),
        ("line", .int(spec.location.line)),
        ("column", .int(spec.location.column)),
      ])
      if let violation = counterexample.result.invariants[index].violation {
        let shown = InvariantFailure(spec: spec, violation: violation, scenario: scenario, inputs: [])
        failure = JSONReporter.violationJSON(shown, violation)
        message = shown.diagnostic.message
      }
    }
    let inputs = CounterexampleInputs(counterexample, spec: scenario.explore)
    var entries: [JSON] = []
    for lane in inputs.lanes {
      var printer = MarblePrinter(
        grammar: scenario.grammar, legend: Legend(layers: [scenario.legend]), errorValue: lane.input.errorValue)
      let printed = printer.print(lane.events, through: counterexample.frame)
      entries.append(
        .object([
          ("name", .string(lane.input.name)),
          ("kind", .string(kind(lane.input.kind))),
          ("marble", .string(printed.text)),
          ("answers", .array([])),
          ("legend", .object(printer.assigned.map { ($0.key, .string($0.value.description)) })),
        ]))
    }
    for answers in inputs.answers {
      var printer = MarblePrinter(
        grammar: scenario.grammar, legend: Legend(layers: [scenario.legend]), errorValue: scenario.errorValue)
      let marbles = answers.answers.map { JSON.string(printer.print($0).text) }
      entries.append(
        .object([
          ("name", .string(answers.input.name)),
          ("kind", .string("service")),
          ("marble", .null),
          ("answers", .array(marbles)),
          ("legend", .object(printer.assigned.map { ($0.key, .string($0.value.description)) })),
        ]))
    }
    var orders: [JSON] = []
    if case .order(let choices) = counterexample.origin {
      orders = choices.map { choice in
        .object([
          ("frame", .int(choice.frame)),
          ("written", .array(choice.written.map(JSON.string))),
          ("failing", .array(choice.failing.map(JSON.string))),
        ])
      }
    }
    return .object(
      origin + [
        ("failure", .string(counterexample.failure == .runError ? "runError" : "invariant")),
        ("frame", .int(counterexample.frame)),
        ("message", .string(message)),
        ("invariant", invariant),
        ("violation", failure),
        ("shrinkSteps", .int(counterexample.shrinkSteps)),
        ("eventsBefore", .int(counterexample.sizeBefore)),
        ("eventsAfter", .int(counterexample.sizeAfter)),
        ("until", counterexample.variant?.until.map(JSON.int) ?? .null),
        ("inputs", .array(entries)),
        ("orders", .array(orders)),
        ("diagnostics", .array(counterexample.result.diagnostics.map(JSONReporter.diagnosticJSON))),
      ])
  }

  private static func kind(_ kind: ExploreSpec.Kind) -> String {
    switch kind {
    case .hot: "hot"
    case .service: "service"
    case .command: "command"
    case .subject: "subject"
    case .property: "property"
    }
  }
}
