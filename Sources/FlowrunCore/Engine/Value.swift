public import OrderedCollections

/// A value carried by a signal: what YAML can say, plus a signal itself (higher-order values).
///
/// Values compare deeply (`==`): an integer equals a decimal of the same number (`1 == 1.0`),
/// maps compare without regard to key order, and NaN equals NaN so that an expected `.nan`
/// matches. Signals compare by their recorded events when both have them, else by identity.
public enum Value: Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case list([Value])
  case map(OrderedDictionary<String, Value>)
  case signal(SignalValue)
}

// MARK: - Equatable

extension Value: Equatable {
  public static func == (lhs: Value, rhs: Value) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case let (.bool(a), .bool(b)): return a == b
    case let (.int(a), .int(b)): return a == b
    case let (.double(a), .double(b)): return a == b || (a.isNaN && b.isNaN)
    case let (.int(a), .double(b)), let (.double(b), .int(a)): return Int(exactly: b) == a
    case let (.string(a), .string(b)): return a == b
    case let (.list(a), .list(b)): return a == b
    case let (.map(a), .map(b)):
      guard a.count == b.count else { return false }
      for (key, value) in a {
        guard let other = b[key], other == value else { return false }
      }
      return true
    case let (.signal(a), .signal(b)): return a == b
    default: return false
    }
  }
}

// MARK: - Accessors

extension Value {
  /// The name of the value's kind, as diagnostics say it.
  public var kindName: String {
    switch self {
    case .null: "nil"
    case .bool: "Bool"
    case .int: "Int"
    case .double: "Double"
    case .string: "String"
    case .list: "List"
    case .map: "Map"
    case .signal: "Signal"
    }
  }

  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

// MARK: - CustomStringConvertible

extension Value: CustomStringConvertible {
  /// The value in YAML flow style, so it can be pasted into a legend: `"text"`, `[1, 2]`,
  /// `{ userName: "雨夜" }`, `null`.
  public var description: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
    case .double(let d): return Value.format(d)
    case .string(let s): return Value.quoted(s)
    case .list(let items):
      return "[" + items.map(\.description).joined(separator: ", ") + "]"
    case .map(let entries):
      if entries.isEmpty { return "{}" }
      let parts = entries.map { key, value in "\(Value.mapKey(key)): \(value.description)" }
      return "{ " + parts.joined(separator: ", ") + " }"
    case .signal(let signal): return signal.description
    }
  }

  static func format(_ d: Double) -> String {
    if d.isNaN { return ".nan" }
    if d.isInfinite { return d < 0 ? "-.inf" : ".inf" }
    if d == d.rounded(), abs(d) < 1e15 { return String(format: d) }
    return "\(d)"
  }

  /// A double-quoted YAML string with the escapes YAML and the expression language share.
  public static func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  static func mapKey(_ key: String) -> String {
    let isPlain =
      !key.isEmpty
      && key.unicodeScalars.allSatisfy {
        $0 == "_" || $0 == "." || $0.properties.isAlphabetic || ("0"..."9").contains($0)
      }
      && !["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"].contains(key.lowercased())
      && !(key.unicodeScalars.first.map { ("0"..."9").contains($0) } ?? false)
    return isPlain ? key : quoted(key)
  }
}

extension String {
  /// `1.0` → `"1.0"`: a whole decimal keeps its `.0` so it reads back as a decimal.
  fileprivate init(format d: Double) {
    self = String(Int(d)) + ".0"
  }
}
