import HeapModule

/// One pending action of the scheduler: `action.perform(argument)` is due at `frame`, and
/// `sequence` (the order of scheduling) orders it among the actions of its frame.
struct PendingAction: Comparable {
  var frame: Int
  var sequence: Int
  var action: any ScheduledAction
  var argument: Int

  static func < (lhs: PendingAction, rhs: PendingAction) -> Bool {
    lhs.frame != rhs.frame ? lhs.frame < rhs.frame : lhs.sequence < rhs.sequence
  }

  static func == (lhs: PendingAction, rhs: PendingAction) -> Bool {
    lhs.frame == rhs.frame && lhs.sequence == rhs.sequence
  }
}

/// The scheduler's pending actions, ordered by `(frame, sequence)`: swift-collections' `Heap`
/// behind the few operations the scheduler needs.
///
/// `(frame, sequence)` keys are unique, so the order in which actions come out does not depend
/// on the heap's layout.
struct ActionQueue {
  private var heap = Heap<PendingAction>()

  init(capacity: Int = 0) {
    heap.reserveCapacity(capacity)
  }

  /// The number of pending actions.
  var count: Int { heap.count }

  /// The frame of the next action, if any.
  var nextFrame: Int? { heap.min?.frame }

  /// The next action, if any.
  var nextAction: (any ScheduledAction)? { heap.min?.action }

  /// The owner of the next action, if any.
  var nextOwner: NodeLabel? { heap.min?.action.owner }

  mutating func insert(_ entry: consuming PendingAction) {
    heap.insert(entry)
  }

  /// Removes and returns the next action; the queue must not be empty.
  mutating func removeNext() -> PendingAction {
    heap.removeMin()
  }

  /// Whether the actions come out in `(frame, sequence)` order; for tests (O(n log n)).
  var isOrdered: Bool {
    var copy = heap
    var previous: PendingAction?
    while let next = copy.popMin() {
      if let previous, next < previous { return false }
      previous = next
    }
    return true
  }

  /// The entries, in no order.
  var entries: [PendingAction] { Array(heap.unordered) }

  /// A queue of the entries for which `isIncluded` is true.
  func filter(_ isIncluded: (PendingAction) -> Bool) -> ActionQueue {
    var kept = ActionQueue()
    kept.heap = Heap(heap.unordered.filter(isIncluded))
    return kept
  }
}
