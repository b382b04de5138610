public import FlowrunCore
public import FlowrunDiagnostics

/// Code bound into a run in place of parts of the declared graph (the `FlowrunTesting` library
/// binds a real view model this way): `setUp` runs once, before the graph connects, and tells
/// the run which inputs to drive into the code and which expectations the code answers.
public struct CodeBinding {
  public var setUp: (BoundRun) -> Void

  public init(setUp: @escaping (BoundRun) -> Void) {
    self.setUp = setUp
  }
}

/// One run seen from the code bound into it: its clock, its named inputs, its expectations and
/// its services. Single-threaded, like the run.
public final class BoundRun {
  /// What kind of node a drivable name is.
  public enum Input: String, Sendable, Equatable {
    case signal, subject, property, command
  }

  public let scenario: Scenario
  let graph: Graph
  private(set) var drives: [Drive] = []
  private(set) var outputs: [String: any Source] = [:]
  private var isSubscribing = false

  init(scenario: Scenario, graph: Graph) {
    self.scenario = scenario
    self.graph = graph
  }

  /// The run's engine: its scheduler's frame is the scenario's frame.
  public var runtime: Runtime { graph.runtime }
  public var scheduler: VirtualTimeScheduler { graph.runtime.scheduler }

  /// The kind of the declared node `name`, nil when nothing of that name can be driven.
  public func input(named name: String) -> Input? {
    let plan = scenario.plan
    if plan.signals[name] != nil { return .signal }
    if plan.subjects.contains(where: { $0.name == name }) { return .subject }
    if plan.properties.contains(where: { $0.name == name }) { return .property }
    if plan.commands.contains(where: { $0.name == name }) { return .command }
    return nil
  }

  /// Every name `drive` accepts: signals in file order, then subjects, properties, commands.
  public var inputNames: [String] {
    let plan = scenario.plan
    return plan.signalOrder + plan.subjects.map(\.name) + plan.properties.map(\.name) + plan.commands.map(\.name)
  }

  /// The targets of the expectations of events (not a service's call log), in file order.
  public var outputNames: [String] {
    scenario.expectations.filter { expectation in
      guard case .events = expectation.expected else { return false }
      return !expectation.isCallLog
    }.map(\.target)
  }

  /// The declared services.
  public var serviceNames: [String] { scenario.plan.services.map(\.name) }

  /// Where `name` is declared (an expectation's target, a signal, subject, property, command
  /// or service), for diagnostics; the scenario's start when unknown.
  public func location(of name: String) -> SourceLocation {
    let plan = scenario.plan
    if let expectation = scenario.expectations.first(where: { $0.target == name }) { return expectation.location }
    if let location = plan.signalLocations[name] { return location }
    if let subject = plan.subjects.first(where: { $0.name == name }) { return subject.location }
    if let property = plan.properties.first(where: { $0.name == name }) { return property.location }
    if let command = plan.commands.first(where: { $0.name == name }) { return command.location }
    if let service = plan.services.first(where: { $0.name == name }) { return service.location }
    return scenario.location
  }

  /// Calls `body` with each value the input `name` receives during the run, at its frame: a
  /// signal's values, a subject's sends, a property's sets, a command's executes (accepted or
  /// not). A subject's or property's current value at setup is the code's own state, not an
  /// input: it is not driven. False when `name` is no input.
  @discardableResult
  public func drive(_ name: String, _ body: @escaping (Value) -> Void) -> Bool {
    guard let input = input(named: name) else { return false }
    drives.append(Drive(name: name, input: input, body: body))
    return true
  }

  /// The names the scenario's invariants read (signals, subjects, properties, the derived
  /// names of commands and services), in file order, without repeats.
  public var invariantNames: [String] {
    var seen: Set<String> = []
    return scenario.invariants.flatMap(\.names).filter { seen.insert($0).inserted }
  }

  /// Records the expectation `target` from `source` (the code) instead of the declared node,
  /// and invariants that read `target` read the code too; a declared signal of that name is
  /// replaced for whatever reads it. False when `target` is neither an expectation of events,
  /// a name an invariant reads, nor a declared signal.
  @discardableResult
  public func bind(_ target: String, to source: any Source) -> Bool {
    guard outputNames.contains(target) || scenario.plan.signals[target] != nil || invariantNames.contains(target)
    else { return false }
    outputs[target] = source
    return true
  }

