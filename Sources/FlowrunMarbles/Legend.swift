public import FlowrunCore
internal import OrderedCollections

/// The value legend of a marble: ordered layers of `(key, value)`, the expectation's own first,
/// then the file's.
public struct Legend: Sendable {
  /// The layers in lookup order.
  public private(set) var layers: [[(key: String, value: Value)]]
  /// Every visible key with its value (the first layer holding a key wins).
  private var table: [String: Value]

  public init(layers: [[(key: String, value: Value)]] = []) {
    self.layers = []
    self.table = [:]
    for layer in layers { append(layer: layer) }
  }

  /// Adds a layer looked up after the existing ones.
  public mutating func append(layer: [(key: String, value: Value)]) {
    layers.append(layer)
    for entry in layer where table[entry.key] == nil {
      table[entry.key] = entry.value
    }
  }

  /// The value of `key` in the first layer that has it.
  public func value(forKey key: String) -> Value? {
    table[key]
  }

  /// Whether some layer has `key`.
  public func contains(key: String) -> Bool {
    table[key] != nil
  }

  /// Every visible entry in legend order: layer by layer, shadowed keys skipped.
  public var visibleEntries: [(key: String, value: Value)] {
    var seen = Set<String>()
    var result: [(key: String, value: Value)] = []
    for layer in layers {
      for entry in layer where seen.insert(entry.key).inserted {
        result.append(entry)
      }
    }
    return result
  }

  /// The value of a token: its legend entry, else a digit's integer, a character's string, a
  /// quoted token's text.
  public func resolve(token: String, quoted: Bool) -> Value {
    if !table.isEmpty, let value = table[token] { return value }
    if !quoted, token.unicodeScalars.count == 1, let scalar = token.unicodeScalars.first,
      let digit = DurationLiteral.digitValue(scalar)
    {
      return .int(digit)
    }
    return .string(token)
  }
}

/// A value usable as a dictionary key, hashing consistently with `Value`'s deep `==`.
struct ValueKey: Hashable {
  let value: Value

  static func == (lhs: ValueKey, rhs: ValueKey) -> Bool {
    lhs.value == rhs.value
  }

  func hash(into hasher: inout Hasher) {
    ValueKey.feed(value, into: &hasher)
  }

  /// Feeds `value` so that equal values (`1 == 1.0`, maps in any order) hash alike.
  static func feed(_ value: Value, into hasher: inout Hasher) {
    switch value {
    case .null: hasher.combine(0)
    case .bool(let b):
      hasher.combine(1)
      hasher.combine(b)
    case .int(let i):
      hasher.combine(2)
      hasher.combine(i)
    case .double(let d):
      if let i = Int(exactly: d) {
        hasher.combine(2)
        hasher.combine(i)
      } else if d.isNaN {
        hasher.combine(3)
      } else {
        hasher.combine(4)
        hasher.combine(d)
      }
    case .string(let s):
      hasher.combine(5)
      hasher.combine(s)
    case .list(let items):
      hasher.combine(6)
      hasher.combine(items.count)
      for item in items { feed(item, into: &hasher) }
    case .map(let entries):
      hasher.combine(7)
      hasher.combine(entries.count)
      var sum = 0
      for (key, item) in entries {
        var entryHasher = Hasher()
        entryHasher.combine(key)
        feed(item, into: &entryHasher)
        sum = sum &+ entryHasher.finalize()
      }
      hasher.combine(sum)
    case .signal(let signal):
      hasher.combine(8)
      guard let events = signal.events else {
        hasher.combine(ObjectIdentifier(signal))
        return
      }
      hasher.combine(events.count)
      for recorded in events {
        hasher.combine(recorded.frame)
        switch recorded.event {
        case .next(let item):
          hasher.combine(0)
          feed(item, into: &hasher)
        case .error(let item):
          hasher.combine(1)
          feed(item, into: &hasher)
        case .completed: hasher.combine(2)
        }
      }
    }
  }
}
