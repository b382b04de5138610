public import FlowrunCore

/// One line of a run's trace: a delivery, a subscription, a disposal, a rejected execution or
/// a timeline action, with the entry that caused it.
public struct TraceEntry: Sendable {
  public enum Kind: Sendable {
    /// A shared node sent an event: a hot or cold marble, an interval, a subject, a property
    /// (note `set`), a command's state, a service's calls.
    case node
    /// A step of a chain sent an event, on its `subscription`-th subscription.
    case step(TraceStep, subscription: Int)
    /// An execution of the command `node` was refused (it was disabled).
    case rejected
    case subscribed(TraceStep, subscription: Int)
    case disposed(TraceStep, subscription: Int)
    /// A timeline action starts (`note` says what it does).
    case timeline
  }

  public var kind: Kind
  /// The frame it happened at.
  public var frame: Int
  /// The number of the scheduler action it happened in; 0 is the setup before frame 0.
  public var action: Int
  /// The node: a shared node's name, a step's owner (or `inline` for an anonymous chain).
  public var node: String
  public var event: Event?
  public var note: String?
  /// The entry whose delivery caused this one.
  public var parent: Int?
  /// How many entries are between this one and the root of its chain of causes.
  public var depth: Int

  /// The step, for step events, subscriptions and disposals.
  public var step: TraceStep? {
    switch kind {
    case .step(let step, _), .subscribed(let step, _), .disposed(let step, _): step
    case .node, .rejected, .timeline: nil
    }
  }

  /// The subscription number, for step events, subscriptions and disposals.
  public var subscription: Int? {
    switch kind {
    case .step(_, let number), .subscribed(_, let number), .disposed(_, let number): number
    case .node, .rejected, .timeline: nil
    }
  }
}

/// Records a traced run as a list of ``TraceEntry``, each linked to the delivery that caused it.
///
/// Steps report their deliveries as nested `willDeliver`/`didDeliver` pairs; shared nodes report
/// one point each. A subject or property delivers to its observers at a runtime depth one above
/// its caller's (``Runtime/enter(_:)``), so a point stays the cause of what follows at its depth
/// until the runtime leaves it; a marble or interval, which does not enter, causes what follows
/// within the same scheduler action.
public final class TraceRecorder: StepTracer {
  public private(set) var entries: [TraceEntry] = []
  private weak var runtime: Runtime?

  private struct Open {
    var entry: Int
    var isPoint: Bool
    var runtimeDepth: Int
    var action: Int
  }

  private var stack: [Open] = []

  public init() {}

  public func attach(_ runtime: Runtime) {
    self.runtime = runtime
  }

  private var action: Int { runtime?.scheduler.steps ?? 0 }
  private var runtimeDepth: Int { runtime?.depth ?? 0 }

  /// Drops the points that no longer cause anything at runtime depth `depth`: those of an earlier
  /// action, and those the runtime left. `sibling` also drops points at `depth` itself (a new
  /// point at the same depth follows them rather than being caused by them).
  private func closePoints(depth: Int, sibling: Bool) {
    let action = self.action
    while let top = stack.last, top.isPoint,
      top.action != action || top.runtimeDepth > depth || (sibling && top.runtimeDepth == depth)
    {
      stack.removeLast()
    }
    // A point of an earlier action buried under nothing else is stale too.
    if let first = stack.first, first.action != action {
      stack.removeAll()
    }
  }

  @discardableResult
  private func append(_ kind: TraceEntry.Kind, node: String, event: Event?, note: String?) -> Int {
    let parent = stack.last?.entry
    let depth = parent.map { entries[$0].depth + 1 } ?? 0
    entries.append(
      TraceEntry(
        kind: kind, frame: runtime?.now ?? 0, action: action, node: node, event: event, note: note,
        parent: parent, depth: depth))
    return entries.count - 1
  }

  // MARK: - Tracer

  public func trace(frame: Int, depth: Int, node: NodeLabel, event: Event, note: String?) {
    if let note, note.hasPrefix("rejected") {
      closePoints(depth: depth, sibling: false)
      append(.rejected, node: node.name, event: event, note: note)
      return
    }
    closePoints(depth: depth, sibling: true)
    let index = append(.node, node: node.name, event: event, note: note)
    stack.append(Open(entry: index, isPoint: true, runtimeDepth: depth, action: action))
  }

  // MARK: - StepTracer

  public func willDeliver(step: TraceStep, subscription: Int, event: Event) {
    let depth = runtimeDepth
    closePoints(depth: depth, sibling: false)
    let index = append(.step(step, subscription: subscription), node: step.owner ?? "inline", event: event, note: nil)
    stack.append(Open(entry: index, isPoint: false, runtimeDepth: depth, action: action))
  }

  public func didDeliver() {
    while let top = stack.popLast(), top.isPoint {}
  }

  public func subscribed(step: TraceStep, subscription: Int) {
    closePoints(depth: runtimeDepth, sibling: false)
    append(.subscribed(step, subscription: subscription), node: step.owner ?? "inline", event: nil, note: nil)
  }

  public func disposed(step: TraceStep, subscription: Int) {
    // After the run the runner tears the graph down with the tracer detached: not traced.
    guard runtime?.tracer != nil else { return }
    closePoints(depth: runtimeDepth, sibling: false)
    append(.disposed(step, subscription: subscription), node: step.owner ?? "inline", event: nil, note: nil)
  }

  /// Records the start of a timeline action described by `note`.
  func timeline(_ note: String) {
    stack.removeAll()
    let index = append(.timeline, node: "timeline", event: nil, note: note)
    stack.append(Open(entry: index, isPoint: true, runtimeDepth: runtimeDepth, action: action))
  }
}
