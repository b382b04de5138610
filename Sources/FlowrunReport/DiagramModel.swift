import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
public import FlowrunScenario

/// A scenario's run as marble lanes: every signal, subject, property, command state, service
/// call log and expectation, with one shared legend. The text, SVG and HTML diagrams draw it.
///
/// The lanes come from the run's trace, so drawing a node never subscribes to it: shared nodes
/// (hot marbles, subjects, properties, command states, service calls) report every event they
/// send, and a named signal that is not shared is drawn once per subscription the scenario
/// itself made (its bindings, effects, commands and expectations), from the events of its last
/// step. A signal nobody subscribed to has an empty lane marked "not subscribed": subscribing to
/// draw it would run its side effects once more.
///
/// Subscriptions are drawn where they begin and end: a lane of a subscription made during the
/// run starts at its ▲, one disposed before it terminated ends at its ✕. A shared node (`share`
/// and its kin) is drawn once, with a small lane per subscriber under it; the inner signal of
/// each command execution gets a small lane under the frame that emitted it. With
/// ``Options/steps`` every step of a named signal's chain gets its own lane, with the values
/// it dropped, and each inner subscription of a `flatMap`-like step a small lane of its own.
public struct DiagramModel: Sendable {
  public enum Group: String, Sendable, CaseIterable {
    case signals, subjects, properties, commands, services, expectations
  }

  /// What to draw besides the nodes.
  public struct Options: Sendable, Equatable {
    /// One lane per step of each named signal's chain, and one per inner subscription.
    public var steps: Bool

    public init(steps: Bool = false) {
      self.steps = steps
    }
  }

  /// One event drawn on a lane.
  public struct Mark: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
      case value, error, completed, rejected, subscribed, unsubscribed
      /// A subscription drawn as its own lane begins (▲) or is disposed (✕).
      case started, disposed
      /// A value the lane's step swallowed (drawn faint; not an event of the lane).
      case dropped
      /// `library: async`: the consumer calls `next()` (on the lane of its pulls).
      case pulled
      /// `library: async`: the iterating task is cancelled (`;`).
      case cancelled
    }

    public var frame: Int
    public var kind: Kind
    /// The marble token: a legend key, `#`, `|`, `^`, `!`, `✕` for a rejected execution, `▲`
    /// and `✕` for a subscription's start and disposal, the dropped value's token, `;` for a
    /// cancellation, `•` for a pull.
    public var token: String
    /// The value in words, for the legend and tooltips.
    public var label: String
  }

  public struct Lane: Sendable {
    public var group: Group
    /// The node (`login.executing`, `validatedUsername #2`) or expectation target.
    public var name: String
    /// `expected` or `actual` for a failed expectation's two rows (`expected`, `model` and
    /// `code` when code bound into the run answered it); nil otherwise.
    public var role: String?
    /// Whether an expectation held (nil for other lanes).
    public var passed: Bool?
    public var note: String?
    public var marks: [Mark]

    /// The name the trace gives this lane's events (for linking trace lines and lanes).
    public var traceName: String
    /// 0 for a lane of its own, 1 for a small lane nested under the lane before it: a subscriber
    /// of a shared node, an inner signal, one subscription of a subscription log.
    public var depth = 0
    /// The frame the lane begins at, when it is a subscription made during the run.
    public var start: Int? = nil
    /// The frame it ends at, when it is a subscription disposed during the run.
    public var end: Int? = nil
    /// On the `code` row of an expectation answered by code: the frame where the code parts
    /// from the model (its first event that differs), drawn as a caret.
    public var parting: Int? = nil
  }

  public let options: Options
  public let scenario: Scenario
  public let result: ScenarioResult
  public let lanes: [Lane]
  /// The last frame drawn.
  public let lastFrame: Int
  /// `key = value` for every token drawn that is not its own value.
  public let legend: [(key: String, value: String)]
  public let trace: TraceRenderer

  public init(_ run: TracedRun) {
    self.init(run, options: Options())
  }

  public init(_ run: TracedRun, options: Options) {
    let scenario = run.result.scenario
    self.options = options
    self.scenario = scenario
    self.result = run.result
    self.trace = TraceRenderer(run, steps: options.steps)
    var builder = LaneBuilder(run: run, options: options)
    builder.build()
    // A value that is an inner signal drawn on a lane of its own says so wherever it is drawn.
    for index in builder.lanes.indices {
      for mark in builder.lanes[index].marks.indices
      where builder.drawnInner.contains(builder.lanes[index].marks[mark].token) {
        builder.lanes[index].marks[mark].label = LaneBuilder.innerSignal
      }
    }
    lanes = builder.lanes
    legend = builder.legend()
    let marksEnd = builder.lanes.flatMap(\.marks).map(\.frame).max() ?? 0
    lastFrame = max(marksEnd, run.result.stats.frames)
  }

  /// Lanes of `group`, in order.
  public func lanes(in group: Group) -> [Lane] {
    lanes.filter { $0.group == group }
  }

  /// The frames where some lane has a mark.
  public var framesWithEvents: Set<Int> {
    Set(lanes.flatMap { $0.marks.map(\.frame) })
  }
}

