import FlowrunDiagnostics
import OrderedCollections

/// The run-wide budgets that keep a hostile scenario from hanging or exhausting memory, beside
/// the scheduler's time and step limits and the delivery depth (docs/limits.md).
///
/// Every count is deterministic: it depends only on the scenario, never on the machine, so a
/// run that reaches a budget reaches it at the same place every time.
public struct RunBudget: Sendable, Equatable {
  /// Events delivered through graph nodes in the whole run (the guard against synchronous
  /// fan-out, which takes no scheduler step).
  public var deliveries: Int
  /// Estimated bytes the run allocates for values, subscriptions and recorded events, counted
  /// cumulatively (what is freed is not given back), so it bounds the peak from above.
  public var memory: Int
  /// Nested calls through graph nodes at one moment (deliveries, subscriptions and
  /// instantiations inside one another): the guard of the thread's stack.
  public var nesting: Int

  public init(deliveries: Int = 10_000_000, memory: Int = 128 << 20, nesting: Int = 100_000) {
    self.deliveries = deliveries
    self.memory = memory
    self.nesting = nesting
  }

  /// What one subscription through a graph node is charged, in bytes (its observer objects).
  public static let subscriptionCost = 256
  /// What one pending scheduler action is counted while it is pending.
  public static let pendingActionCost = 128
  /// What one recorded event is charged beyond its value.
  public static let recordedEventCost = 64
}

extension Runtime {
  // The checks below run on every delivery through a graph node: their common path is a few
  // loads and compares, inlined; building a diagnostic is left to the out-of-line `…Reached`
  // functions, so that it does not weigh on the inlined code.

  /// Charges one delivery of `event` through `node`; false (and the run failed) past a budget.
  @inline(__always)
  public func chargeDelivery(_ event: Event, at node: NodeLabel) -> Bool {
    guard !isFailed else { return false }
    if countDelivery() > budget.deliveries { return deliveryLimitReached(at: node) }
    if case .next(let value) = event { return chargeMemory(value.shallowSize, at: node) }
    return true
  }

  /// Charges `bytes` of the memory budget to `node`; false (and the run failed) past it.
  @inline(__always)
  public func chargeMemory(_ bytes: Int, at node: NodeLabel?) -> Bool {
    guard !isFailed else { return false }
    let used = addMemory(bytes)
    if used.addingClamped(scheduler.pendingCount &* RunBudget.pendingActionCost) > budget.memory {
      return memoryLimitReached(at: node)
    }
    return true
  }

  @inline(never)
  private func deliveryLimitReached(at node: NodeLabel) -> Bool {
    fail(.deliveryLimitReached(budget.deliveries, at: node), at: node.location)
    return false
  }

  @inline(never)
  private func memoryLimitReached(at node: NodeLabel?) -> Bool {
    fail(.memoryLimitReached(budget.memory, at: node), at: node?.location)
    return false
  }

  /// `chargeDelivery(event, at: node)`, then `enterNesting(node)` when it passes, with the
  /// failed flag read once: what a metered node does at every delivery. Leave with
  /// `exitNesting()` when it returned true.
  @inline(__always)
  func enterDelivery(_ event: Event, at node: NodeLabel) -> Bool {
    guard !isFailed else { return false }
    if countDelivery() > budget.deliveries { return deliveryLimitReached(at: node) }
    if case .next(let value) = event {
      let used = addMemory(value.shallowSize)
      if used.addingClamped(scheduler.pendingCount &* RunBudget.pendingActionCost) > budget.memory {
        return memoryLimitReached(at: node)
      }
    }
    if stackFloor != 0 && ThreadStack.address() < stackFloor { return stackLimitReached(at: node) }
    if pushNesting() > budget.nesting {
      popNesting()
      return nestingLimitReached(at: node)
    }
    return true
  }

  /// Records the bounds of the current thread's stack, so that `enterNesting` can stop a run
  /// before it overflows whatever the frame sizes of this build (sanitizers make them larger).
  /// Call it on the thread that runs the scenario.
  public func markStack() {
    stackFloor = ThreadStack.floor()
  }

  /// Enters a nested call through `node`; false (and the run failed) past the nesting budget.
  @inline(__always)
  public func enterNesting(_ node: NodeLabel) -> Bool {
    guard !isFailed else { return false }
    if stackFloor != 0 && ThreadStack.address() < stackFloor { return stackLimitReached(at: node) }
    if pushNesting() > budget.nesting {
      popNesting()
      return nestingLimitReached(at: node)
    }
    return true
  }

  @inline(never)
  private func stackLimitReached(at node: NodeLabel) -> Bool {
    fail(.stackLimitReached(at: node), at: node.location)
    return false
  }

  @inline(never)
  private func nestingLimitReached(at node: NodeLabel) -> Bool {
    fail(.nestingLimitReached(budget.nesting, at: node), at: node.location)
    return false
  }

  /// Leaves a nested call entered with `enterNesting(_:)`.
  @inline(__always)
  public func exitNesting() {
    popNesting()
  }
}

/// A graph node as the runner sees it: counts the subscriptions and deliveries through the
/// node it wraps against the run's budgets, and the nesting of those calls.
public final class MeteredSource: Source {
  public let inner: any Source
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  private unowned let runtime: Runtime
  private let label: NodeLabel

