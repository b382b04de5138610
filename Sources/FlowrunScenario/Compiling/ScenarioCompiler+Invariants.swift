public import FlowrunCore
public import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML

/// An invariant: an expression over the current values of named nodes that must hold after
/// every frame in which anything happened (`invariants:`).
public struct InvariantSpec: Sendable {
  /// The name given with `name:`, else the expression as written.
  public let name: String
  /// The expression as written.
  public let text: String
  /// Where the expression is: failures are placed here.
  public let location: SourceLocation
  /// The names the expression reads, in declaration order.
  public let names: [String]
  let expression: StepExpression
  /// The scope slot of each of `names`.
  let slots: [Int]
}

/// Whether an invariant held, and where it first failed.
public struct InvariantResult: Sendable {
  public let spec: InvariantSpec
  /// The first failure; nil when the invariant held after every frame.
  public let violation: InvariantViolation?

  public var passed: Bool { violation == nil }
}

/// The first frame after which an invariant did not hold.
public struct InvariantViolation: Sendable {
  /// A name the invariant reads, with its value or its events.
  public struct Reading: Sendable {
    public let name: String
    /// The latest value the name had when the invariant failed (null before its first value).
    public let value: Value
    /// Its events from frame 0 up to and including the failing frame.
    public let events: EventTape
  }

  public let frame: Int
  /// Why the expression did not give `true`: nil when it gave `false`, else the evaluation's
  /// error (`nil.count`, not a Bool…).
  public let problem: String?
  /// Every name the expression reads, in declaration order.
  public let readings: [Reading]

  /// The message of the failure, for diagnostics and reports: `invariant 'x' failed at frame 3`.
  public func message(for spec: InvariantSpec) -> String {
    var text = "invariant '\(spec.name)' failed at frame \(frame)"
    if let problem { text += ": \(problem)" }
    return text
  }
}

extension Scenario {
  /// The invariants, in file order.
  public var invariants: [InvariantSpec] { plan.invariants }
}

// MARK: - Loading

extension ScenarioCompiler {
  /// `invariants:`: a list of `{ name, that }` or bare expressions over the declared names.
  func compileInvariants(_ node: YAMLNode) {
    guard let items = context.sequence(node, "'invariants'") else { return }
    let names = invariantScopeNames()
    let scope = ExpressionScope(parameters: .none, properties: names, maxDepth: expressionDepth)
    for item in items {
      var name: String?
      var expressionNode = item
      if let pairs = item.mappingPairs {
        context.checkKeys(pairs, allowed: ["name", "that"], in: "an invariant")
        if let nameNode = item["name"] { name = context.string(nameNode, "an invariant's 'name'") }
        guard let that = item["that"] else {
          context.error(.invariantNeedsThat, at: item)
          continue
        }
        expressionNode = that
      }
      guard let text = context.string(expressionNode, "an invariant") else { continue }
      let compiled: CompiledExpression
      do throws(ExpressionError) {
        compiled = try CompiledExpression(text, scope: scope)
      } catch {
        context.error(error, in: expressionNode)
        continue
      }
      let slots = compiled.referencedProperties
      for slot in slots where plan.invariantSources[slot] == nil {
        guard let (source, _) = resolveReference(names[slot], at: expressionNode) else { continue }
        plan.invariantSources[slot] = source
      }
      let step = StepExpression(expression: compiled, node: expressionNode, location: expressionNode.start)
      plan.invariants.append(
        InvariantSpec(
          name: name ?? text, text: text, location: expressionNode.start, names: slots.map { names[$0] },
          expression: step, slots: slots))
    }
  }

  /// The names an invariant may read: every signal, subject and property, and the derived names
  /// of commands and services, in declaration order.
  private func invariantScopeNames() -> [String] {
    var names: [String] = []
    for (name, declaration) in declarations {
      switch declaration.kind {
      case .signal, .subject, .property: names.append(name)
      case .command: names += CommandState.allCases.map { "\(name).\($0.rawValue)" }
      case .service: names.append("\(name).calls")
      }
    }
    return names
  }
}