  /// Gives the code its own node of the declared service `service`, whose call log
  /// `<service>.calls` expectations read from now on; false when no such service is declared.
  @discardableResult
  public func useService(_ service: String) -> Bool {
    graph.codeService(service) != nil
  }

  /// Calls the declared service `service` from the code: logs `input` on `<service>.calls` (the
  /// code's own log, which `<service>.calls` expectations then read) and returns the response
  /// the scenario declares for this call; nil when no such service is declared.
  public func call(_ service: String, with input: Value) -> (any Source)? {
    guard let node = graph.codeService(service) else { return nil }
    do throws(StepFailure) {
      return try node.call(input)
    } catch {
      return ImmediateSource(events: [.error(error.value)])
    }
  }

  /// Fails the run with `message` placed at the declaration of `name` (a value that does not
  /// convert, a call that cannot be answered).
  public func fail(_ message: String, at name: String) {
    runtime.fail(message, at: location(of: name))
  }

  // MARK: - Connecting (the runner)

  /// Replaces the bound signals in the graph, before it is instantiated.
  func replaceSignals() {
    for (name, source) in outputs where scenario.plan.signals[name] != nil {
      graph.replaceSignal(name, with: source)
    }
  }

  /// The source an expectation records: the code's when bound.
  func output(for expectation: ExpectationSpec) -> (any Source)? {
    outputs[expectation.target]
  }

  /// The code's output bound to `name`, if any (what an invariant reading `name` reads).
  func output(named name: String) -> (any Source)? {
    outputs[name]
  }

  /// The bound properties whose declared binding need not run: in an untraced run where the
  /// code answers every expectation (its outputs, and the call logs of the services it calls),
  /// a property bound to the code that nothing else reads — no signal, subject, property,
  /// command, effect, template, invariant or expression reads it (`ScenarioPlan.readNames`)
  /// and no drive — is not connected to its declared signal, so that chain is neither built
  /// nor subscribed. Any other expectation (a declared node's events, a subscription log, the
  /// call log of a declared service) keeps every chain, since not subscribing one could change
  /// what it records.
  func unreadOutputs(_ plan: ScenarioPlan, expectations: [ExpectationSpec]) -> Set<String> {
    guard runtime.tracer == nil, !outputs.isEmpty else { return [] }
    for expectation in expectations {
      guard case .events = expectation.expected else { return [] }
      if outputs[expectation.target] != nil { continue }
      guard expectation.isCallLog, case .signal(.reference(.serviceCalls(let name))) = expectation.source,
        graph.codeServices[name] != nil
      else { return [] }
    }
    var unread: Set<String> = []
    for property in plan.properties where property.binding != nil && outputs[property.name] != nil {
      guard !plan.readNames.contains(property.name), !drives.contains(where: { $0.name == property.name }) else {
        continue
      }
      unread.insert(property.name)
    }
    return unread
  }

  /// Subscribes every drive to its input (at setup, after the declared bindings).
  func connectDrives() -> [any Disposable] {
    var subscriptions: [any Disposable] = []
    for drive in drives {
      switch drive.input {
      case .command:
        graph.onExecute(drive.name, drive.body)
      case .signal:
        subscriptions.append(graph.source(for: .reference(.signal(drive.name))).subscribe(DriveObserver(drive.body)))
      case .subject, .property:
        // The current value delivered while subscribing is the node's state, not an input.
        let observer = DriveObserver(drive.body)
        observer.isSubscribing = true
        let reference: Reference = drive.input == .subject ? .subject(drive.name) : .property(drive.name)
        subscriptions.append(graph.source(for: .reference(reference)).subscribe(observer))
        observer.isSubscribing = false
      }
    }
    return subscriptions
  }
}

/// An input driven into the code. A struct, not a tuple: a closure in a tuple in an array is
/// kept at the array's generic abstraction, and every call of it would go through two
/// reabstraction thunks.
struct Drive {
  let name: String
  let input: BoundRun.Input
  let body: (Value) -> Void
}

/// Hands each value of an input to the code.
private final class DriveObserver: Observer {
  let body: (Value) -> Void
  var isSubscribing = false

  init(_ body: @escaping (Value) -> Void) {
    self.body = body
  }

  func receive(_ event: Event) {
    guard !isSubscribing, case .next(let value) = event else { return }
    body(value)
  }
}