/// Collects the lanes of a traced run.
struct LaneBuilder {
  let run: TracedRun
  let options: DiagramModel.Options
  var lanes: [DiagramModel.Lane] = []
  var printer: MarblePrinter
  /// Tokens drawn, to list in the legend.
  var used: [String] = []
  /// Tokens of inner signals drawn on a lane of their own.
  var drawnInner: Set<String> = []
  /// The indices of the entries of each step owner, in order.
  let byOwner: [String: [Int]]
  let labels: StepLabels
  /// The values steps dropped (with ``DiagramModel/Options/steps`` only).
  let drops: [StepDrop]

  init(run: TracedRun, options: DiagramModel.Options) {
    self.run = run
    self.options = options
    let scenario = run.result.scenario
    printer = MarblePrinter(
      grammar: .flowrun, legend: Legend(layers: [scenario.legend]), errorValue: scenario.errorValue)
    var byOwner: [String: [Int]] = [:]
    for (index, entry) in run.entries.enumerated() {
      if let owner = entry.step?.owner { byOwner[owner, default: []].append(index) }
    }
    self.byOwner = byOwner
    labels = StepLabels(scenario)
    drops = options.steps ? StepDrop.find(in: run.entries, labels: labels) : []
  }

  var entries: [TraceEntry] { run.entries }

  mutating func build() {
    let nodes = run.result.scenario.nodes
    for node in nodes where node.kind == .signal { addSignal(node) }
    for node in nodes where node.kind == .subject {
      add(.subjects, node.name, events: nodeEvents(node.name), state: node.initial)
    }
    for node in nodes where node.kind == .property {
      add(.properties, node.name, events: nodeEvents(node.name), state: node.initial ?? .null)
    }
    for node in nodes where node.kind == .command { addCommand(node.name) }
    for node in nodes where node.kind == .service {
      add(.services, node.name + ".calls", events: nodeEvents(node.name + ".calls"), state: nil)
    }
    for expectation in run.result.expectations { addExpectation(expectation) }
  }

  /// The events a shared node sent, by frame (setup at frame 0).
  func nodeEvents(_ name: String) -> [(action: Int, recorded: Recorded)] {
    entries.compactMap { entry in
      guard case .node = entry.kind, entry.node == name, let event = entry.event else { return nil }
      return (entry.action, Recorded(frame: entry.frame, event: event))
    }
  }

  /// The indices of the entries where the shared node `name` sent an event.
  func nodeEntries(_ name: String) -> [Int] {
    entries.indices.filter {
      if case .node = entries[$0].kind { return entries[$0].node == name && entries[$0].event != nil }
      return false
    }
  }

