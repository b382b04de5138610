import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
import OrderedCollections

/// Resolves marble tokens to values through a marble's own legend and the file's, making signal
/// values (`!cold`/`!hot` entries) with `makeSignal`.
///
/// Expectations make recorded signals (events to compare); a run makes live sources. Plain
/// values are read from the legend's YAML (LegendTable.swift); each signal entry of the file
/// legend is resolved once, and an entry that reaches itself is reported through `cycle`.
struct LegendResolver {
  /// Makes the value of a signal-valued entry from its marble and resolved events; the hot
  /// marble's index is given for `!hot` entries.
  typealias MakeSignal = (MarbleInput, [Recorded], Int?) -> Value

  private let plan: ScenarioPlan
  private let makeSignal: MakeSignal
  private var signals: [String: Value] = [:]
  private var inProgress: Set<String> = []
  /// The first file legend key found to contain itself.
  private(set) var cycle: String?

  init(plan: ScenarioPlan, makeSignal: @escaping MakeSignal) {
    self.plan = plan
    self.makeSignal = makeSignal
  }

  /// The value of a legend entry.
  mutating func value(_ entry: LegendValue) -> Value {
    switch entry {
    case .value(let value): return value
    case .cold(let input): return makeSignal(input, events(of: input), nil)
    case .hot(let index):
      let input = plan.hotMarbles[index]
      let resolved = index < plan.resolvedHotEvents.count ? plan.resolvedHotEvents[index] : nil
      return makeSignal(input, resolved?.events ?? events(of: input), index)
    }
  }

  /// What resolving one marble's tokens needs: its own legend (signal entries made once, as
  /// the marble's own values), the file's, and the value of `#`.
  struct Tokens {
    fileprivate var localSignals: [String: Value] = [:]
    fileprivate var local: LegendTable
    fileprivate var fileTable: [(key: String, value: Value)]?
    fileprivate var errorValue: Value
    fileprivate let fallback = Legend()
    /// For a long marble read through a small plain file legend alone: the value of each
    /// one-byte (ASCII) key, by byte (nil for a byte no key is), which the parser resolves its
    /// one-character tokens with (`MarbleParser.parse(_:hot:values:eachValue:each:)`).
    fileprivate var byByte: [Value?]?

    /// Fills `byByte` from the file table, when the marble has no legend of its own.
    fileprivate mutating func indexSingleBytes() {
      guard local.mapping == nil, let fileTable else { return }
      var table = [Value?](repeating: nil, count: 128)
      // The first entry of a key wins, as `LegendTable.find` finds it.
      for entry in fileTable.reversed() where entry.key.utf8.count == 1 {
        let byte = entry.key.utf8.first!
        if byte < 128 { table[Int(byte)] = entry.value }
      }
      byByte = table
    }
  }

  /// Prepares the resolution of a marble's tokens: `legend` first, then the file's legend.
  mutating func tokens(legend: LegendTable, errorValue: Value) -> Tokens {
    var tokens = plainTokens(legend: legend, errorValue: errorValue)
    if !legend.signals.isEmpty { tokens.localSignals = localSignals(of: legend) }
    return tokens
  }

  private func plainTokens(legend: LegendTable, errorValue: Value) -> Tokens {
    // A plain small file legend answers from its resolved table, without cycle bookkeeping.
    Tokens(local: legend, fileTable: plan.fileLegend.isPlain ? plan.fileLegend.resolved : nil, errorValue: errorValue)
  }

  /// The value of every signal entry of a marble's own legend (a step's or an expectation's
  /// `values`). Each entry's marble reads its tokens from that same legend, then the file's
  /// (scenario-format §Values: "a marble with the same legend"), so an entry is made after the
  /// entries it contains. A legend entry that contains itself is reported at load
  /// (`ScenarioCompiler.checkLocalLegend`); here it just reads null.
  mutating func localSignals(of legend: LegendTable) -> [String: Value] {
    var values: [String: Value] = [:]
    for key in legend.signals.keys where values[key] == nil {
      localSignal(key, in: legend, &values)
    }
    return values
  }

