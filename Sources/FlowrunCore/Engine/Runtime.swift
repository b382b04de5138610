public import FlowrunDiagnostics

/// Something that went wrong while a scenario ran: an error that fails the run, or a warning.
public struct RunIssue: Sendable, Equatable {
  public var severity: Diagnostic.Severity
  public var frame: Int
  public var message: String
  public var location: SourceLocation?

  public init(severity: Diagnostic.Severity, frame: Int, message: String, location: SourceLocation?) {
    self.severity = severity
    self.frame = frame
    self.message = message
    self.location = location
  }
}

/// Receives a line per delivery when a run is traced (`flowrun trace`).
public protocol Tracer: AnyObject {
  func trace(frame: Int, depth: Int, node: NodeLabel, event: Event, note: String?)
}

/// The context of one run: its scheduler, its limits, and what went wrong.
///
/// One runtime serves one run on one thread; nothing in it is shared or locked.
///
/// ## Ownership
///
/// A run's graph owns its runtime, its shared nodes (hot marbles, subjects, properties,
/// commands) and, through the scheduler, every pending action. Deliveries and disposals happen
/// only while the run goes on, never from a `deinit`. So a node may refer to the runtime and to
/// the graph's shared nodes `unowned`: they outlive every use of it (the nodes every event goes
/// through hold them `Unmanaged` and read them without a retain). A node made during the run
/// (an operator's observer, a share's connection, a retry's attempt) may outlive the chain that
/// made it, because its upstream keeps delivering to it (a hot marble, a replay that never
/// disconnects): it refers back to that chain weakly, never `unowned`.
public final class Runtime {
  public let scheduler = VirtualTimeScheduler()
  /// Deepest allowed nesting of deliveries through subjects, properties and commands.
  public let depthLimit: Int
  public var depth: Int { deliveryDepth }
  public var issues: [RunIssue] { runIssues }
  /// True once an error failed the run; sources stop delivering.
  public var isFailed: Bool { failed }
  public var tracer: (any Tracer)? {
    get { currentTracer }
    set { currentTracer = newValue }
  }
  // Read on every delivery: stored privately, so the optimiser sees every access and needs no
  // dynamic exclusivity check.
  private var deliveryDepth = 0
  private var failed = false
  private var currentTracer: (any Tracer)?
  /// Executions refused because a command was disabled.
  public var rejectedExecutions: Int {
    get { rejected }
    set { rejected = newValue }
  }
  // Private storage (Exclusivity.swift); `runIssues` changes moved out of the property.
  private var rejected = 0
  private var runIssues: [RunIssue] = []

  /// The deliveries, memory and nesting budgets (Budget.swift).
  public let budget: RunBudget
  /// Deliveries through graph nodes so far.
  public var deliveries: Int { deliveryCount }
  /// Estimated bytes charged to the memory budget so far.
  public var memoryUsed: Int { memoryCount }
  /// Calls through graph nodes in progress.
  public var nesting: Int { callNesting }
  // Counted on every metered delivery: private storage changed only by the helpers below, so
  // the optimiser needs no dynamic exclusivity checks for them.
  private var deliveryCount = 0
  private var memoryCount = 0
  private var callNesting = 0
  /// The lowest stack address calls may reach (0: unknown, not checked); `markStack()`.
  var stackFloor: UInt = 0

  /// `depthLimit` and the nesting budget shrink with the stack of a thread that runs with less
  /// than a worker's full stack (`ThreadStack.budgeted`).
  public init(depthLimit: Int = 10_000, budget: RunBudget = RunBudget()) {
    self.depthLimit = ThreadStack.budgeted(depthLimit, standard: 10_000)
    var scaled = budget
    scaled.nesting = ThreadStack.budgeted(budget.nesting, standard: RunBudget().nesting)
    self.budget = scaled
  }

  public var now: Int { scheduler.now }

  /// Fails the run: records the error and stops the scheduler.
  public func fail(_ message: Diagnostic.Message, at location: SourceLocation?) {
    guard !failed else { return }
    failed = true
    record(RunIssue(severity: .error, frame: now, message: message.text, location: location))
    scheduler.stop()
  }

  /// Fails the run after its end, at `frame` (an exhaustive run's pending work): unlike
  /// ``fail(_:at:)-(Diagnostic.Message,_)``, each call records its error.
  public func fail(atEnd frame: Int, _ message: Diagnostic.Message, at location: SourceLocation?) {
    failed = true
    record(RunIssue(severity: .error, frame: frame, message: message.text, location: location))
  }

  /// Fails the run with a message made at the raise site.
  public func fail(_ message: String, at location: SourceLocation?) {
    fail(Diagnostic.Message(message), at: location)
  }

  /// Records a warning; the run goes on.
  public func warn(_ message: Diagnostic.Message, at location: SourceLocation?) {
    record(RunIssue(severity: .warning, frame: now, message: message.text, location: location))
  }

  private func record(_ issue: RunIssue) {
    var list = runIssues.take()  // changed moved out (Exclusivity.swift)
    list.append(issue)
    swap(&list, &runIssues)
  }

  /// Enters a nested delivery through `node`; false (and the run failed) past the depth limit.
  public func enter(_ node: NodeLabel) -> Bool {
    guard !failed else { return false }
    deliveryDepth += 1
    if deliveryDepth > depthLimit {
      deliveryDepth -= 1
      fail(.deliveriesTooDeep(limit: depthLimit, at: node), at: node.location)
      return false
    }
    return true
  }

  /// Leaves a nested delivery entered with `enter(_:)`.
  public func exit() {
    deliveryDepth -= 1
  }

  /// Reports a delivery to the tracer, if any.
  @inline(__always)
  public func trace(_ node: NodeLabel, _ event: Event, note: String? = nil) {
    currentTracer?.trace(frame: now, depth: deliveryDepth, node: node, event: event, note: note)
  }

  /// Counts one delivery; returns the count so far.
  @inline(__always)
  func countDelivery() -> Int {
    deliveryCount += 1
    return deliveryCount
  }

  /// Adds `bytes` to the memory used; returns the total so far.
  @inline(__always)
  func addMemory(_ bytes: Int) -> Int {
    memoryCount = memoryCount.addingClamped(bytes)
    return memoryCount
  }

  /// Enters a nested call; returns the nesting so far.
  @inline(__always)
  func pushNesting() -> Int {
    callNesting += 1
    return callNesting
  }

  /// Leaves a nested call.
  @inline(__always)
  func popNesting() {
    callNesting -= 1
  }
}

extension Diagnostic.Message {
  fileprivate static func deliveriesTooDeep(limit: Int, at node: NodeLabel) -> Self {
    "deliveries nested deeper than the limit of \(limit) at '\(node.name)' (a feedback loop?)"
  }
}
