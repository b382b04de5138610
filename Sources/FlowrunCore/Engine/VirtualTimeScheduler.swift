public import FlowrunDiagnostics

/// Something the scheduler runs at a frame: a hot marble's event, a timer tick, a window edge.
///
/// `perform(_:)` receives the argument given when it was scheduled, so one object can own many
/// pending actions (a marble's events, an interval's ticks) without a closure per action.
public protocol ScheduledAction: AnyObject {
  func perform(_ argument: Int)
  /// The node this action belongs to, named in limit diagnostics.
  var owner: NodeLabel { get }
  /// True once the action will do nothing when it runs (a cancelled timer): the scheduler may
  /// drop it early to keep its queue small.
  var isCancelled: Bool { get }
  /// Whether the action brings an input into the graph (a marble's event, a timeline action):
  /// a ``TieBreaker`` may reorder the inputs due at the start of a frame.
  var isInput: Bool { get }
  /// What the action is as work still armed when the run ends (`"a timer"` of a `debounce`,
  /// `delay` or `timeout`, `"an interval"`), for an exhaustive run; nil for an action that is
  /// not such work (an input, an expectation's window).
  var armedWork: String? { get }
}

extension ScheduledAction {
  public var isCancelled: Bool { false }
  public var isInput: Bool { false }
  public var armedWork: String? { nil }
}

/// An action still armed when a run ended (``VirtualTimeScheduler/armedWork``).
public struct ArmedWork: Sendable, Equatable {
  /// The frame it is due at.
  public var frame: Int
  /// The node it belongs to.
  public var owner: NodeLabel
  /// What it is (``ScheduledAction/armedWork``).
  public var what: String
}

/// Chooses the order of the inputs due at the start of a frame (`flowrun explore --orders`
/// explores the orders the scheduling rules leave open between independent inputs).
public protocol TieBreaker: AnyObject {
  /// A permutation of `owners.indices`, the owners of the input actions due at the start of
  /// `frame` in scheduling order; nil keeps that order.
  func order(frame: Int, owners: [NodeLabel]) -> [Int]?
}

/// The name and place of a graph node, for diagnostics and traces.
public struct NodeLabel: Sendable, Hashable {
  public var name: String
  public var location: SourceLocation?

  public init(_ name: String, at location: SourceLocation? = nil) {
    self.name = name
    self.location = location
  }

  public static let anonymous = NodeLabel("<scenario>")
}

/// The single-threaded virtual-time scheduler of one run.
///
/// Actions are keyed by `(frame, sequence)`, where `sequence` is the order in which they were
/// scheduled, and the smallest key runs next: actions due in the same frame run first in, first
/// out. A source that knows all its future events (a marble) reserves a block of sequence numbers
/// up front and inserts each event only when the previous one ran, which keeps the queue small
/// while preserving the order the events would have had if all were queued at once.
public final class VirtualTimeScheduler {
  /// Why `run` returned.
  public enum Outcome: Equatable, Sendable {
    /// Nothing is scheduled any more.
    case idle
    /// The next action is due after `until`.
    case reachedEnd
    /// The next action is due after `limit.time`.
    case timeLimit(NodeLabel)
    /// More than `limit.steps` actions ran.
    case stepLimit(NodeLabel)
    /// The run was stopped from inside an action (`stop()`).
    case stopped
  }

  /// The current frame.
  public var now: Int { currentFrame }
  /// How many actions ran so far.
  public var steps: Int { stepCount }
  // Stored privately, so the optimiser sees every access and needs fewer dynamic exclusivity
  // checks.
  private var currentFrame = 0
  private var stepCount = 0
  private var nextSequence = 0
  private var isStopped = false
  // The queue lives in memory the scheduler allocates, reached through a pointer. As a stored
  // property it cost a dynamic exclusivity check (about 120 instructions) at every access: the
  // run's loop, every insertion of a marble's next event, and every metered delivery, which
  // reads the pending count for the memory budget; four or five per event of a bound run. No
  // access to it spans a call out of the scheduler (`compact()` and `removeAll()` move the
  // queue out first; an action is performed after it was removed), which is all the checks
  // guarded.
  private let queue: UnsafeMutablePointer<ActionQueue>

