/// One pending action of the scheduler: `action.perform(argument)` is due at `frame`, and
/// `sequence` (the order of scheduling) orders it among the actions of its frame.
struct PendingAction {
  var frame: Int
  var sequence: Int
  var action: any ScheduledAction
  var argument: Int
}

/// The scheduler's pending actions: a binary min-heap on `(frame, sequence)`.
///
/// Its entries live in memory it manages itself rather than in an array. Changing the heap
/// moves entries and never copies or releases one, so an access to the scheduler's `queue`
/// never spans a release (which could run arbitrary code): the optimiser proves that no access
/// overlaps another and needs no dynamic exclusivity check, and no copy-on-write check runs per
/// action. Noncopyable, so that the memory has exactly one owner, which frees it.
///
/// `(frame, sequence)` keys are unique, so the order in which actions come out does not depend
/// on the heap's layout.
struct ActionQueue: ~Copyable {
  private var base: UnsafeMutablePointer<PendingAction>
  private var capacity: Int
  /// The number of pending actions.
  private(set) var count = 0

  init(capacity: Int = 0) {
    self.capacity = capacity
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  /// The frame of the next action, if any.
  var nextFrame: Int? {
    count > 0 ? base.pointee.frame : nil
  }

  /// The owner of the next action, if any.
  var nextOwner: NodeLabel? {
    count > 0 ? base.pointee.action.owner : nil
  }

  /// Whether the next `insert` needs `grow()` first.
  var isFull: Bool { count == capacity }

  /// Adds `entry`; the queue must not be full (`grow()` first). Growing is separate because
  /// the optimiser counts allocating and freeing memory as calls out, which would make an
  /// access to the scheduler's `queue` that spans them need a dynamic exclusivity check.
  @inline(__always)
  mutating func insert(_ entry: consuming PendingAction) {
    precondition(count < capacity, "insert into a full queue")
    // Sift up: move parents down into the hole until `entry` fits.
    var hole = count
    count += 1
    while hole > 0 {
      let parent = (hole - 1) / 2
      guard Self.precedes((entry.frame, entry.sequence), key(parent)) else { break }
      (base + hole).moveInitialize(from: base + parent, count: 1)
      hole = parent
    }
    (base + hole).initialize(to: entry)
  }

  /// Removes and returns the next action; the queue must not be empty.
  mutating func removeNext() -> PendingAction {
    precondition(count > 0, "no pending action")
    let next = base.move()
    count -= 1
    if count > 0 {
      siftDown((base + count).move(), from: 0)
    }
    return next
  }

  /// Whether every entry runs no earlier than its parent; for tests.
  var isOrdered: Bool {
    (1..<max(count, 1)).allSatisfy { !Self.precedes(key($0), key(($0 - 1) / 2)) }
  }

  /// A queue of the entries for which `isIncluded` is true.
  func filter(_ isIncluded: (borrowing PendingAction) -> Bool) -> ActionQueue {
    var kept = ActionQueue(capacity: max(count, 16))
    for index in 0..<count where isIncluded(base[index]) {
      (kept.base + kept.count).initialize(to: base[index])
      kept.count += 1
    }
    // Heapify (Floyd): sift down every inner node, the last first.
    var index = kept.count / 2
    while index > 0 {
      index -= 1
      kept.siftDown((kept.base + index).move(), from: index)
    }
    return kept
  }

  /// Places `entry` in the hole at `start` or below it, moving smaller children up.
  private mutating func siftDown(_ entry: consuming PendingAction, from start: Int) {
    var hole = start
    while true {
      var child = 2 * hole + 1
      guard child < count else { break }
      if child + 1 < count, Self.precedes(key(child + 1), key(child)) { child += 1 }
      guard Self.precedes(key(child), (entry.frame, entry.sequence)) else { break }
      (base + hole).moveInitialize(from: base + child, count: 1)
      hole = child
    }
    (base + hole).initialize(to: entry)
  }

  /// The `(frame, sequence)` key of the entry at `index`, read in place.
  @inline(__always)
  private func key(_ index: Int) -> (frame: Int, sequence: Int) {
    (base[index].frame, base[index].sequence)
  }

  /// Whether the action keyed `lhs` runs before the one keyed `rhs`.
  @inline(__always)
  private static func precedes(_ lhs: (frame: Int, sequence: Int), _ rhs: (frame: Int, sequence: Int)) -> Bool {
    lhs.frame != rhs.frame ? lhs.frame < rhs.frame : lhs.sequence < rhs.sequence
  }

  /// Doubles the capacity (at least 16).
  mutating func grow() {
    let larger = max(16, 2 * capacity)
    let moved = UnsafeMutablePointer<PendingAction>.allocate(capacity: larger)
    moved.moveInitialize(from: base, count: count)
    base.deallocate()
    base = moved
    capacity = larger
  }
}
