public import FlowrunCore
public import FlowrunDiagnostics
public import FlowrunMarbles
public import FlowrunYAML
import OrderedCollections

/// One loaded and validated scenario, ready to run.
///
/// Its parts live in one immutable object: every graph, run and result holds the scenario, and
/// a copy then retains that one object instead of each of its many parts.
public struct Scenario: Sendable {
  private var parts: Parts

  public var path: String { parts.fields.path }
  public var name: String { parts.fields.name }
  public var description: String? { parts.fields.description }
  public var tags: [String] { parts.fields.tags }
  /// Where the scenario's document starts.
  public var location: SourceLocation { parts.fields.location }
  public var tick: Tick { parts.fields.tick }
  public var grammar: MarbleGrammar { parts.fields.grammar }
  /// The file's `values` as expectations see them (signal values as their marbles' events).
  public var fileLegend: ExpectedLegend { parts.fields.fileLegend }
  /// The file's `values` in file order (made on each use).
  public var legend: [(key: String, value: Value)] { fileLegend.entries }
  /// The file's `error`: the value of `#` unless a marble says otherwise.
  public var errorValue: Value { parts.fields.errorValue }
  /// The expectations, in file order.
  public var expectations: [ExpectationSpec] { parts.fields.expectations }
  /// The YAML file, for placing run-time diagnostics.
  public var file: YAMLFile { parts.fields.file }
  /// The scenario's `until` frame, if it has one (the end of its time; without it the run
  /// ends when nothing is scheduled).
  public var until: Int? { plan.until }
  /// Whether work still pending at the run's end fails the run (`exhaustive:`,
  /// docs/semantics.md "The run's end").
  public var isExhaustive: Bool { plan.exhaustive }

  /// Makes the run exhaustive (`flowrun run --exhaustive`).
  public mutating func makeExhaustive() {
    plan.exhaustive = true
  }

  /// The compiled graph; changing it (limits given on the command line) makes new parts.
  var plan: ScenarioPlan {
    get { parts.fields.plan }
    set {
      var fields = parts.fields
      fields.plan = newValue
      parts = Parts(fields: fields)
    }
  }

  /// The library the scenario was read in (`library:`, or `flowrun run --library`); nil for the
  /// default, which `library: rxjs` states.
  public var library: Library? { plan.library }
  /// The library the file itself names, if any.
  public var declaredLibrary: Library? { plan.declaredLibrary }
  /// The ids of the docs rows (docs/libraries.md) whose meanings this scenario used: the
  /// library's redefined and added steps, subjects and properties, in file order.
  public var libraryRows: [String] { plan.libraryRows }

  /// The docs rows whose meanings the expectation of `target` depends on: those used by the
  /// declared name it reads (`fetch` for `fetch.executing`) and by every name that one refers
  /// to, directly or not; for a subscription log (`request.subscriptions`), also those of every
  /// name that reads it, whose steps make and end its subscriptions; and those of the whole
  /// scenario.
  public func libraryRows(for target: String) -> [String] {
    var base = target
    let declared = Set(plan.references.flatMap { [$0.from, $0.to] } + plan.libraryRowUses.compactMap(\.owner))
    while !declared.contains(base), let dot = base.lastIndex(of: ".") { base = String(base[..<dot]) }
    var reached = Self.reach(
      from: base, along: Dictionary(grouping: plan.references, by: \.from).mapValues { $0.map(\.to) })
    if target.hasSuffix(".subscriptions") {
      reached.formUnion(
        Self.reach(from: base, along: Dictionary(grouping: plan.references, by: \.to).mapValues { $0.map(\.from) }))
    }
    var rows: [String] = []
    for use in plan.libraryRowUses where use.owner.map(reached.contains) ?? true && !rows.contains(use.row) {
      rows.append(use.row)
    }
    return rows
  }

  private static func reach(from start: String, along edges: [String: [String]]) -> Set<String> {
    var reached: Set<String> = [start]
    var pending = [start]
    while let name = pending.popLast() {
      for next in edges[name] ?? [] where reached.insert(next).inserted { pending.append(next) }
    }
    return reached
  }

