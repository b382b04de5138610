import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML
import OrderedCollections

/// The values a template binds (`outer`, `input`, `error`).
struct TemplateScope {
  var outer: Value = .null
  var input: Value = .null
  var error: Value = .null
  /// The value that made the innermost template (for `cases` and `with:`).
  var subject: Value = .null
  /// The index of that value in its subscription (`index` in a `when:`).
  var index = 0
  /// The signal or command whose template this is, for traces.
  var traceOwner: String?

  static let none = TemplateScope()
}

/// Lets expressions read the current value of properties by slot.
final class PropertyTable: PropertyReader {
  var properties: [Property] = []

  func propertyValue(at slot: Int) -> Value {
    properties[slot].value
  }
}

/// One run's instantiated graph: the shared nodes (hot marbles, subjects, properties) and the
/// recipes of named signals, built from the scenario's plan.
final class Graph {
  let scenario: Scenario
  let runtime: Runtime
  private(set) var hotSources: [HotSource] = []
  private(set) var subjects: [String: Subject] = [:]
  private(set) var properties: [String: Property] = [:]
  var commands: [String: Command] = [:]
  var services: [String: Service] = [:]
  /// The services the bound code calls (CodeBinding.swift): made on first call, their call
  /// logs replace the declared ones for `<service>.calls`.
  var codeServices: [String: Service] = [:]
  /// The bound code's handlers of each command's executes (CodeBinding.swift).
  var executeHandlers: [String: [(Value) -> Void]] = [:]
  let propertyTable = PropertyTable()
  private var signals: [String: any Source] = [:]
  private(set) var coldLogs: [SourceLocation: SubscriptionLog] = [:]
  private var coldEvents: [SourceLocation: [Recorded]] = [:]
  private var resolver: LegendResolver?
  /// Connections to make during setup, after the timeline is scheduled (RAC2 `replay` and
  /// `replayLast` connect eagerly): operators append here when instantiated.
  var eagerConnections: [() -> Void] = []
  /// Wraps each step for the tracer; nil (nothing wrapped) when the run is not traced.
  private(set) var tracing: GraphTracing?
  /// `library: async`: the frames where each paced expectation's consumer called `next()`, by
  /// target (ScenarioCompiler+ConsumerPace.swift).
  var pulls: [String: [Int]] = [:]

  init(scenario: Scenario, runtime: Runtime) {
    self.scenario = scenario
    self.runtime = runtime
    tracing = GraphTracing(runtime: runtime)
    let plan = scenario.plan
    signals.reserveCapacity(plan.signals.count)
    for (index, input) in plan.hotMarbles.enumerated() {
      let events = index < plan.resolvedHotEvents.count ? plan.resolvedHotEvents[index] : nil
      hotSources.append(
        HotSource(
          events: events ?? EventTape(resolveEvents(input)), owner: input.label, runtime: runtime,
          keepsEventsForLateSubscribers: plan.profile.consumersPull))
    }
    for subject in plan.subjects {
      subjects[subject.name] = Subject(
        kind: subject.kind, isRAC: subject.isRAC, ignoresTermination: subject.isRelay,
        distribution: subject.distribution,
        owner: NodeLabel(subject.name, at: subject.location), runtime: runtime)
    }
    for property in plan.properties {
      let node = Property(
        initial: property.initial, storesAfterSending: plan.profile.propertiesSendBeforeStoring,
        owner: NodeLabel(property.name, at: property.location), runtime: runtime)
      properties[property.name] = node
      propertyTable.properties.append(node)
    }
    makeCommandsAndServices()
  }

  private func resolveEvents(_ input: MarbleInput) -> [Recorded] {
    // Made when first needed: it indexes the whole file legend.
    var resolver =
      self.resolver
      // Unowned: the resolver is used only while the graph is built and runs.
      ?? LegendResolver(plan: scenario.plan) { [unowned self] input, events, hotIndex in
        if let hotIndex { return .signal(SignalValue(source: HotReference(graph: self, index: hotIndex))) }
        return .signal(SignalValue(source: ColdSource(events: events, owner: input.label, runtime: self.runtime)))
      }
    let events = resolver.events(of: input)
    self.resolver = resolver
    return events
  }

  /// Starts the hot marbles in file order (inline ones and `!hot` legend values alike).
  func startHotSources() {
    let order = scenario.plan.hotMarbles.indices.sorted {
      (scenario.plan.hotMarbles[$0].label.location?.offset ?? 0)
        < (scenario.plan.hotMarbles[$1].label.location?.offset ?? 0)
    }
    for index in order { hotSources[index].start() }
  }

  /// Instantiates every named signal, in file order, so eager connections are known.
  func instantiateNamedSignals() {
    for name in scenario.plan.signalOrder {
      _ = source(for: .signal(name))
    }
  }

