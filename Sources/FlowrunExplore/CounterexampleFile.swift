import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
public import FlowrunScenario
import FlowrunYAML

/// Writes a counterexample as a complete scenario file that `flowrun run` fails on: the
/// explored scenario with its generated inputs written as marbles, answers and timeline
/// actions, the run's end as `until`, the violated invariant, and the observed lanes of the
/// names it reads as expectations (`explore:` is dropped).
public enum CounterexampleFile {
  /// Why a counterexample could not be written.
  public struct Unwritable: Error {
    public var reason: String
  }

  /// What the written expectations hold.
  public enum Lanes: Sendable {
    /// The lanes observed in the failing run (`flowrun explore`: the declared graph is what
    /// failed, so `flowrun run` fails on the invariant and passes the expectations).
    case observed
    /// The lanes of the declared graph alone on the same inputs (code bound into the run
    /// failed: the file then says what the model does, which the code fails until it is fixed).
    case model
  }

  /// The scenario document of `counterexample`, without a document marker. `foundBy` is the
  /// command or call that found it and `failing` what fails on the file (for the description);
  /// `lanes` what the expectations hold.
  public static func document(
    for counterexample: Counterexample, of scenario: Scenario, options: ExploreOptions,
    foundBy: String? = nil, failing: String = "'flowrun run'", lanes: Lanes = .observed
  ) throws(Unwritable) -> String {
    if case .order = counterexample.origin {
      throw Unwritable(
        reason: "a same-frame order cannot be written as a scenario: '\(scenario.name)' is reported only")
    }
    let (file, _) = YAMLFile.parse(path: scenario.path, text: scenario.file.text)
    guard let root = file.documents.compactMap(\.root).first(where: { $0.start.offset == scenario.location.offset })
    else { throw Unwritable(reason: "cannot read '\(scenario.path)' again") }
    var tree = YAMLTree(root)
    tree["explore"] = nil
    tree["name"] = .string(scenario.name + " (counterexample)")
    var story = "A counterexample found by " + (foundBy ?? "'flowrun explore \(scenario.path) --seed \(options.seed)'")
    if case .generated(let run) = counterexample.origin {
      story += " (run \(run), shrunk in \(counterexample.shrinkSteps) steps)"
    }
    story += ": \(failing) fails on it until the bug is fixed."
    if let description = scenario.description { story += "\n\n" + description }
    if !story.hasSuffix("\n") { story += "\n" }
    tree.set("description", .scalar(story, style: .literal, tag: nil), after: "name")
    let inputs = CounterexampleInputs(counterexample, spec: scenario.explore)
    for lane in inputs.lanes { write(lane, into: &tree, scenario: scenario) }
    for answers in inputs.answers { write(answers, into: &tree, scenario: scenario) }
    if let variant = counterexample.variant {
      writeTimeline(variant, into: &tree)
      tree["until"] = .flow(String(variant.until ?? counterexample.frame))
    }
    switch counterexample.failure {
    case .invariant(let index):
      if case .sequence(let items)? = tree["invariants"], index < items.count {
        tree["invariants"] = .sequence([items[index]])
      }
      if let violation = counterexample.result.invariants[index].violation {
        let readings = violation.readings.map { ($0.name, $0.events.events) }
        tree["expect"] = expectations(readings, scenario: scenario)
        if lanes == .model {
          tree["expect"] = modelExpectations(of: tree, names: readings.map(\.0), scenario: scenario)
        }
      }
    case .runError:
      tree["expect"] = nil
    }
    return tree.written()
  }

  /// The expectations of `names` answered by the declared graph of `tree` alone (the
  /// observed ones when the document does not load or run).
  private static func modelExpectations(of tree: YAMLTree, names: [String], scenario: Scenario) -> YAMLTree? {
    let loaded = ScenarioLoader.load(path: scenario.path, bytes: Array(tree.written().utf8))
    guard let model = loaded.scenarios.first, !loaded.hasErrors else { return tree["expect"] }
    let result = ScenarioRunner.run(model)
    var lanes: [(String, [Recorded])] = []
    for name in names {
      guard let expectation = result.expectations.first(where: { $0.spec.target == name }),
        case .events(let tape) = expectation.actual
      else { return tree["expect"] }
      lanes.append((name, tape.events))
    }
    return expectations(lanes, scenario: scenario)
  }