  public init(_ inner: any Source, label: NodeLabel, runtime: Runtime) {
    self.inner = inner
    self.label = label
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    // Each read of an `unowned` reference retains it: read it once.
    let runtime = self.runtime
    guard runtime.enterNesting(label) else { return NoDisposable.shared }
    defer { runtime.exitNesting() }
    guard runtime.chargeMemory(RunBudget.subscriptionCost, at: label) else { return NoDisposable.shared }
    return inner.subscribe(MeteredObserver(observer, label: label, runtime: runtime))
  }
}

private final class MeteredObserver: Observer {
  private let downstream: any Observer
  // Unowned and unchecked, read without a retain: the run's graph owns its runtime and every
  // node that refers to it, and nothing is delivered or disposed once the run returned
  // (Runtime, "Ownership"). Every delivery through every node reads it: an `unowned` read
  // retains and releases it (about 40 instructions a delivery).
  private let runtime: Unmanaged<Runtime>
  private let label: NodeLabel

  init(_ downstream: any Observer, label: NodeLabel, runtime: Runtime) {
    self.downstream = downstream
    self.label = label
    self.runtime = .passUnretained(runtime)
  }

  func receive(_ event: Event) {
    runtime._withUnsafeGuaranteedRef { runtime in
      guard runtime.enterDelivery(event, at: label) else { return }
      downstream.receive(event)
      runtime.exitNesting()
    }
  }
}

extension Value {
  /// The bytes a value's own storage takes, not counting what it shares with other values:
  /// O(1), charged when a node delivers the value (inlined there: it runs per delivery).
  @inline(__always)
  public var shallowSize: Int {
    switch self {
    case .null, .bool, .int, .double: 0
    case .string(let s): s.utf8.count
    case .list(let items): 16 * items.count
    case .map(let entries): 48 * entries.count
    case .signal: 64
    }
  }

  /// The estimated bytes of the whole value, counting shared parts each time they appear; nil
  /// once the count passes `limit` or the value nests deeper than `depth` (the walk stops
  /// there, so the cost is at most `limit`).
  public func estimatedSize(limit: Int, depth: Int = ValueLimits.default.depth) -> Int? {
    switch self {
    case .null, .bool, .int, .double, .string:
      // No nesting: what `accumulateSize` would count, without the walk.
      let size = 16 + shallowSize
      return depth >= 0 && size <= limit ? size : nil
    case .list, .map, .signal:
      break
    }
    var total = 0
    return Value.accumulateSize(self, &total, limit: limit, depth: depth) ? total : nil
  }

  private static func accumulateSize(_ value: Value, _ total: inout Int, limit: Int, depth: Int) -> Bool {
    guard depth >= 0 else { return false }
    total += 16 + value.shallowSize
    guard total <= limit else { return false }
    switch value {
    case .list(let items):
      for item in items where !accumulateSize(item, &total, limit: limit, depth: depth - 1) { return false }
    case .map(let entries):
      for (key, item) in entries {
        total += key.utf8.count
        if !accumulateSize(item, &total, limit: limit, depth: depth - 1) { return false }
      }
    default:
      break
    }
    return true
  }
}

/// Bounds on single values made while a scenario runs (by expressions and recorders), so that
/// printing, comparing and freeing a value stays fast and shallow.
public struct ValueLimits: Sendable, Equatable {
  /// The deepest nesting of lists and maps in one value.
  public var depth: Int
  /// The largest estimated size of one value, in bytes (shared parts counted each time).
  public var size: Int

  public init(depth: Int = 512, size: Int = 16 << 20) {
    self.depth = depth
    self.size = size
  }

  public static let `default` = ValueLimits()
}

extension Diagnostic.Message {
  fileprivate static func deliveryLimitReached(_ limit: Int, at node: NodeLabel) -> Self {
    Self(
      "the run reached the limit of \(limit) deliveries at '\(node.name)'"
        + " (a combinatorial fan-out?; raise 'limit.deliveries')")
  }

  fileprivate static func memoryLimitReached(_ limit: Int, at node: NodeLabel?) -> Self {
    Self(
      "the run reached the memory limit of \(limit) bytes" + (node.map { " at '\($0.name)'" } ?? "")
        + " (raise 'limit.memory')")
  }

  fileprivate static func stackLimitReached(at node: NodeLabel) -> Self {
    Self(
      "calls through the graph nested too deep for the thread's stack at '\(node.name)'"
        + " (a very long chain, or a feedback loop through one)")
  }

  fileprivate static func nestingLimitReached(_ limit: Int, at node: NodeLabel) -> Self {
    Self(
      "calls through the graph nested deeper than the limit of \(limit) at '\(node.name)'"
        + " (a very long chain, or a feedback loop through one)")
  }
}

/// A node passes the question of demand on (a pull-based operator asks the consumer of the
/// `AsyncSequence` through the nodes between them, `DemandingObserver`).
extension MeteredObserver: DemandingObserver {
  var wantsValue: Bool { FlowrunCore.wantsValue(downstream) }
  var isOpen: Bool { FlowrunCore.isOpen(downstream) }
  func whenWanting(_ resume: @escaping () -> Void) {
    (downstream as? any DemandingObserver)?.whenWanting(resume)
  }
}