  private mutating func localSignal(_ key: String, in legend: LegendTable, _ values: inout [String: Value]) {
    let input: MarbleInput
    let hotIndex: Int?
    switch legend.signals[key] {
    case .cold(let cold)?: (input, hotIndex) = (cold, nil)
    case .hot(let index)?: (input, hotIndex) = (plan.hotMarbles[index], index)
    case .value(let value)?:
      values[key] = value
      return
    case nil: return
    }
    values[key] = .null  // while in progress
    if let hotIndex, hotIndex < plan.resolvedHotEvents.count, let resolved = plan.resolvedHotEvents[hotIndex] {
      values[key] = makeSignal(input, resolved.events, hotIndex)
      return
    }
    for item in input.marble.items {
      if case .value(let token, _) = item.kind, values[token] == nil, legend.signals[token] != nil {
        localSignal(token, in: legend, &values)
      }
    }
    var tokens = plainTokens(legend: legend, errorValue: input.errorValue)
    tokens.localSignals = values
    let events = input.marble.items.map { event($0, tokens) }
    values[key] = makeSignal(input, events, hotIndex)
  }

  /// Every entry of a marble's own legend in file order, signal entries made as `tokens` makes
  /// them.
  mutating func entries(of legend: LegendTable) -> [(key: String, value: Value)] {
    let signals = legend.signals.isEmpty ? [:] : localSignals(of: legend)
    return legend.keys.compactMap { key in
      if let signal = signals[key] { return (key, signal) }
      guard case .value(let value)? = legend.entry(key) else { return nil }
      return (key, value)
    }
  }

  /// One item as an event, its token resolved.
  mutating func event(_ item: MarbleItem, _ tokens: Tokens) -> Recorded {
    let event: Event
    switch item.kind {
    case let .value(token, quoted):
      let value: Value
      if tokens.local.mapping != nil,
        let own = tokens.localSignals[token] ?? localValue(token, in: tokens.local)
      {
        value = own
      } else if let fileTable = tokens.fileTable {
        value = LegendTable.find(token, in: fileTable) ?? tokens.fallback.resolve(token: token, quoted: quoted)
      } else {
        value = fileValue(token) ?? tokens.fallback.resolve(token: token, quoted: quoted)
      }
      event = .next(value)
    case .error: event = .error(tokens.errorValue)
    case .completed: event = .completed
    }
    return Recorded(frame: item.frame, event: event)
  }

  /// The events of a marble, its tokens resolved (local legend first, then the file's).
  mutating func events(of input: MarbleInput) -> [Recorded] {
    if let events = input.events { return events.events }
    let tokens = tokens(legend: input.localLegend, errorValue: input.errorValue)
    return input.marble.items.map { event($0, tokens) }
  }

  /// The events of a marble, packed.
  mutating func tape(of input: MarbleInput) -> EventTape {
    if let events = input.events { return events }
    let tokens = tokens(legend: input.localLegend, errorValue: input.errorValue)
    var events = EventTape()
    events.reserveCapacity(events: input.marble.items.count)
    for item in input.marble.items {
      events.append(event(item, tokens))
    }
    return events
  }

  /// The events of a hot or expectation marble, its tokens resolved while it is parsed (its
  /// items are never all held at once).
  mutating func parseEvents(
    _ text: String, hot: Bool, parser: MarbleParser, legend: LegendTable, errorValue: Value
  ) throws(MarbleError) -> (marble: ParsedMarble, events: EventTape) {
    var prepared = tokens(legend: legend, errorValue: errorValue)
    if text.utf8.count >= 256 { prepared.indexSingleBytes() }
    // A constant for the closure below (a captured variable would be boxed and checked).
    let tokens = prepared
    var events = EventTape()
    let (marble, zero) =
      if let byByte = tokens.byByte {
        try parser.parse(
          text, hot: hot, values: byByte,
          eachValue: { frame, value in events.append(Recorded(frame: frame, event: .next(value))) },
          each: { item in events.append(event(item, tokens)) })
      } else {
        try parser.parse(text, hot: hot) { item in events.append(event(item, tokens)) }
      }
    events.shiftFrames(by: -zero)
    return (marble, events)
  }

  /// The value of every signal entry of the file legend, as `makeSignal` makes it.
  mutating func fileSignals() -> [String: Value] {
    for key in plan.fileLegend.signals.keys where signals[key] == nil {
      _ = fileValue(key)
    }
    return signals
  }

  private func localValue(_ key: String, in legend: LegendTable) -> Value? {
    guard case .value(let value)? = legend.entry(key) else { return nil }
    return value
  }

  private mutating func fileValue(_ key: String) -> Value? {
    if !signals.isEmpty, let value = signals[key] { return value }
    guard let entry = plan.fileLegend.entry(key) else { return nil }
    if case .value(let value) = entry { return value }
    guard !inProgress.contains(key) else {
      if cycle == nil { cycle = key }
      return .null
    }
    inProgress.insert(key)
    let value = value(entry)
    inProgress.remove(key)
    signals[key] = value
    return value
  }
}