  init(
    path: String, name: String, description: String?, tags: [String], location: SourceLocation, tick: Tick,
    grammar: MarbleGrammar, fileLegend: ExpectedLegend, errorValue: Value, expectations: [ExpectationSpec],
    file: YAMLFile, plan: ScenarioPlan
  ) {
    parts = Parts(
      fields: Fields(
        path: path, name: name, description: description, tags: tags, location: location, tick: tick,
        grammar: grammar, fileLegend: fileLegend, errorValue: errorValue, expectations: expectations, file: file,
        plan: plan))
  }

  private struct Fields: Sendable {
    let path: String
    let name: String
    let description: String?
    let tags: [String]
    let location: SourceLocation
    let tick: Tick
    let grammar: MarbleGrammar
    let fileLegend: ExpectedLegend
    let errorValue: Value
    let expectations: [ExpectationSpec]
    let file: YAMLFile
    var plan: ScenarioPlan
  }

  private final class Parts: Sendable {
    let fields: Fields

    init(fields: Fields) {
      self.fields = fields
    }
  }
}

/// What an expectation says: its target and the expected events or subscriptions.
public struct ExpectationSpec: Sendable {
  public enum Expected: Sendable {
    /// Events (the marble as written is `marbleNode`'s text).
    case events(EventTape)
    /// A subscription log: one `(subscribe, unsubscribe?)` per expected subscription.
    case subscriptions([SubscriptionLog.Entry], marbles: [String])
  }

  public let target: String
  public let location: SourceLocation
  public let expected: Expected
  /// The expectation's own `values`, resolved, in file order.
  public let localLegend: [(key: String, value: Value)]
  /// The file's legend, looked up after `localLegend`.
  public let fileLegend: ExpectedLegend
  /// The expectation's own `values` over the file's, in lookup order (made on each use:
  /// printing needs it, comparing does not).
  public var legend: [(key: String, value: Value)] { localLegend + fileLegend.entries }
  public let errorValue: Value
  /// The YAML scalar holding the marble, or for subscription logs the scalar or list of them
  /// (for `--update`).
  public let marbleNode: YAMLNode
  /// The expectation's whole value: the marble scalar, or the map holding `marble`.
  public let node: YAMLNode
  /// The expected marble(s) as written.
  public var expectedText: String {
    switch expected {
    // Read from the file when asked for: a long marble is megabytes, and comparing needs only
    // its events.
    case .events: marbleNode.scalarValue ?? ""
    case .subscriptions(_, let marbles): marbles.joined(separator: ", ")
    }
  }

  /// The `subscribe:` window, when given.
  let window: (subscribe: Int, unsubscribe: Int?)?
  let source: ExpectationSource
  /// `library: async`: the frame the marble's `;` cancels the iterating task at.
  public internal(set) var cancel: Int? = nil
  /// `library: async`: whether the marble's `,` set when the consumer pulls.
  public internal(set) var delaysPulls = false

  /// Whether this reads a service's call log (`<service>.calls`), which is recorded from the
  /// start of the run: a call made while the graph is set up is in it whatever the order of
  /// the expectations.
  var isCallLog: Bool {
    if case .signal(.reference(.serviceCalls)) = source { return true }
    return false
  }
}

/// What an expectation observes.
enum ExpectationSource: @unchecked Sendable {
  case signal(SignalPlan)
  case subscriptions(SubscriptionTarget)
}

/// Whose subscription log an expectation reads.
enum SubscriptionTarget: Sendable {
  /// The hot marble with this index.
  case hot(Int)
  /// A cold marble step, by its place in the file.
  case cold(SourceLocation)
  case subject(String)
}