  /// A hot marble input: its step's marble, with a local legend for values the file's legend
  /// does not name. Timeline inputs become timeline actions instead (`writeTimeline`).
  private static func write(_ lane: CounterexampleInputs.Lane, into tree: inout YAMLTree, scenario: Scenario) {
    guard case .hot = lane.input.kind, var signal = tree["signals"]?[lane.input.name] else { return }
    var printer = MarblePrinter(
      grammar: scenario.grammar, legend: Legend(layers: [scenario.legend]), errorValue: lane.input.errorValue)
    let printed = printer.print(lane.events)
    func edit(_ step: inout YAMLTree) {
      step["hot"] = .string(printed.text.isEmpty ? "-" : printed.text)
      step["values"] = legend(printed.newEntries)
      let ends = lane.events.contains { if case .error = $0.event { true } else { false } }
      if ends, step["error"] != nil || lane.input.errorValue != scenario.errorValue {
        step["error"] = .value(lane.input.errorValue)
      }
    }
    if case .sequence(var steps) = signal, !steps.isEmpty {
      edit(&steps[0])
      signal = .sequence(steps)
    } else {
      edit(&signal)
    }
    tree["signals"]?[lane.input.name] = signal
  }

  /// A service input: one response per call, in order.
  private static func write(_ answers: CounterexampleInputs.Answers, into tree: inout YAMLTree, scenario: Scenario) {
    var responses: [YAMLTree] = []
    for answer in answers.answers {
      let error = answer.first { if case .error = $0.event { true } else { false } }
      var printer = MarblePrinter(
        grammar: scenario.grammar, legend: Legend(layers: [scenario.legend]), errorValue: scenario.errorValue)
      let printed = printer.print(answer)
      var response = YAMLTree.mapping([.init(key: .key("cold"), value: .string(printed.text))])
      response["values"] = legend(printed.newEntries)
      if let error, case .error(let value) = error.event, printed.errorValue != nil {
        response["error"] = .value(value)
      }
      responses.append(response)
    }
    tree["services"]?[answers.input.name] = .mapping([.init(key: .key("responses"), value: .sequence(responses))])
  }

  /// The written timeline without the actions on explored inputs, then the generated actions.
  private static func writeTimeline(_ variant: ScenarioVariant, into tree: inout YAMLTree) {
    var items: [YAMLTree] = []
    if case .sequence(let written)? = tree["timeline"] {
      items = written.compactMap { keeping($0, without: variant.replacedTargets) }
    }
    let actions = variant.actions
    for action in actions {
      var item = YAMLTree.mapping([.init(key: .key("at"), value: .flow(String(action.frame)))])
      let target = YAMLTree.key(action.target)
      switch action.kind {
      case .execute:
        item["execute"] = target
        if !action.value.isNull { item["input"] = .value(action.value) }
      case .send: item["send"] = .mapping([.init(key: target, value: .value(action.value))])
      case .set: item["set"] = .mapping([.init(key: target, value: .value(action.value))])
      case .complete: item["complete"] = target
      case .fail: item["fail"] = .mapping([.init(key: target, value: .value(action.value))])
      }
      items.append(item)
    }
    tree["timeline"] = items.isEmpty ? nil : .sequence(items)
  }

  /// A written timeline item without its actions on `targets`; nil when none is left.
  private static func keeping(_ item: YAMLTree, without targets: Set<String>) -> YAMLTree? {
    guard !targets.isEmpty, case .mapping = item else { return item }
    var item = item
    if let command = item["execute"]?.text, targets.contains(command) {
      item["execute"] = nil
      item["input"] = nil
    }
    if let subject = item["complete"]?.text, targets.contains(subject) { item["complete"] = nil }
    for key in ["send", "set", "fail"] {
      guard case .mapping(let pairs)? = item[key] else { continue }
      let kept = pairs.filter { !targets.contains($0.key.text ?? "") }
      item[key] = kept.isEmpty ? nil : .mapping(kept)
    }
    guard case .mapping(let pairs) = item, pairs.contains(where: { $0.key.text != "at" }) else { return nil }
    return item
  }

  /// The observed lanes as expectations.
  private static func expectations(_ readings: [(name: String, events: [Recorded])], scenario: Scenario) -> YAMLTree {
    var pairs: [YAMLTree.Pair] = []
    for reading in readings {
      var printer = MarblePrinter(
        grammar: scenario.grammar, legend: Legend(layers: [scenario.legend]), errorValue: scenario.errorValue)
      let printed = printer.print(reading.events)
      var value = YAMLTree.string(printed.text)
      if !printed.newEntries.isEmpty || printed.errorValue != nil {
        value = .mapping([.init(key: .key("marble"), value: value)])
        value["values"] = legend(printed.newEntries)
        if let error = printed.errorValue { value["error"] = .value(error) }
      }
      pairs.append(.init(key: .key(reading.name), value: value))
    }
    return .mapping(pairs)
  }

  /// A `values:` legend of invented entries; nil when there is none.
  private static func legend(_ entries: [LegendEntry]) -> YAMLTree? {
    guard !entries.isEmpty else { return nil }
    return .mapping(
      entries.map { entry in
        switch entry.kind {
        case .value: .init(key: .key(entry.key), value: .value(entry.value))
        case .signal(let marble, _):
          .init(key: .key(entry.key), value: .scalar(marble, style: .doubleQuoted, tag: "!cold"))
        }
      })
  }
}