  public init() {
    queue = .allocate(capacity: 1)
    queue.initialize(to: ActionQueue(capacity: 16))
  }

  deinit {
    // The pending actions are released after the storage is freed.
    withExtendedLifetime(queue.move()) { queue.deallocate() }
  }

  /// The number of pending actions.
  public var pendingCount: Int { queue.pointee.count }

  /// The frame of the next pending action, if any.
  public var nextFrame: Int? { queue.pointee.nextFrame }

  /// The pending actions that are work still armed (timers, intervals), not cancelled, in
  /// `(frame, sequence)` order: what an exhaustive run reports at its end.
  public var armedWork: [ArmedWork] {
    queue.pointee.entries
      .filter { !$0.action.isCancelled && $0.action.armedWork != nil }
      .sorted { $0 < $1 }
      .map { ArmedWork(frame: $0.frame, owner: $0.action.owner, what: $0.action.armedWork ?? "") }
  }

  /// Reorders the inputs due at the start of each frame; nil (the default) keeps the order in
  /// which they were scheduled.
  public var tieBreaker: (any TieBreaker)?
  /// The last frame whose inputs `tieBreaker` ordered.
  private var orderedFrame: Int?

  /// Schedules `action` at `frame` (never earlier than now) with the next sequence number.
  public func schedule(at frame: Int, _ action: any ScheduledAction, argument: Int = 0) {
    let sequence = nextSequence
    nextSequence += 1
    insert(PendingAction(frame: max(frame, currentFrame), sequence: sequence, action: action, argument: argument))
    if queue.pointee.count >= compactionThreshold { compact() }
  }

  /// The queue size at which cancelled actions are dropped (`compact()`); it doubles with the
  /// live actions, so compaction costs amortised O(1) per action.
  private var compactionThreshold = 4_096

  @inline(__always)
  private func insert(_ entry: consuming PendingAction) {
    queue.pointee.insert(entry)
  }

  /// Drops cancelled actions (a `debounce` restarted every frame leaves one per frame).
  private func compact() {
    // The queue is moved out while `isCancelled` runs (no access to `queue` spans a call out),
    // and the dropped actions are released only once the kept ones are back in place.
    var pending = ActionQueue()
    swap(&pending, &queue.pointee)
    var kept = pending.filter { !$0.action.isCancelled }
    swap(&kept, &queue.pointee)
    compactionThreshold = max(4_096, 2 * queue.pointee.count)
  }

  /// Schedules `action` `delay` frames from now.
  public func schedule(after delay: Int, _ action: any ScheduledAction, argument: Int = 0) {
    schedule(at: currentFrame.addingClamped(delay), action, argument: argument)
  }

  /// Reserves `count` consecutive sequence numbers and returns the first.
  ///
  /// Use with `schedule(at:sequence:_:argument:)` to insert reserved actions lazily.
  public func reserveSequences(_ count: Int) -> Int {
    let first = nextSequence
    nextSequence += count
    return first
  }

  /// Schedules `action` with a sequence number reserved earlier.
  public func schedule(at frame: Int, sequence: Int, _ action: any ScheduledAction, argument: Int) {
    insert(PendingAction(frame: max(frame, currentFrame), sequence: sequence, action: action, argument: argument))
  }

  /// Drops every pending action (after a run that stopped early, so that no pending action
  /// keeps its owner alive).
  public func removeAll() {
    // Released once the queue is empty, so that a deinit that schedules finds it consistent.
    var dropped = ActionQueue()
    swap(&dropped, &queue.pointee)
  }

  /// Stops `run` after the current action.
  public func stop() {
    isStopped = true
  }

