public import FlowrunCore
public import FlowrunDiagnostics
import FlowrunYAML

/// What `flowrun explore` may vary (`explore:`): the length of each generated run and the
/// inputs it generates.
public struct ExploreSpec: Sendable {
  /// What an explored input is, and so what is generated for it.
  public enum Kind: Sendable, Equatable {
    /// A signal whose first step is the `index`-th hot marble: a generated marble replaces it.
    case hot(index: Int)
    /// A service: each call gets a generated answer (a value or an error after a delay).
    case service
    /// Timeline actions: `execute` of a command, `send` into a subject, `set` of a property.
    case command, subject, property
  }

  /// How a generated hot marble or subject may end.
  public enum End: String, Sendable, CaseIterable {
    case completed, error
  }

  public struct Input: Sendable {
    public var name: String
    public var kind: Kind
    /// The values events carry (inputs of `execute`; answers of a service).
    public var values: [Value]
    /// A service's failures: answers that are errors with these values.
    public var errors: [Value]
    /// How many events (or actions) a run has.
    public var events: ClosedRange<Int>
    /// A service's delay between a call and its answer, in frames.
    public var delay: ClosedRange<Int>
    /// How a marble or subject may end (none, or one of these, at a frame after its events).
    public var ends: [End]
    /// The value of an error end.
    public var errorValue: Value
    /// The input's key in `explore.inputs`.
    public var location: SourceLocation
  }

  /// Inputs happen in frames `0..<frames`, and each run ends at frame `frames`.
  public var frames: Int
  public var inputs: [Input]
  public var location: SourceLocation
}

extension Scenario {
  /// The scenario's `explore:`, if it has one.
  public var explore: ExploreSpec? { plan.explore }
}

// MARK: - Loading

extension ScenarioCompiler {
  /// `explore: { frames, inputs }`.
  func compileExplore(_ node: YAMLNode) {
    guard let pairs = context.mapping(node, "'explore'") else { return }
    context.checkKeys(pairs, allowed: ["frames", "inputs"], in: "'explore'")
    var spec = ExploreSpec(frames: 30, inputs: [], location: node.start)
    if let frames = node["frames"] { spec.frames = self.frames(frames, "'frames'", minimum: 1) ?? spec.frames }
    guard let inputs = node["inputs"] else {
      context.error(.exploreNeedsInputs, at: node)
      return
    }
    guard let entries = context.mapping(inputs, "'inputs'") else { return }
    for entry in entries {
      guard let name = context.string(entry.key, "an input name") else { continue }
      if let input = exploreInput(name, key: entry.key, value: entry.value) { spec.inputs.append(input) }
    }
    plan.explore = spec
  }

  private func exploreInput(_ name: String, key: YAMLNode, value: YAMLNode) -> ExploreSpec.Input? {
    guard let kind = exploreKind(name, at: key) else { return nil }
    guard let pairs = context.mapping(value, "input '\(name)'") else { return nil }
    let allowed: [String]
    switch kind {
    case .hot, .subject: allowed = ["values", "events", "end", "error"]
    case .service: allowed = ["values", "errors", "delay"]
    case .command, .property: allowed = ["values", "events"]
    }
    context.checkKeys(pairs, allowed: allowed, in: "input '\(name)'")
    var input = ExploreSpec.Input(
      name: name, kind: kind, values: [], errors: [], events: 0...3, delay: 1...3, ends: [], errorValue: errorValue,
      location: key.start)
    if let values = value["values"] { input.values = valueList(values, "'values'") ?? [] }
    if let errors = value["errors"] { input.errors = valueList(errors, "'errors'") ?? [] }
    if let events = value["events"] { input.events = range(events, "'events'") ?? input.events }
    if let delay = value["delay"] { input.delay = range(delay, "'delay'") ?? input.delay }
    if let error = value["error"] { input.errorValue = context.value(error) }
    if let end = value["end"], let items = context.sequence(end, "'end'") {
      for item in items {
        guard let text = context.string(item, "an end") else { continue }
        guard let end = ExploreSpec.End(rawValue: text) else {
          context.error(.unknownEnd(text), at: item)
          continue
        }
        if !input.ends.contains(end) { input.ends.append(end) }
      }
    }
    switch kind {
    case .command:
      if input.values.isEmpty { input.values = [.null] }
    case .service:
      if input.values.isEmpty, input.errors.isEmpty {
        context.error(.inputNeedsAnswers(name), at: key)
        return nil
      }
    case .hot, .subject, .property:
      if input.values.isEmpty {
        context.error(.inputNeedsValues(name), at: key)
        return nil
      }
    }
    return input
  }

  /// What `name` names, as an explored input.
  private func exploreKind(_ name: String, at node: YAMLNode) -> ExploreSpec.Kind? {
    guard let declaration = declarations[name] else {
      context.error(.unknownInput(name).didYouMean(closestName(to: name, among: declarations.keys)), at: node)
      return nil
    }
    switch declaration.kind {
    case .signal:
      compileNamedSignal(name)
      var plan = self.plan.signals[name]
      while case .apply(let input, _)? = plan { plan = input }
      if case .source(let source)? = plan, case .hot(let index)? = source.subscriptions { return .hot(index: index) }
      context.error(.notAnInput(name), at: node)
      return nil
    case .subject: return .subject
    case .property: return .property
    case .command: return .command
    case .service: return .service
    }
  }

  private func valueList(_ node: YAMLNode, _ what: String) -> [Value]? {
    guard let items = context.sequence(node, what) else { return nil }
    return items.map { context.value($0) }
  }

