import FlowrunCore
import FlowrunScenario

/// The values a step of a chain swallowed: a value that reached a filtering step and left no
/// trace of itself downstream (`distinctUntilChanged dropped "swift" (same as before)`), or a
/// value a debounce held and replaced with a newer one before its time ran out.
///
/// Found in the trace after the run: a step's delivery that caused no delivery of the next step
/// of its chain. Only steps whose purpose is to drop values are reported, each with the reason
/// in its own words; a step that holds values for later (`delay`, `buffer`) is not.
struct StepDrop: Sendable {
  /// The trace entry whose value was dropped (the delivery into the dropping step), or for a
  /// replaced value the delivery of the newer value that replaced it.
  var entry: Int
  /// The step that dropped it and the subscription it dropped it on.
  var step: TraceStep
  var subscription: Int
  var frame: Int
  var value: Value
  var reason: String

  /// The reason `step` gives for dropping a value, from its definition (`TraceStep.drops`);
  /// a held value's reason names the step's duration when the label has one (`debounce 300ms`:
  /// "a newer value came within 300ms").
  static func reason(_ step: TraceStep, label: String) -> String? {
    guard let drops = step.drops else { return nil }
    guard drops.kind == .replaced else { return drops.reason }
    var argument = label.hasPrefix(step.name + " ") ? label.dropFirst(step.name.count + 1) : ""
    if argument.hasPrefix("for ") { argument = argument.dropFirst(4) }
    return argument.isEmpty ? drops.reason + " in time" : drops.reason + " within \(argument)"
  }

  /// Every drop in `entries`, in trace order.
  static func find(in entries: [TraceEntry], labels: StepLabels) -> [StepDrop] {
    struct Key: Hashable {
      var owner: String?
      var instance: Int
      var index: Int
    }
    func key(_ step: TraceStep) -> Key { Key(owner: step.owner, instance: step.instance, index: step.index) }

    // The steps of each chain position, and which step a step's deliveries were seen to reach.
    var atPosition: [Key: [TraceStep]] = [:]
    var downstream: [TraceStep: TraceStep] = [:]
    for entry in entries {
      guard let step = entry.step else { continue }
      if !(atPosition[key(step)]?.contains(step) ?? false) { atPosition[key(step), default: []].append(step) }
      if case .step = entry.kind, let parent = entry.parent, case .step(let upstream, _) = entries[parent].kind,
        upstream.owner == step.owner, upstream.instance == step.instance, upstream.index + 1 == step.index
      {
        downstream[upstream] = step
      }
    }
    func next(_ step: TraceStep) -> TraceStep? {
      if let seen = downstream[step] { return seen }
      // Never seen to pass a value on: the next position of a chain with one step per position.
      guard atPosition[key(step)]?.count == 1,
        let candidates = atPosition[Key(owner: step.owner, instance: step.instance, index: step.index + 1)],
        candidates.count == 1
      else { return nil }
      return candidates[0]
    }

    var reached: Set<Int> = []  // entries that caused a delivery of their next step
    for entry in entries {
      guard case .step(let step, _) = entry.kind, let parent = entry.parent,
        case .step(let upstream, _) = entries[parent].kind, next(upstream) == step
      else { continue }
      reached.insert(parent)
    }

    var subscribedBy: Set<Int> = []  // entries that caused a subscription
    for entry in entries {
      if case .subscribed = entry.kind, let parent = entry.parent { subscribedBy.insert(parent) }
    }

    var drops: [StepDrop] = []
    // A held value per (step, subscription), for the steps that hold one (`replaced`).
    var pending: [TraceStep: [Int: (entry: Int, value: Value)]] = [:]
    for (index, entry) in entries.enumerated() {
      guard case .step(let step, let subscription) = entry.kind else { continue }
      // A step's own delivery: a value sent is no longer held; a completion drops the held one
      // when the step says so (Combine's debounce).
      if let held = pending[step]?[subscription] {
        pending[step]?[subscription] = nil
        if case .completed? = entry.event, let atEnd = step.drops?.atEnd {
          drops.append(
            StepDrop(
              entry: index, step: step, subscription: subscription, frame: entry.frame, value: held.value,
              reason: atEnd))
        }
      }
      guard !step.isOutput, case .next(let value)? = entry.event, let target = next(step),
        let kind = target.drops?.kind, let reason = reason(target, label: labels.label(target))
      else { continue }
      let dropped: Value
      switch kind {
      case .replaced:
        defer { pending[target, default: [:]][subscription] = (index, value) }
        guard let held = pending[target]?[subscription] else { continue }
        dropped = held.value
      case .unsent:
        guard !reached.contains(index) else { continue }
        dropped = value
      case .unsubscribed:
        guard !subscribedBy.contains(index) else { continue }
        dropped = value
      }
      drops.append(
        StepDrop(
          entry: index, step: target, subscription: subscription, frame: entry.frame, value: dropped, reason: reason))
    }
    return drops
  }
}
