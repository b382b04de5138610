import FlowrunCore
import FlowrunDiagnostics
public import FlowrunExplore
import FlowrunMarbles
public import FlowrunScenario
import FlowrunYAML

/// What `flowrun explore` prints: a line per scenario, and for a counterexample the failure,
/// the generated inputs aligned with the lanes of the names the invariant reads, and the
/// legend; the JSON report is described by `schemas/flowrun-explore.schema.json`.
public struct ExploreReport: Sendable {
  public var explorations: [Exploration]
  /// Files whose scenarios did not (all) load.
  public var files: [LoadedFile]
  public var options: ExploreOptions
  /// Where the counterexamples were written (`--output`), if they were.
  public var output: String?
  /// Notes about the written file (a counterexample that cannot be written, one that does not
  /// fail as it should).
  public var outputNotes: [String]

  public init(
    explorations: [Exploration], files: [LoadedFile], options: ExploreOptions, output: String?, outputNotes: [String]
  ) {
    self.explorations = explorations
    self.files = files
    self.options = options
    self.output = output
    self.outputNotes = outputNotes
  }

  public var counterexamples: Int { explorations.filter { $0.counterexample != nil }.count }
  public var loadFailures: Int { files.reduce(0) { $0 + $1.failedDocuments } }
  public var isSuccess: Bool { counterexamples == 0 && loadFailures == 0 && !files.contains(where: \.hasErrors) }

  // MARK: - Human

  /// The human report of one exploration; `checker` is what fails on the written timeline when
  /// it is the counterexample (`'flowrun run'`, or the check of the code).
  public static func human(
    _ exploration: Exploration, options: ExploreOptions, color: Bool = false, checker: String = "'flowrun run'"
  ) -> String {
    let scenario = exploration.scenario
    func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    guard !exploration.skipped else {
      return "- \(scenario.path)  \(scenario.name)  (skipped: no 'explore:'; --orders explores its same-frame orders)\n"
    }
    guard let counterexample = exploration.counterexample else {
      return paint("✓", "32") + " \(scenario.path)  \(scenario.name)  (\(counts(exploration)), no counterexample)\n"
    }
    var out = paint("✗", "31") + " \(scenario.path)  \(scenario.name)\n"
    for line in lines(of: counterexample, exploration: exploration, options: options, checker: checker) {
      out += "  " + line + "\n"
    }
    return out
  }

  /// The lines of a counterexample, without indentation.
  static func lines(
    of counterexample: Counterexample, exploration: Exploration, options: ExploreOptions,
    checker: String = "'flowrun run'"
  ) -> [String] {
    let scenario = exploration.scenario
    let inputs = CounterexampleInputs(counterexample, spec: scenario.explore)
    var lines: [String] = []
    var body: [String] = []
    let lanes = inputs.lanes.map { LaneDiagram.Lane(label: $0.input.name, events: $0.events) }
    switch counterexample.failure {
    case .invariant(let index):
      let spec = scenario.invariants[index]
      guard let violation = counterexample.result.invariants[index].violation else { break }
      let failure = InvariantFailure(spec: spec, violation: violation, scenario: scenario, inputs: lanes)
      lines += failure.diagnostic.rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      body = failure.lines
    case .runError:
      for diagnostic in counterexample.result.diagnostics where diagnostic.severity == .error {
        lines += diagnostic.rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      }
      if !lanes.isEmpty {
        let diagram = LaneDiagram(
          lanes: lanes, legend: scenario.legend, grammar: scenario.grammar, errorValue: scenario.errorValue,
          through: counterexample.frame)
        body = diagram.lines + (diagram.legendLine.map { [$0] } ?? [])
      }
    }
    body.insert(origin(counterexample, exploration: exploration, options: options, checker: checker), at: 0)
    for answers in inputs.answers {
      var printer = MarblePrinter(
        grammar: scenario.grammar, legend: Legend(layers: [scenario.legend]), errorValue: scenario.errorValue)
      let marbles = answers.answers.map { answer in
        let printed = printer.print(answer)
        return Value.quoted(printed.text) + (printed.errorValue.map { " (error: \($0))" } ?? "")
      }
      var line = "answers of '\(answers.input.name)', call by call: " + marbles.joined(separator: ", ")
      if answers.answers.count > 1 || marbles.isEmpty { line += marbles.isEmpty ? "none" : " (the last repeats)" }
      let legend = printer.assigned.map { "\($0.key) = \($0.value)" }
      if !legend.isEmpty { line += "; legend: " + legend.joined(separator: ", ") }
      body.append(line)
    }
    if case .order(let choices) = counterexample.origin {
      for choice in choices {
        body.append("frame \(choice.frame): written order  \(choice.written.joined(separator: ", "))")
        body.append(
          String(repeating: " ", count: "frame \(choice.frame): ".count)
            + "failing order  \(choice.failing.joined(separator: ", "))")
      }
    }
    return lines + body.map { "  " + $0 }
  }

  /// How the counterexample was found, in one line.
  static func origin(
    _ counterexample: Counterexample, exploration: Exploration, options: ExploreOptions,
    checker: String = "'flowrun run'"
  ) -> String {
    switch counterexample.origin {
    case .written:
      return "the written timeline fails (\(checker) fails too):"
    case .generated(let run):
      let steps = counterexample.shrinkSteps == 1 ? "1 step" : "\(counterexample.shrinkSteps) steps"
      return
        "counterexample: run \(run) of seed \(options.seed), shrunk in \(steps) from \(events(counterexample.sizeBefore)) to \(events(counterexample.sizeAfter)):"
    case .order:
      let tried = exploration.orderRuns == 1 ? "1 order" : "\(exploration.orderRuns) orders"
      return "the written timeline holds in the written order but fails in another (found after \(tried)):"
    }
  }

  private static func events(_ count: Int) -> String {
    count == 1 ? "1 event" : "\(count) events"
  }

  private static func counts(_ exploration: Exploration) -> String {
    var parts: [String] = []
    if exploration.scenario.explore != nil {
      parts.append(exploration.runs == 1 ? "1 run" : "\(exploration.runs) runs")
    }
    if exploration.orderRuns > 0 {
      parts.append(exploration.orderRuns == 1 ? "1 order" : "\(exploration.orderRuns) orders")
    }
    return parts.joined(separator: ", ")
  }

  /// The human report: load problems, each exploration, what was written, and the summary.
  public func human(color: Bool = false) -> String {
    var out = ""
    let reporter = HumanReporter(color: color)
    for file in files where file.hasErrors || !file.diagnostics.isEmpty {
      out += reporter.report(file: file, results: [])
    }
    for exploration in explorations { out += Self.human(exploration, options: options, color: color) }
    if let output, counterexamples > 0 {
      out +=
        "\nwrote \(counterexamples == 1 ? "the counterexample" : "\(counterexamples) counterexamples") to \(output)\n"
    }
    for note in outputNotes { out += "note: \(note)\n" }
    out += "\n" + summary + "\n"
    return out
  }

  /// `N scenarios, N passed, N failed (R runs, C counterexamples)`.
  public var summary: String {
    let explored = explorations.filter { !$0.skipped }
    let failed = counterexamples + loadFailures
    let runs = explorations.reduce(0) { $0 + $1.runs + $1.orderRuns }
    var line = "\(counted(explored.count + loadFailures, "scenario")), \(explored.count - counterexamples) passed"
    line += ", \(failed) failed (\(counted(runs, "run")), \(counted(counterexamples, "counterexample"))"
    let skipped = explorations.count - explored.count
    if skipped > 0 { line += ", \(skipped) skipped" }
    return line + ")"
  }
}