  /// Adds a lane; with `state`, the node holds a value: the lane starts with the value it held
  /// when setup ended (its last setup event, else `state`), then shows every later event.
  mutating func add(
    _ group: DiagramModel.Group, _ name: String, events: [(action: Int, recorded: Recorded)], state: Value?,
    note: String? = nil, traceName: String? = nil
  ) {
    var recorded: [Recorded]
    if let state {
      let setup = events.filter { $0.action == 0 }.last?.recorded.event ?? .next(state)
      recorded = [Recorded(frame: 0, event: setup)] + events.filter { $0.action > 0 }.map(\.recorded)
    } else {
      recorded = events.map(\.recorded)
    }
    lanes.append(
      DiagramModel.Lane(
        group: group, name: name, role: nil, passed: nil, note: note, marks: marks(recorded),
        traceName: traceName ?? name))
  }

  mutating func addCommand(_ name: String) {
    add(.commands, name + ".executing", events: nodeEvents(name + ".executing"), state: .bool(false))
    add(.commands, name + ".enabled", events: nodeEvents(name + ".enabled"), state: .bool(true))
    add(.commands, name + ".executions", events: nodeEvents(name + ".executions"), state: nil)
    addInnerSignals(command: name, entries: nodeEntries(name + ".executions"))
    add(.commands, name + ".values", events: nodeEvents(name + ".values"), state: nil)
    add(.commands, name + ".errors", events: nodeEvents(name + ".errors"), state: nil)
    let rejected = entries.filter {
      if case .rejected = $0.kind { return $0.node == name }
      return false
    }
    guard !rejected.isEmpty else { return }
    let marks = rejected.map {
      DiagramModel.Mark(frame: $0.frame, kind: .rejected, token: "✕", label: "execute rejected (disabled)")
    }
    lanes.append(
      DiagramModel.Lane(
        group: .commands, name: name + " rejected", role: nil, passed: nil, note: "executions refused",
        marks: marks, traceName: name))
  }

  mutating func addExpectation(_ expectation: ExpectationResult) {
    let spec = expectation.spec
    switch (spec.expected, expectation.actual) {
    case (.events(let expected), .events(let actual)):
      let actualMarks = Self.cancelling(marks(actual.events), at: expectation.cancelled)
      if expectation.passed {
        lanes.append(lane(spec.target, role: nil, passed: true, actualMarks))
      } else if let model = expectation.model {
        // Code bound into the run: expected, the model (the declared graph alone), the code.
        lanes.append(lane(spec.target, role: "expected", passed: false, marks(expected.events)))
        lanes.append(lane(spec.target, role: "model", passed: false, marks(model.events)))
        var code = lane(spec.target, role: "code", passed: false, actualMarks)
        code.parting = Self.parting(model: model.events, code: actual.events)
        lanes.append(code)
      } else {
        lanes.append(
          lane(spec.target, role: "expected", passed: false, Self.cancelling(marks(expected.events), at: spec.cancel)))
        lanes.append(lane(spec.target, role: "actual", passed: false, actualMarks))
      }
      if let pulls = expectation.pulls { addPulls(pulls, of: spec.target) }
    case (.subscriptions(let expected, _), .subscriptions(let actual)):
      let rows = expectation.passed ? [(nil as String?, actual)] : [("expected", expected), ("actual", actual)]
      for (role, entries) in rows {
        let marks = entries.flatMap { entry -> [DiagramModel.Mark] in
          var marks = [DiagramModel.Mark(frame: entry.subscribed, kind: .subscribed, token: "^", label: "subscribed")]
          if let end = entry.unsubscribed {
            marks.append(DiagramModel.Mark(frame: end, kind: .unsubscribed, token: "!", label: "unsubscribed"))
          }
          return marks
        }
        lanes.append(lane(spec.target, role: role, passed: expectation.passed, marks))
        if entries.count > 1 { addSubscriptionPairs(entries) }
      }
    default:
      break
    }
  }