  /// The subscription log of a `hot`/`cold` source or a subject.
  func log(of target: SubscriptionTarget) -> SubscriptionLog? {
    switch target {
    case .hot(let index): hotSources[index].log
    case .cold(let location): coldLogs[location]
    case .subject(let name): subjects[name]?.log
    }
  }

  // MARK: - Instantiation

  /// The named signal being instantiated, to label the nodes in budget diagnostics.
  private var currentLabel = NodeLabel("signal")

  /// The recipe for `plan`, with template names bound by `scope`, metered against the run's
  /// budgets (deliveries, memory, nesting; Budget.swift).
  ///
  /// Metering happens at the boundaries where work can multiply — a named signal, a template
  /// instance, what an expectation or effect subscribes to — not at every step of a chain, so
  /// a chain's per-event path carries one meter, not one per operator.
  func source(for plan: SignalPlan, scope: TemplateScope = .none) -> any Source {
    guard runtime.enterNesting(currentLabel) else { return ImmediateSource.never }
    defer { runtime.exitNesting() }
    return MeteredSource(step(for: plan, scope: scope), label: currentLabel, runtime: runtime)
  }

  /// The recipe for one step of a chain (traced when tracing), not metered on its own.
  func step(for plan: SignalPlan, scope: TemplateScope) -> any Source {
    guard let tracing else { return makeSource(for: plan, scope: scope) }
    return tracing.wrap(plan, scope: scope) { makeSource(for: plan, scope: scope) }
  }

  private func makeSource(for plan: SignalPlan, scope: TemplateScope) -> any Source {
    switch plan {
    case .reference(let reference):
      return source(for: reference)
    case .source(let source):
      return source.make(self, scope)
    case .apply(let input, let op):
      // The upstream first: the order in which a chain's nodes are made is the order of its
      // eager connections.
      let upstream = step(for: input, scope: scope)
      return op.make(self, upstream, scope)
    }
  }

  /// A `cold` marble's source; the sources made from one marble step share its events and its
  /// subscription log.
  func coldSource(_ input: MarbleInput) -> any Source {
    let location = input.label.location ?? scenario.location
    let log = coldLogs[location] ?? SubscriptionLog()
    coldLogs[location] = log
    let events = coldEvents[location] ?? resolveEvents(input)
    coldEvents[location] = events
    return ColdSource(events: events, owner: input.label, runtime: runtime, log: log)
  }

  private func source(for reference: Reference) -> any Source {
    switch reference {
    case .signal(let name):
      if let source = signals[name] { return source }
      if tracing == nil, case .reference(.signal(let target))? = scenario.plan.signals[name] {
        return renamedSource(name, target)
      }
      guard let plan = scenario.plan.signals[name] else { return ImmediateSource.never }
      let outerLabel = currentLabel
      currentLabel = NodeLabel(name, at: scenario.plan.signalLocations[name])
      var scope = TemplateScope.none
      scope.traceOwner = tracing == nil ? nil : name
      let made = tracing?.named(name) { self.source(for: plan, scope: scope) } ?? self.source(for: plan)
      currentLabel = outerLabel
      signals[name] = made
      return made
    case .subject(let name):
      return subjects[name] ?? ImmediateSource.never
    case .property(let name):
      return properties[name] ?? ImmediateSource.never
    case .command(let name, let state):
      return source(command: name, state)
    case .serviceCalls(let name):
      return (codeServices[name] ?? services[name])?.calls ?? ImmediateSource.never
    }
  }

  /// A named signal that only renames another (`b: { from: a }`) is the same recipe: it shares
  /// the node of the first signal along the chain of renamings that is more than a name, so a
  /// chain of any length adds no nested call when it is made, subscribed or delivers (a
  /// traced run keeps every name, to show each as a step).
  private func renamedSource(_ name: String, _ target: String) -> any Source {
    var names = [name]
    var current = target
    while signals[current] == nil, case .reference(.signal(let next))? = scenario.plan.signals[current],
      names.count <= scenario.plan.signals.count
    {
      names.append(current)
      current = next
    }
    let source = signals[current] ?? self.source(for: .signal(current))
    for renamed in names { signals[renamed] = source }
    return source
  }

  /// Makes `name` read `source` (the bound code) wherever it is referred to.
  func replaceSignal(_ name: String, with source: any Source) {
    signals[name] = source
  }

  // MARK: - Expressions

  /// What the evaluations of a step share: its template names and the properties.
  func environment(_ scope: TemplateScope) -> EvalEnvironment {
    EvalEnvironment(outer: scope.outer, input: scope.input, error: scope.error, properties: propertyTable)
  }

