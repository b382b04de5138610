import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunYAML
import OrderedCollections

/// A `values` legend (the file's, a marble step's or an expectation's own) in one
/// representation: the YAML mapping itself, whose large key sets the YAML layer indexes by hash
/// while parsing. Plain values are read from their node when a token needs them; only signal
/// entries (`!cold`/`!hot` marbles) are compiled, at load.
///
/// A legend of a million entries therefore costs no more than its YAML nodes: no table of
/// keys, no array of values, no second copy for expectations. The legend is validated entry by
/// entry when it is read (`ScenarioCompiler.legendEntries`), so look-ups report nothing.
struct LegendTable: Sendable {
  /// The `values` mapping; nil for an empty legend.
  var mapping: YAMLNode?
  /// The signal entries by key in file order (the first of a key), compiled at load.
  var signals: OrderedDictionary<String, LegendValue> = [:]
  /// The plain values of a small legend (at most `resolvedLimit` entries) in file order,
  /// resolved at load: a token is found by comparing a few (mostly small, inline) strings,
  /// cheaper than hashing it. Nil for larger legends, read from the YAML.
  var resolved: [(key: String, value: Value)]?

  static let resolvedLimit = 16

  /// The value of the first entry of `key` in `entries`.
  @inline(__always)
  static func find(_ key: String, in entries: [(key: String, value: Value)]) -> Value? {
    for entry in entries where entry.key == key { return entry.value }
    return nil
  }

  static let empty = LegendTable()

  /// Whether no entry is a signal (so resolved events can be shared by every run).
  var isPlain: Bool { signals.isEmpty }

  /// The first entry of `key`, nil when the legend has none.
  func entry(_ key: String) -> LegendValue? {
    if !signals.isEmpty, let signal = signals[key] { return signal }
    if let resolved { return Self.find(key, in: resolved).map { .value($0) } }
    guard let mapping, let pair = mapping.pair(forKey: key) else { return nil }
    return .value(Self.plainValue(pair.value))
  }

  /// The first signal entry (in file order) that contains itself through the signal entries
  /// of this legend, nil when none does. Iterative: a long chain of entries needs no stack.
  func firstCycle(hotMarbles: [MarbleInput]) -> String? {
    // 1: on the current path, 2: done (no cycle through it).
    var state: [String: Int] = [:]
    for root in signals.keys where state[root] == nil {
      var path: [(key: String, tokens: [String], next: Int)] = [(root, contained(in: root, hotMarbles), 0)]
      state[root] = 1
      while let last = path.indices.last {
        guard path[last].next < path[last].tokens.count else {
          state[path[last].key] = 2
          path.removeLast()
          continue
        }
        let token = path[last].tokens[path[last].next]
        path[last].next += 1
        switch state[token] {
        case 1?: return token
        case 2?: continue
        default:
          state[token] = 1
          path.append((token, contained(in: token, hotMarbles), 0))
        }
      }
    }
    return nil
  }

  /// The signal entries of this legend that the marble of signal entry `key` names.
  private func contained(in key: String, _ hotMarbles: [MarbleInput]) -> [String] {
    let items: [MarbleItem]
    switch signals[key] {
    case .cold(let input)?: items = input.marble.items
    case .hot(let index)?: items = hotMarbles[index].marble.items
    case .value?, nil: return []
    }
    return items.compactMap { item in
      guard case .value(let token, _) = item.kind, signals[token] != nil else { return nil }
      return token
    }
  }

  /// The keys in file order, the first of a duplicated key only (only files without errors are
  /// run, so every key here is a valid marble token).
  var keys: [String] {
    guard let pairs = mapping?.mappingPairs else { return [] }
    var seen = Set<String>()
    return pairs.compactMap { pair in
      guard let key = pair.key.scalarValue, seen.insert(key).inserted else { return nil }
      return key
    }
  }

  /// The value a node says, by the YAML 1.2 core schema; `report` hears what cannot be a value
  /// (a signal tag outside a legend, a map key that is not a string), which becomes null or is
  /// left out.
  static func plainValue(
    _ node: YAMLNode, report: (_ message: Diagnostic.Message, _ node: YAMLNode) -> Void = { _, _ in }
  ) -> Value {
    if let tag = node.tag, tag == "!cold" || tag == "!hot" {
      report(.signalValueOutsideLegend(tag: tag), node)
      return .null
    }
    if let scalar = node.resolvedScalar {
      switch scalar {
      case .null: return .null
      case .bool(let value): return .bool(value)
      case .int(let value): return .int(value)
      case .double(let value): return .double(value)
      case .string(let text): return .string(text)
      }
    }
    if let items = node.sequenceItems {
      return .list(items.map { plainValue($0, report: report) })
    }
    // A node that is neither a scalar nor a sequence is a mapping.
    guard let pairs = node.mappingPairs else { return .null }
    var entries = OrderedDictionary<String, Value>()
    for pair in pairs {
      guard let key = pair.key.scalarValue else {
        report(.mapKeyNotString(pair.key), pair.key)
        continue
      }
      entries[key] = plainValue(pair.value, report: report)
    }
    return .map(entries)
  }
}

/// The file legend as expectations and printed marbles see it: plain values read from the
/// legend's YAML on demand, signal entries resolved once, at load, to their recorded events.
public final class ExpectedLegend: Sendable {
  let table: LegendTable
  let signals: [String: Value]

  /// No legend at all (subscription logs).
  static let none = ExpectedLegend(table: .empty, signals: [:])

  init(table: LegendTable, signals: [String: Value]) {
    self.table = table
    self.signals = signals
  }

  /// The value of `key`, nil when the legend has none.
  func value(forKey key: String) -> Value? {
    if let signal = signals[key] { return signal }
    guard case .value(let value)? = table.entry(key) else { return nil }
    return value
  }

  /// Every entry in file order (made on each call: printing needs it, running does not).
  public var entries: [(key: String, value: Value)] {
    table.keys.compactMap { key in value(forKey: key).map { (key, $0) } }
  }
}

extension Diagnostic.Message {
  fileprivate static func signalValueOutsideLegend(tag: String) -> Self {
    "a '\(tag)' signal value is only allowed in a 'values' legend"
  }
  fileprivate static func mapKeyNotString(_ key: YAMLNode) -> Self {
    "map keys must be strings, found a \(key.kindName)"
  }
}
