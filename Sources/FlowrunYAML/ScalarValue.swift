/// A scalar typed by the YAML 1.2 core schema.
public enum ScalarValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
}

extension ScalarValue {
  /// Types a scalar by the YAML 1.2 core schema, as flowrun reads it.
  ///
  /// Plain scalars: `true`/`false` in any letter case are booleans; `null`, `Null`, `NULL`, `~`
  /// and the empty scalar are null; decimal integers with an optional sign, `0x` hex and `0o`
  /// octal are integers; decimals (`1.5`, `-2e3`, `.5`, `1.`), `.inf`, `-.inf`, `+.inf` and
  /// `.nan` (also `.Inf`, `.INF`, `.NaN`, `.NAN`) are doubles; everything else (`on`, `off`,
  /// `yes`, `no`, `y`, `n` …) is a string.
  ///
  /// Integers outside the 64-bit range resolve to the nearest `.double` (so `1e30`-sized
  /// counts stay numbers; callers that need an exact integer should reject a `.double` where an
  /// `.int` is required).
  ///
  /// Quoted and block scalars are strings. Tags: `!!str` and the non-specific `!` force a
  /// string; `!!int`, `!!float`, `!!bool` and `!!null` are honoured when the text fits them
  /// (otherwise the text is resolved as if untagged); other tags do not change the resolution.
  public static func resolve(
    _ text: String, style: YAMLNode.ScalarStyle = .plain, tag: String? = nil
  ) -> ScalarValue {
    switch tag {
    case "!!str", "!":
      return .string(text)
    case "!!null":
      if let value = resolveNull(text) { return value }
    case "!!bool":
      if let value = resolveBool(text) { return value }
    case "!!int":
      if let value = resolveInt(text) { return value }
    case "!!float":
      if let value = resolveInt(text) {
        if case .int(let int) = value { return .double(Double(int)) }
        return value
      }
      if let value = resolveDouble(text) { return value }
    default:
      break
    }
    guard style == .plain else { return .string(text) }
    return resolvePlain(text)
  }

  /// Core-schema resolution of a plain scalar's text.
  static func resolvePlain(_ text: String) -> ScalarValue {
    if let value = resolveNull(text) { return value }
    guard let first = text.utf8.first else { return .null }
    // Only text starting like a number or a boolean can be anything but a string.
    switch first {
    case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
      return resolveBool(text) ?? .string(text)
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
      UInt8(ascii: "."):
      return resolveInt(text) ?? resolveDouble(text) ?? .string(text)
    default:
      return .string(text)
    }
  }

  private static func resolveNull(_ text: String) -> ScalarValue? {
    guard text.utf8.count <= 4 else { return nil }
    switch text {
    case "", "~", "null", "Null", "NULL": return .null
    default: return nil
    }
  }

  /// `true` or `false` in any ASCII letter case, compared byte by byte (no lowercased copy).
  private static func resolveBool(_ text: String) -> ScalarValue? {
    func matches(_ word: StaticString) -> Bool {
      guard text.utf8.count == word.utf8CodeUnitCount else { return false }
      return zip(text.utf8, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
        .allSatisfy { $0 | 0x20 == $1 }
    }
    if matches("true") { return .bool(true) }
    if matches("false") { return .bool(false) }
    return nil
  }

  /// The common case of `resolveInt` without allocating: `[-+]?[0-9]+` that fits an `Int`
  /// (nil for anything else, which the general path then reads).
  private static func decimalInt(_ text: String) -> Int? {
    var utf8 = text.utf8.makeIterator()
    guard var byte = utf8.next() else { return nil }
    let negative = byte == UInt8(ascii: "-")
    if negative || byte == UInt8(ascii: "+") {
      guard let next = utf8.next() else { return nil }
      byte = next
    }
    var value = 0
    while true {
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      let digit = Int(byte - UInt8(ascii: "0"))
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) =
        negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      guard !overflow1 && !overflow2 else { return nil }
      value = sum
      guard let next = utf8.next() else { return value }
      byte = next
    }
  }

  /// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`; out-of-range values become doubles.
  private static func resolveInt(_ text: String) -> ScalarValue? {
    if let value = decimalInt(text) { return .int(value) }
    let bytes = Array(text.utf8)
    if bytes.count > 2 && bytes[0] == UInt8(ascii: "0") {
      let radix: Int
      switch bytes[1] {
      case UInt8(ascii: "x"): radix = 16
      case UInt8(ascii: "o"): radix = 8
      default: radix = 0
      }
      if radix != 0 {
        var exact: Int? = 0
        var approximate = 0.0
        for byte in bytes[2...] {
          guard let digit = digitValue(byte), digit < radix else { return nil }
          approximate = approximate * Double(radix) + Double(digit)
          if let current = exact {
            let (shifted, overflow1) = current.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            exact = overflow1 || overflow2 ? nil : sum
          }
        }
        if let exact { return .int(exact) }
        return .double(approximate)
      }
    }
    var digits = bytes[...]
    if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty,
      digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    if let int = Int(text) { return .int(int) }
    return Double(text).map { .double($0) }
  }

  /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?\.inf` and `\.nan`.
  private static func resolveDouble(_ text: String) -> ScalarValue? {
    switch text {
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
    case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
    case ".nan", ".NaN", ".NAN": return .double(.nan)
    default: break
    }
    let bytes = Array(text.utf8)
    var i = 0
    func digits() -> Int {
      let start = i
      while i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") {
        i += 1
      }
      return i - start
    }
    if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
      i += 1
    }
    let integerDigits = digits()
    var fractionDigits = 0
    if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
      i += 1
      fractionDigits = digits()
    }
    guard integerDigits > 0 || fractionDigits > 0 else { return nil }
    if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
      i += 1
      if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
        i += 1
      }
      guard digits() > 0 else { return nil }
    }
    guard i == bytes.count else { return nil }
    // Swift's parser does not take "1." or ".5" forms everywhere; normalise them.
    var normalised = text
    if fractionDigits == 0, let dot = normalised.firstIndex(of: ".") {
      normalised.insert("0", at: normalised.index(after: dot))
    }
    if integerDigits == 0, let dot = normalised.firstIndex(of: ".") {
      normalised.insert("0", at: dot)
    }
    return Double(normalised).map { .double($0) }
  }

  private static func digitValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
    default: return nil
    }
  }
}