/// Everything the runner instantiates.
struct ScenarioPlan: @unchecked Sendable {
  var fileLegend = LegendTable.empty
  var hotMarbles: [MarbleInput] = []
  /// The events of each hot marble when they hold no signal value, resolved at load (the
  /// marble's parsed items are then dropped: the events replace them).
  var resolvedHotEvents: [EventTape?] = []
  var signals: [String: SignalPlan] = [:]
  /// The names of `signals` in file order.
  var signalOrder: [String] = []
  /// Where each named signal is declared (its key), for budget diagnostics.
  var signalLocations: [String: SourceLocation] = [:]
  var subjects: [SubjectPlan] = []
  var properties: [PropertyPlan] = []
  var commands: [CommandPlan] = []
  var services: [ServicePlan] = []
  var effects: [EffectPlan] = []
  var timeline: [TimelinePlan] = []
  var until: Int?
  /// `exhaustive: true` (or `--exhaustive`): work still pending at the run's end fails it.
  var exhaustive = false
  var limits = RunLimits()
  /// The library whose names and meanings the scenario reads (libraries.md); nil: the default.
  var library: Library?
  var declaredLibrary: Library?
  /// Where the file says its library (for the note of a run under another one).
  var declaredLibraryLocation: SourceLocation?
  var libraryRows: [String] = []
  /// Who used each docs row: the declared name being compiled (nil: the whole scenario, such
  /// as Combine's `@Published` properties), so that `flowrun compare` names, for each
  /// expectation, only the rows of what it depends on.
  var libraryRowUses: [(row: String, owner: String?)] = []
  /// The names each declared name refers to, recorded as references are resolved.
  var references: [(from: String, to: String)] = []
  /// Every declared name something other than an expectation reads: resolved as a signal (by a
  /// signal, subject, property, command, effect, template, invariant …) or read by an expression
  /// (a property's current value). A bound run does not run the declared chain of a property
  /// that only bound expectations read (Runner.swift).
  var readNames: Set<String> = []
  var invariants: [InvariantSpec] = []
  /// What each scope slot an invariant reads observes (ScenarioCompiler+Invariants.swift).
  var invariantSources: [Int: SignalPlan] = [:]
  /// `explore:` (Explore.swift).
  var explore: ExploreSpec?
}

/// The guards of one run (`limit:`).
public struct RunLimits: Sendable, Equatable {
  public var time = 1_000_000
  public var steps = 10_000_000
  public var depth = 10_000
  public var events = 100_000
  /// Deliveries, memory and nesting (FlowrunCore/Engine/Budget.swift).
  public var budget = RunBudget()

  public init() {}
}

struct SubjectPlan {
  var name: String
  var kind: Subject.Kind
  var isRAC: Bool
  /// An RxSwift relay: it never terminates.
  var isRelay = false
  /// An `AsyncChannel` or an `AsyncStream` (`library: async`): each value goes to one consumer.
  var distribution: Subject.Distribution?
  var subscribeTo: SignalPlan?
  var location: SourceLocation
}

struct PropertyPlan {
  var name: String
  var initial: Value
  var binding: SignalPlan?
  var location: SourceLocation
}

struct CommandPlan {
  var name: String
  var enabled: SignalPlan?
  var concurrent: Bool
  /// RAC2's `RACCommand`, or RxSwiftCommunity `Action` under `library: rxswift`.
  var kind: Command.Kind = .racCommand
  var work: TemplatePlan
  var location: SourceLocation
}

struct ServicePlan {
  enum Responder {
    /// One template for every call (a bare signal or `cases`).
    case template(TemplatePlan)
    /// One template per call in order; the last repeats.
    case responses([TemplatePlan])
    /// One answer per call in order, as events counted from the call; the last repeats, and
    /// none means no answer (`flowrun explore`'s generated answers).
    case answers([[Recorded]])
  }

  var name: String
  var responder: Responder
  var location: SourceLocation
}

/// One action of an effect or the timeline.
enum ActionPlan {
  /// Sends a value (or, with nil, the event's value) into a subject.
  case send(subject: String, value: Value?)
  case set(property: String, value: Value?)
  case complete(subject: String)
  case fail(subject: String, value: Value)
  /// Executes a command with a literal input, or (nil) the event's value.
  case execute(command: String, input: Value?)
}

struct EffectPlan {
  var on: SignalPlan
  var when: StepExpression?
  var actions: [ActionPlan]
  var onError: [ActionPlan]?
  var onCompleted: [ActionPlan]?
  var at: Int?
  var location: SourceLocation
}

struct TimelinePlan {
  var at: Int
  var actions: [ActionPlan]
  var location: SourceLocation
}
