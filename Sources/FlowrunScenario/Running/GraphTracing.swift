import FlowrunCore

/// Wraps every step of every chain in a ``TracingSource`` when a run is traced, naming the
/// step and the signal it belongs to. A graph has one only when its runtime's tracer is a
/// ``StepTracer``; otherwise nothing is wrapped and tracing costs nothing.
final class GraphTracing {
  let tracer: any StepTracer
  /// The named signals being instantiated, innermost last; `pending` until its root step is
  /// wrapped (that step's events are the signal's).
  private var owners: [(name: String, pending: Bool)] = []
  /// How deep `Graph.source(for:scope:)` calls are nested right now.
  private var nesting = 0
  /// The instance numbers of the chains being instantiated, innermost last (TraceStep.instance).
  private var instances: [Int] = []
  private var lastInstance = 0

  init?(runtime: Runtime) {
    guard let tracer = runtime.tracer as? any StepTracer else { return nil }
    self.tracer = tracer
    tracer.attach(runtime)
  }

  /// Instantiates the named signal `name` with `body`; its root step is marked as its output.
  func named(_ name: String, _ body: () -> any Source) -> any Source {
    owners.append((name, true))
    lastInstance += 1
    instances.append(lastInstance)
    defer {
      owners.removeLast()
      instances.removeLast()
    }
    return body()
  }

  /// The source `make` builds for `plan`, wrapped to report its events as a step.
  func wrap(_ plan: SignalPlan, scope: TemplateScope, _ make: () -> any Source) -> any Source {
    var owner = owners.last?.name
    var isOutput = false
    var isTemplate = false
    // A chain made on its own (not a named signal's root, not inside another step) starts an
    // instance; the steps made while making it share it.
    var startsInstance = false
    if let last = owners.indices.last, owners[last].pending {
      owners[last].pending = false
      isOutput = true
    } else if nesting == 0 {
      startsInstance = true
      // A chain instantiated on its own: an effect's or expectation's inline signal (the
      // output of that chain), or a template made at run time (the inner of its operator).
      owner = scope.traceOwner
      isTemplate = scope.traceOwner != nil
      isOutput = scope.traceOwner == nil
    }
    if owner == nil { owner = scope.traceOwner }
    if startsInstance || instances.isEmpty {
      startsInstance = true
      lastInstance += 1
      instances.append(lastInstance)
    }
    let instance = instances[instances.count - 1]
    nesting += 1
    let upstream = make()
    nesting -= 1
    if startsInstance { instances.removeLast() }
    let step = TraceStep(
      owner: owner, name: GraphTracing.name(of: plan), role: GraphTracing.role(of: plan),
      index: GraphTracing.index(of: plan), isOutput: isOutput, isTemplate: isTemplate, instance: instance,
      drops: GraphTracing.drops(of: plan))
    return TracingSource(upstream, step: step, tracer: tracer)
  }

  // MARK: - Naming steps

  static func index(of plan: SignalPlan) -> Int {
    var index = 0
    var current = plan
    while case .apply(let input, _) = current {
      index += 1
      current = input
    }
    return index
  }

  static func role(of plan: SignalPlan) -> TraceStep.Role {
    switch plan {
    case .reference(let reference): .reference(name(of: reference))
    case .apply: .operator
    case .source(let source): source.traceRole
    }
  }

  static func name(of reference: Reference) -> String {
    switch reference {
    case .signal(let name), .subject(let name), .property(let name): name
    case .command(let name, let state): "\(name).\(state.rawValue)"
    case .serviceCalls(let name): "\(name).calls"
    }
  }

  static func drops(of plan: SignalPlan) -> TraceStep.Drops? {
    if case .apply(_, let op) = plan { return op.drops }
    return nil
  }

  static func name(of plan: SignalPlan) -> String {
    switch plan {
    case .reference(let reference): "from \(name(of: reference))"
    case .source(let source): source.label
    case .apply(_, let op): op.label
    }
  }
}

// MARK: - Timeline

extension GraphTracing {
  /// Tells the trace that a timeline action starts.
  func timeline(_ action: TimelinePlan) {
    guard let recorder = tracer as? TraceRecorder else { return }
    recorder.timeline(action.actions.map(GraphTracing.describe).joined(separator: ", "))
  }

  static func describe(_ action: ActionPlan) -> String {
    switch action {
    case .send(let subject, let value): "send \(value.map { "\($0)" } ?? "the value") to \(subject)"
    case .set(let property, let value): "set \(property) = \(value.map { "\($0)" } ?? "the value")"
    case .complete(let subject): "complete \(subject)"
    case .fail(let subject, let value): "fail \(subject) with \(value)"
    case .execute(let command, let input): "execute \(command)" + (input.map { " with \($0)" } ?? "")
    }
  }
}