// MARK: - Running

/// Observes the names a scenario's invariants read and checks them after each frame.
///
/// An invariant reading a signal or subject subscribes to it once, after the expectations, as
/// an expectation would (a property is observed without a subscription of its binding).
final class InvariantMonitor: PropertyReader {
  private let invariants: [InvariantSpec]
  private let expressions: [CompiledExpression]
  // Unowned: the graph owns its invariant monitor and outlives the run.
  private unowned let graph: Graph
  /// The observer of each scope slot an invariant reads, by slot.
  private var observers: [NameObserver?] = []
  private var violations: [InvariantViolation?]
  /// Made once per run (it holds this monitor: `tearDown` lets it go).
  private var environment: EvalEnvironment?

  init(scenario: Scenario, graph: Graph) {
    invariants = scenario.plan.invariants
    expressions = invariants.map(\.expression.expression)
    self.graph = graph
    violations = Array(repeating: nil, count: invariants.count)
  }

  /// Subscribes to every name read, in declaration order: to the code's output where `bound`
  /// gives one for the name (code bound into the run), else to the declared node.
  func start(bound: ((String) -> (any Source)?)? = nil) {
    let sources = graph.scenario.plan.invariantSources.sorted { $0.key < $1.key }
    observers = Array(repeating: nil, count: (sources.last?.key ?? -1) + 1)
    var names: [Int: String] = [:]
    for invariant in invariants {
      for (name, slot) in zip(invariant.names, invariant.slots) { names[slot] = name }
    }
    for (slot, source) in sources {
      let observer = NameObserver(runtime: graph.runtime)
      observers[slot] = observer
      let code = names[slot].flatMap { bound?($0) }
      observer.start(code ?? graph.source(for: source))
    }
    environment = EvalEnvironment(properties: self)
  }

  func propertyValue(at slot: Int) -> Value {
    slot < observers.count ? observers[slot]?.latest ?? .null : .null
  }

  /// Checks every invariant that has held so far, after `frame`.
  func check(frame: Int) {
    guard let environment else { return }
    let context = EvalContext(value: .null, index: 0, now: frame, environment: environment)
    for index in expressions.indices where violations[index] == nil {
      var problem: String?
      do throws(EvaluationError) {
        if try expressions[index].evaluateCondition(context, role: "invariant") { continue }
      } catch {
        problem = error.message
      }
      let invariant = invariants[index]
      violations[index] = InvariantViolation(
        frame: frame, problem: problem,
        readings: zip(invariant.names, invariant.slots).map { name, slot in
          InvariantViolation.Reading(
            name: name, value: propertyValue(at: slot), events: observers[slot]?.events ?? EventTape())
        })
    }
  }

  var results: [InvariantResult] {
    zip(invariants, violations).map { InvariantResult(spec: $0, violation: $1) }
  }

  func tearDown() {
    environment = nil
    for observer in observers { observer?.dispose() }
  }
}

/// Keeps the latest value of a name and its events.
private final class NameObserver: Observer {
  private(set) var latest: Value = .null
  private(set) var events = EventTape()
  private let link = UpstreamLink()
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  private unowned let runtime: Runtime

  init(runtime: Runtime) {
    self.runtime = runtime
  }

  func start(_ source: any Source) {
    link.attach(source.subscribe(self))
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if case .next(let value) = event { latest = value }
    if event.isTerminal { link.finish() }
    var tape = EventTape()
    swap(&tape, &events)
    tape.append(Recorded(frame: runtime.now, event: event))
    swap(&tape, &events)
  }

  func dispose() {
    link.dispose()
  }
}

extension Diagnostic.Message {
  fileprivate static let invariantNeedsThat: Self = "an invariant needs 'that: <expression>'"
}
