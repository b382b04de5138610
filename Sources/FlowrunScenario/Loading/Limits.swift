import FlowrunCore
import FlowrunYAML

extension RunLimits {
  /// The keys of `limit:` and of `--limit key=value` that set a run limit, with their defaults.
  public static let keys = ["time", "steps", "depth", "events", "deliveries", "memory", "nesting"]

  /// The limit named `key` (one of `keys`).
  public subscript(key: String) -> Int? {
    get {
      switch key {
      case "time": time
      case "steps": steps
      case "depth": depth
      case "events": events
      case "deliveries": budget.deliveries
      case "memory": budget.memory
      case "nesting": budget.nesting
      default: nil
      }
    }
    set {
      guard let newValue else { return }
      switch key {
      case "time": time = newValue
      case "steps": steps = newValue
      case "depth": depth = newValue
      case "events": events = newValue
      case "deliveries": budget.deliveries = newValue
      case "memory": budget.memory = newValue
      case "nesting": budget.nesting = newValue
      default: break
      }
    }
  }
}

extension Scenario {
  /// The guards of this scenario's runs (its `limit:` over the defaults).
  public var limits: RunLimits {
    get { plan.limits }
    set { plan.limits = newValue }
  }

  /// Applies limits given on the command line: each replaces the default, and a scenario's own
  /// `limit:` may only lower it.
  public mutating func applyLimits(_ overrides: [String: Int]) {
    let defaults = RunLimits()
    for (key, value) in overrides {
      guard let own = plan.limits[key], let standard = defaults[key] else { continue }
      plan.limits[key] = own != standard ? min(own, value) : value
    }
  }

  /// Small limits for fuzzing: every run ends quickly whatever the scenario says.
  public mutating func limitRunsForFuzzing() {
    plan.limits.time = min(plan.limits.time, 10_000)
    plan.limits.steps = min(plan.limits.steps, 20_000)
    plan.limits.depth = min(plan.limits.depth, 1_000)
    plan.limits.events = min(plan.limits.events, 2_000)
    plan.limits.budget.deliveries = min(plan.limits.budget.deliveries, 50_000)
    plan.limits.budget.memory = min(plan.limits.budget.memory, 32 << 20)
    plan.limits.budget.nesting = min(plan.limits.budget.nesting, 20_000)
  }
}

extension YAMLLimits {
  /// The keys of `--limit key=value` that set a limit of reading files.
  public static let keys = ["file-size", "yaml-depth", "yaml-nodes", "aliases"]

  /// The limit named `key` (one of `keys`).
  public subscript(key: String) -> Int? {
    get {
      switch key {
      case "file-size": maxFileSize
      case "yaml-depth": maxDepth
      case "yaml-nodes": maxNodes
      case "aliases": aliasExpansion
      default: nil
      }
    }
    set {
      guard let newValue else { return }
      switch key {
      case "file-size": maxFileSize = newValue
      case "yaml-depth": maxDepth = newValue
      case "yaml-nodes": maxNodes = newValue
      case "aliases": aliasExpansion = newValue
      default: break
      }
    }
  }
}
