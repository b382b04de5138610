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

  /// The reason each filtering step gives, by traced step name; nil for steps that never drop.
  static func reason(_ step: String, label: String) -> String? {
    switch step {
    case "distinctUntilChanged": "same as before"
    case "filter": "the condition is false"
    case "skip": "skipped"
    case "skipWhile": "skipped while the condition holds"
    case "skipUntil": "before the notifier's first value"
    case "ignoreElements", "ignoreValues", "ignore": "ignored"
    case "debounce":
      label.hasPrefix("debounce ")
        ? "a newer value came within \(label.dropFirst("debounce ".count))" : "a newer value came in time"
    default: nil
    }
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

    var drops: [StepDrop] = []
    // A debounce's pending value per (step, subscription).
    var pending: [TraceStep: [Int: (entry: Int, value: Value)]] = [:]
    for (index, entry) in entries.enumerated() {
      guard case .step(let step, let subscription) = entry.kind else { continue }
      // A step's own delivery: a debounce sent what it held.
      pending[step]?[subscription] = nil
      guard !step.isOutput, case .next(let value)? = entry.event, let target = next(step) else { continue }
      let label = labels.label(target)
      guard let reason = reason(target.name, label: label) else { continue }
      if target.name == "debounce" {
        if let held = pending[target]?[subscription] {
          drops.append(
            StepDrop(
              entry: index, step: target, subscription: subscription, frame: entry.frame, value: held.value,
              reason: reason))
        }
        pending[target, default: [:]][subscription] = (index, value)
      } else if !reached.contains(index) {
        drops.append(
          StepDrop(
            entry: index, step: target, subscription: subscription, frame: entry.frame, value: value, reason: reason))
      }
    }
    return drops
  }
}