  func context(_ value: Value, _ index: Int, _ scope: TemplateScope) -> EvalContext {
    EvalContext(value: value, index: index, now: runtime.now, environment: environment(scope))
  }

  // The closures below build a context on the stack for each value (the value, the index, the
  // frame only when the expression reads `now`, and the shared environment), and touch `self`
  // only to read `now` or to report a failure.

  func transform(_ step: StepExpression, _ scope: TemplateScope) -> Transform {
    let expression = step.expression
    let environment = environment(scope)
    let usesNow = expression.usesNow
    // Unowned: the closure is called only while the graph runs (Runtime, "Ownership").
    return { [unowned self] value, index throws(StepFailure) in
      do throws(EvaluationError) {
        return try expression.evaluate(
          EvalContext(value: value, index: index, now: usesNow ? self.runtime.now : 0, environment: environment))
      } catch {
        throw self.failure(error, step)
      }
    }
  }

  func predicate(_ step: StepExpression, _ scope: TemplateScope, role: String) -> Predicate {
    let expression = step.expression
    let environment = environment(scope)
    let usesNow = expression.usesNow
    // Unowned: the closure is called only while the graph runs (Runtime, "Ownership").
    return { [unowned self] value, index throws(StepFailure) in
      do throws(EvaluationError) {
        return try expression.evaluateCondition(
          EvalContext(value: value, index: index, now: usesNow ? self.runtime.now : 0, environment: environment),
          role: role)
      } catch {
        throw self.failure(error, step)
      }
    }
  }

  /// A test of two values (`$0` the earlier, `$1` the later), as `chunked(by:)`'s closure.
  func pairTest(_ step: StepExpression, _ scope: TemplateScope, role: String) -> PairTest {
    let expression = step.expression
    let environment = environment(scope)
    let usesNow = expression.usesNow
    // Unowned: the closure is called only while the graph runs (Runtime, "Ownership").
    return { [unowned self] earlier, later, index throws(StepFailure) in
      do throws(EvaluationError) {
        return try expression.evaluateCondition(
          EvalContext(
            value: later, accumulator: earlier, index: index, now: usesNow ? self.runtime.now : 0,
            environment: environment),
          role: role)
      } catch {
        throw self.failure(error, step)
      }
    }
  }

  func accumulate(_ step: StepExpression, _ scope: TemplateScope) -> Accumulate {
    let expression = step.expression
    let environment = environment(scope)
    let usesNow = expression.usesNow
    // Unowned: the closure is called only while the graph runs (Runtime, "Ownership").
    return { [unowned self] accumulator, value, index throws(StepFailure) in
      do throws(EvaluationError) {
        return try expression.evaluate(
          EvalContext(
            value: value, accumulator: accumulator, index: index, now: usesNow ? self.runtime.now : 0,
            environment: environment))
      } catch {
        throw self.failure(error, step)
      }
    }
  }

  /// The error value a failed evaluation sends: `throw(v)`'s value, or
  /// `{ expressionError, at }` with a warning at the expression's place.
  func failure(_ error: EvaluationError, _ step: StepExpression) -> StepFailure {
    if let thrown = error.thrown { return StepFailure(thrown) }
    let location = scenario.file.location(ofScalarOffset: error.offset, in: step.node)
    let at = "\(scenario.path):\(location.line):\(location.column)"
    var warning: Diagnostic.Message = .expressionFailed(error.message, hint: error.hint)
    if error.readsNil, step.inputReadsProperty {
      let rewrite = step.node.scalarValue.flatMap { readingNilAsEmpty($0, memberAt: error.offset) }
      warning = warning.propertyNilUntilSet(rewrite: rewrite)
    }
    runtime.warn(warning, at: location)
    return StepFailure(.map(["expressionError": .string(error.message), "at": .string(at)]))
  }
}

/// A `!hot` legend value: the hot marble, looked up when subscribed (it may be created after the
/// marble that carries it as a value).
private final class HotReference: Source {
  // Unowned: a `!hot` value is subscribed only while its graph runs.
  unowned let graph: Graph
  let index: Int

  init(graph: Graph, index: Int) {
    self.graph = graph
    self.index = index
  }

  func subscribe(_ observer: any Observer) -> any Disposable {
    graph.hotSources[index].subscribe(observer)
  }
}

extension Diagnostic.Message {
  fileprivate static func expressionFailed(_ message: String, hint: String?) -> Self {
    "expression failed: \(message)\(hint.map { "; \($0)" } ?? "")"
  }
  /// The failure followed by why (a property read before it is set), with the `rewrite` of the
  /// expression that reads nil as empty when there is one.
  fileprivate func propertyNilUntilSet(rewrite: String?) -> Self {
    Self("\(text); a property is nil until it is set\(rewrite.map { ": write '\($0)'" } ?? "")")
  }
}
