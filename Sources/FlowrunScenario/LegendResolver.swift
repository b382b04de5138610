import FlowrunCore
import FlowrunMarbles

/// Resolves marble tokens to values through a marble's own legend and the file's, making signal
/// values (`!cold`/`!hot` entries) with `makeSignal`.
///
/// Expectations make recorded signals (events to compare); a run makes live sources. Each file
/// legend entry is resolved once; an entry that reaches itself is reported through `cycle`.
struct LegendResolver {
  /// Makes the value of a signal-valued entry from its marble and resolved events; the hot
  /// marble's index is given for `!hot` entries.
  typealias MakeSignal = (MarbleInput, [Recorded], Int?) -> Value

  private let plan: ScenarioPlan
  private let makeSignal: MakeSignal
  private var fileKeys: [String: LegendValue] = [:]
  private var cache: [String: Value] = [:]
  private var inProgress: Set<String> = []
  /// The first file legend key found to contain itself.
  private(set) var cycle: String?

  /// `fileKeys`, when given, is `fileKeys(of: plan.fileLegend)` computed once by the caller.
  init(plan: ScenarioPlan, fileKeys: [String: LegendValue]? = nil, makeSignal: @escaping MakeSignal) {
    self.plan = plan
    self.makeSignal = makeSignal
    self.fileKeys = fileKeys ?? Self.fileKeys(of: plan.fileLegend)
  }

  /// The file legend by key, the first entry of a key winning.
  static func fileKeys(of legend: [(key: String, value: LegendValue)]) -> [String: LegendValue] {
    var keys: [String: LegendValue] = [:]
    keys.reserveCapacity(legend.count)
    for (key, value) in legend where keys[key] == nil {
      keys[key] = value
    }
    return keys
  }

  /// The value of a legend entry.
  mutating func value(_ entry: LegendValue) -> Value {
    switch entry {
    case .value(let value): return value
    case .cold(let input): return makeSignal(input, events(of: input), nil)
    case .hot(let index):
      let input = plan.hotMarbles[index]
      return makeSignal(input, events(of: input), index)
    }
  }

  /// The events of a marble, its tokens resolved (local legend first, then the file's).
  mutating func events(of input: MarbleInput) -> [Recorded] {
    var local: [String: Value] = [:]
    for (key, entry) in input.localLegend where local[key] == nil {
      local[key] = value(entry)
    }
    let fallback = Legend()
    var events: [Recorded] = []
    events.reserveCapacity(input.marble.items.count)
    for item in input.marble.items {
      let event: Event
      switch item.kind {
      case let .value(token, quoted):
        let value = local[token] ?? fileValue(token) ?? fallback.resolve(token: token, quoted: quoted)
        event = .next(value)
      case .error: event = .error(input.errorValue)
      case .completed: event = .completed
      }
      events.append(Recorded(frame: item.frame, event: event))
    }
    return events
  }

  private mutating func fileValue(_ key: String) -> Value? {
    if let value = cache[key] { return value }
    guard let entry = fileKeys[key] else { return nil }
    if case .value(let value) = entry { return value }
    guard !inProgress.contains(key) else {
      if cycle == nil { cycle = key }
      return .null
    }
    inProgress.insert(key)
    let value = value(entry)
    inProgress.remove(key)
    cache[key] = value
    return value
  }
}
