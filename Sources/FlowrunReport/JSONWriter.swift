/// A JSON value with object keys kept in the order they were added, written deterministically.
public indirect enum JSON: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    lhs.rendered() == rhs.rendered()
  }

  /// The JSON text, pretty-printed with two-space indentation when `indent` is given.
  public func rendered(indent: Int? = 2) -> String {
    var out = ""
    write(to: &out, indent: indent, level: 0)
    return out
  }

  private func write(to out: inout String, indent: Int?, level: Int) {
    let newline = indent == nil ? "" : "\n"
    let pad = { (level: Int) in String(repeating: " ", count: (indent ?? 0) * level) }
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .double(let value):
      out +=
        value.isFinite
        ? (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) + ".0" : "\(value)") : "null"
    case .string(let value): out += JSON.quote(value)
    case .array(let items):
      guard !items.isEmpty else {
        out += "[]"
        return
      }
      out += "[" + newline
      for (index, item) in items.enumerated() {
        out += pad(level + 1)
        item.write(to: &out, indent: indent, level: level + 1)
        out += (index < items.count - 1 ? "," : "") + newline
      }
      out += pad(level) + "]"
    case .object(let entries):
      guard !entries.isEmpty else {
        out += "{}"
        return
      }
      out += "{" + newline
      for (index, (key, value)) in entries.enumerated() {
        out += pad(level + 1) + JSON.quote(key) + (indent == nil ? ":" : ": ")
        value.write(to: &out, indent: indent, level: level + 1)
        out += (index < entries.count - 1 ? "," : "") + newline
      }
      out += pad(level) + "}"
    }
  }

  static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