  /// Runs actions in `(frame, sequence)` order until none is left, the next is due after
  /// `until`, or a limit is reached.
  public func run(until: Int? = nil, timeLimit: Int, stepLimit: Int) -> Outcome {
    if let tieBreaker { return run(until: until, timeLimit: timeLimit, stepLimit: stepLimit, ordering: tieBreaker) }
    while let frame = queue.pointee.nextFrame {
      if isStopped { return .stopped }
      if let until, frame > until { return .reachedEnd }
      if frame > timeLimit { return .timeLimit(queue.pointee.nextOwner ?? .anonymous) }
      if stepCount >= stepLimit { return .stepLimit(queue.pointee.nextOwner ?? .anonymous) }
      stepCount += 1
      currentFrame = frame
      Self.perform(queue.pointee.removeNext())
    }
    return isStopped ? .stopped : .idle
  }

  /// `run` with the inputs due at the start of each frame in the order `tieBreaker` chooses.
  ///
  /// The actions due when a frame starts keep their places, except that the inputs among them
  /// trade places as chosen. An input runs together with what it schedules for the same frame
  /// under its own reserved sequence numbers (the rest of a marble's group), as it does
  /// unordered; actions scheduled during the frame run after, in scheduling order.
  private func run(until: Int?, timeLimit: Int, stepLimit: Int, ordering tieBreaker: any TieBreaker) -> Outcome {
    while let frame = queue.pointee.nextFrame {
      if isStopped { return .stopped }
      if let until, frame > until { return .reachedEnd }
      if frame > timeLimit { return .timeLimit(queue.pointee.nextOwner ?? .anonymous) }
      currentFrame = frame
      guard orderedFrame != frame else {
        if stepCount >= stepLimit { return .stepLimit(queue.pointee.nextOwner ?? .anonymous) }
        stepCount += 1
        Self.perform(queue.pointee.removeNext())
        continue
      }
      orderedFrame = frame
      var due: [PendingAction] = []
      while queue.pointee.nextFrame == frame { due.append(queue.pointee.removeNext()) }
      let inputs = due.indices.filter { due[$0].action.isInput }
      var order = Array(due.indices)
      if inputs.count > 1, let chosen = tieBreaker.order(frame: frame, owners: inputs.map { due[$0].action.owner }),
        chosen.sorted() == Array(inputs.indices)
      {
        for (slot, pick) in zip(inputs, chosen) { order[slot] = inputs[pick] }
      }
      for index in order {
        if isStopped { return .stopped }
        if stepCount >= stepLimit { return .stepLimit(due[index].action.owner) }
        stepCount += 1
        let action = due[index].action
        action.perform(due[index].argument)
        while !isStopped, stepCount < stepLimit, queue.pointee.nextFrame == frame, let next = queue.pointee.nextAction,
          next === action
        {
          stepCount += 1
          Self.perform(queue.pointee.removeNext())
        }
      }
    }
    return isStopped ? .stopped : .idle
  }

  /// Runs `next`. Taking the entry as a consuming parameter lets the optimiser hand its action
  /// to `perform` without a retain and release around the call.
  @inline(__always)
  private static func perform(_ next: consuming PendingAction) {
    next.action.perform(next.argument)
  }

  /// Checks the queue's invariants; for tests.
  public func checkInvariants() {
    if let frame = queue.pointee.nextFrame {
      precondition(frame >= currentFrame, "an action is due before the current frame")
    }
    precondition(nextSequence >= queue.pointee.count, "more actions than sequence numbers")
    precondition(queue.pointee.isOrdered, "the queue is not a heap")
  }
}

/// A scheduled closure, for actions that run once.
public final class ClosureAction: ScheduledAction {
  public let owner: NodeLabel
  public let isInput: Bool
  private let body: () -> Void

  /// `isInput` marks a timeline action, which a ``TieBreaker`` may reorder.
  public init(owner: NodeLabel, isInput: Bool = false, _ body: @escaping () -> Void) {
    self.owner = owner
    self.isInput = isInput
    self.body = body
  }

  public func perform(_ argument: Int) {
    body()
  }
}

extension Int {
  /// Addition that saturates instead of trapping, for frame arithmetic on user input.
  public func addingClamped(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    if overflow { return other > 0 ? .max : .min }
    return sum
  }

  /// Subtraction that saturates instead of trapping.
  public func subtractingClamped(_ other: Int) -> Int {
    let (difference, overflow) = subtractingReportingOverflow(other)
    if overflow { return other > 0 ? .min : .max }
    return difference
  }
}