  /// `n` or `a..b` (whole numbers, `a ≤ b`).
  private func range(_ node: YAMLNode, _ what: String) -> ClosedRange<Int>? {
    if case .int(let value)? = node.resolvedScalar, value >= 0 { return value...value }
    if case .string(let text)? = node.resolvedScalar {
      let parts = text.split(separator: ".", omittingEmptySubsequences: false)
      if parts.count == 3, parts[1].isEmpty, let low = Int(parts[0]), let high = Int(parts[2]), low >= 0, low <= high {
        return low...high
      }
    }
    context.error(.notACountOrRange(what, found: context.describe(node)), at: node)
    return nil
  }
}

// MARK: - Variants

/// Inputs that replace or extend a scenario's own for one run of `flowrun explore`.
public struct ScenarioVariant: Sendable {
  /// A timeline action added to the written timeline.
  public struct Action: Sendable {
    public enum Kind: Sendable, Equatable {
      case execute, send, set, complete, fail
    }

    public var frame: Int
    public var kind: Kind
    /// The command, subject or property acted on.
    public var target: String
    /// The input, value, or error value.
    public var value: Value
    /// Where the action comes from (its explored input), for diagnostics and orders.
    public var location: SourceLocation

    public init(frame: Int, kind: Kind, target: String, value: Value, location: SourceLocation) {
      self.frame = frame
      self.kind = kind
      self.target = target
      self.value = value
      self.location = location
    }
  }

  /// The events of hot marbles, by hot index.
  public var hotEvents: [Int: EventTape] = [:]
  /// The answers of services, by name: each answer's events with frames counted from the call,
  /// in call order; the last repeats, and an empty list never answers.
  public var answers: [String: [[Recorded]]] = [:]
  /// Actions run after the written timeline's actions of the same frame, in this order.
  public var actions: [Action] = []
  /// Commands, subjects and properties whose written timeline actions are dropped (the
  /// explored ones: `actions` replace them).
  public var replacedTargets: Set<String> = []
  /// The end of the run (`until`); nil keeps the scenario's.
  public var until: Int?

  public init() {}
}

extension Scenario {
  /// This scenario with `variant`'s inputs (the compiled plan is shared: nothing is loaded or
  /// compiled again). Only the expectations of slow consumers (`consumer: { busy: n }`,
  /// `library: async`) are kept: their pace changes what the graph does, so generated runs and
  /// same-frame orders see it too; their outcomes are not checked (explore checks invariants).
  public func with(_ variant: ScenarioVariant) -> Scenario {
    var plan = self.plan
    if !variant.hotEvents.isEmpty {
      var events = plan.resolvedHotEvents
      if events.count < plan.hotMarbles.count {
        events += Array(repeating: nil, count: plan.hotMarbles.count - events.count)
      }
      for (index, tape) in variant.hotEvents where index < events.count { events[index] = tape }
      plan.resolvedHotEvents = events
    }
    for index in plan.services.indices {
      if let answers = variant.answers[plan.services[index].name] {
        plan.services[index].responder = .answers(answers)
      }
    }
    if !variant.replacedTargets.isEmpty {
      plan.timeline = plan.timeline.compactMap { entry in
        var entry = entry
        entry.actions.removeAll { variant.replacedTargets.contains($0.target) }
        return entry.actions.isEmpty ? nil : entry
      }
    }
    for action in variant.actions {
      let step: ActionPlan =
        switch action.kind {
        case .execute: .execute(command: action.target, input: action.value)
        case .send: .send(subject: action.target, value: action.value)
        case .set: .set(property: action.target, value: action.value)
        case .complete: .complete(subject: action.target)
        case .fail: .fail(subject: action.target, value: action.value)
        }
      plan.timeline.append(TimelinePlan(at: action.frame, actions: [step], location: action.location))
    }
    if let until = variant.until { plan.until = until }
    return Scenario(
      path: path, name: name, description: description, tags: tags, location: location, tick: tick,
      grammar: grammar, fileLegend: fileLegend, errorValue: errorValue,
      expectations: expectations.filter { $0.node["consumer"] != nil }, file: file, plan: plan)
  }
}

extension ActionPlan {
  /// The command, subject or property the action acts on.
  var target: String {
    switch self {
    case .send(let subject, _), .complete(let subject), .fail(let subject, _): subject
    case .set(let property, _): property
    case .execute(let command, _): command
    }
  }
}

extension Diagnostic.Message {
  fileprivate static let exploreNeedsInputs: Self =
    "'explore' needs 'inputs': the hot signals, services, commands, subjects or properties to vary"
  fileprivate static func unknownEnd(_ text: String) -> Self { "unknown end '\(text)'; use 'completed' or 'error'" }
  fileprivate static func inputNeedsAnswers(_ name: String) -> Self {
    "input '\(name)' needs 'values' or 'errors' to answer with"
  }
  fileprivate static func inputNeedsValues(_ name: String) -> Self {
    "input '\(name)' needs 'values': a non-empty list of the values its events carry"
  }
  fileprivate static func unknownInput(_ name: String) -> Self { "unknown input '\(name)'" }
  fileprivate static func notAnInput(_ name: String) -> Self {
    "input '\(name)' must be a signal whose first step is 'hot', a subject, a property, a command or a service"
  }
  fileprivate static func notACountOrRange(_ what: String, found: String) -> Self {
    "\(what) must be a count such as 3 or a range such as 0..4, found \(found)"
  }
}