  /// `marks` with the cancellation of the iterating task (`;`) at `frame`, before the end it
  /// causes in that frame.
  static func cancelling(_ marks: [DiagramModel.Mark], at frame: Int?) -> [DiagramModel.Mark] {
    guard let frame else { return marks }
    var marks = marks
    let index = marks.firstIndex { $0.frame >= frame } ?? marks.count
    marks.insert(
      DiagramModel.Mark(frame: frame, kind: .cancelled, token: ";", label: "the iterating task is cancelled"),
      at: index)
    return marks
  }

  /// The small lane of an expectation's consumer's pulls (`library: async`), under its lane.
  mutating func addPulls(_ pulls: [Int], of target: String) {
    let marks = pulls.map {
      DiagramModel.Mark(frame: $0, kind: .pulled, token: "•", label: "the consumer calls next()")
    }
    var pullLane = DiagramModel.Lane(
      group: .expectations, name: "pulls", role: nil, passed: nil, note: "next()", marks: marks,
      traceName: target)
    pullLane.depth = 1
    lanes.append(pullLane)
  }

  /// The frame of the first event where `code` differs from `model`; nil when they agree.
  static func parting(model: [Recorded], code: [Recorded]) -> Int? {
    let count = max(model.count, code.count)
    guard let index = (0..<count).first(where: { $0 >= model.count || $0 >= code.count || model[$0] != code[$0] })
    else { return nil }
    return min(index < model.count ? model[index].frame : .max, index < code.count ? code[index].frame : .max)
  }

  func lane(_ name: String, role: String?, passed: Bool, _ marks: [DiagramModel.Mark]) -> DiagramModel.Lane {
    DiagramModel.Lane(
      group: .expectations, name: name, role: role, passed: passed, note: nil, marks: marks,
      traceName: name)
  }

  /// The marks of `events`, with tokens from the shared printer.
  mutating func marks(_ events: [Recorded]) -> [DiagramModel.Mark] {
    events.map { recorded in
      switch recorded.event {
      case .next(let value):
        return DiagramModel.Mark(
          frame: recorded.frame, kind: .value, token: token(value), label: LaneBuilder.describe(value))
      case .error(let value):
        return DiagramModel.Mark(
          frame: recorded.frame, kind: .error, token: "#", label: "error " + LaneBuilder.describe(value))
      case .completed:
        return DiagramModel.Mark(frame: recorded.frame, kind: .completed, token: "|", label: "completed")
      }
    }
  }

  /// How the legend and tooltips name an inner signal that has a small lane of its own.
  static let innerSignal = "an inner signal (lane below)"

  static func describe(_ value: Value) -> String {
    if case .signal(let signal) = value, signal.events == nil { return "an inner signal" }
    return ExpectationDiff.describe(value)
  }

  /// The token the shared printer gives `value` (the legend lists it).
  mutating func token(_ value: Value) -> String {
    let token = printer.print([Recorded(frame: 0, event: .next(value))]).cells.first?.text ?? "?"
    if !used.contains(token) { used.append(token) }
    return token
  }

  /// `key = value` for each token drawn that stands for another value, in the order drawn.
  func legend() -> [(key: String, value: String)] {
    var table: [String: String] = [:]
    for entry in run.result.scenario.legend where table[entry.key] == nil {
      table[entry.key] = LaneBuilder.describe(entry.value)
    }
    for entry in printer.assigned {
      switch entry.kind {
      case .value: table[entry.key] = LaneBuilder.describe(entry.value)
      case .signal(let marble, _): table[entry.key] = "!cold \(Value.quoted(marble))"
      }
    }
    for key in drawnInner { table[key] = LaneBuilder.innerSignal }
    return used.compactMap { token in
      let key = token.hasPrefix("'") ? String(token.dropFirst().dropLast()) : token
      guard let value = table[key] else { return nil }
      return (token, value)
    }
  }
}
