import FlowrunCore
import FlowrunDiagnostics
import OrderedCollections

/// A member read, resolved when the expression is compiled.
enum Member: Sendable {
  case count, isEmpty, first, last, keys, values
  /// Any other name: reads that key of a map.
  case key(String)

  init(_ name: String) {
    switch name {
    case "count": self = .count
    case "isEmpty": self = .isEmpty
    case "first": self = .first
    case "last": self = .last
    case "keys": self = .keys
    case "values": self = .values
    default: self = .key(name)
    }
  }

  var name: String {
    switch self {
    case .count: "count"
    case .isEmpty: "isEmpty"
    case .first: "first"
    case .last: "last"
    case .keys: "keys"
    case .values: "values"
    case .key(let name): name
    }
  }

  /// Reads the member of `base`, failing at `at` where it does not apply.
  func read(_ base: Value, _ at: Int) throws(EvaluationError) -> Value {
    switch (self, base) {
    case (.count, _): return try Member.count(of: base, at)
    case (.isEmpty, .string(let s)): return .bool(s.isEmpty)
    case (.isEmpty, .list(let l)): return .bool(l.isEmpty)
    case (.isEmpty, .map(let m)): return .bool(m.isEmpty)
    case (.first, .string(let s)): return s.first.map { .string(String($0)) } ?? .null
    case (.first, .list(let l)): return l.first ?? .null
    case (.first, .map(let m)): return m.elements.first.map(Member.entry) ?? .null
    case (.last, .string(let s)): return s.last.map { .string(String($0)) } ?? .null
    case (.last, .list(let l)): return l.last ?? .null
    case (.last, .map(let m)): return m.elements.last.map(Member.entry) ?? .null
    case (.keys, .map(let m)): return .list(m.keys.map { .string($0) })
    case (.values, .map(let m)): return .list(Array(m.values))
    case (.key(let key), .map(let m)): return m[key] ?? .null
    default: throw wrongKind(.cannotRead(name, of: base), base, member: name, at)
    }
  }

  /// `.count` of `base`: the characters of a string, the elements of a list or a map.
  static func count(of base: Value, _ at: Int) throws(EvaluationError) -> Value {
    switch base {
    case .string(let s): return .int(characterCount(s))
    case .list(let l): return .int(l.count)
    case .map(let m): return .int(m.count)
    default: throw wrongKind(.cannotRead("count", of: base), base, member: "count", at)
    }
  }

  /// `s.count`, counted byte by byte when `s` is ASCII: there every character is one byte,
  /// except `\r\n`, which is one character of two.
  static func characterCount(_ s: String) -> Int {
    let ascii = s.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
      var count = bytes.count
      var previous: UInt8 = 0
      for byte in bytes {
        if byte >= 0x80 { return nil }
        if byte == 0x0A, previous == 0x0D { count -= 1 }
        previous = byte
      }
      return count
    }
    return ascii.flatMap { $0 } ?? s.count
  }

  /// A map entry as a value: `["key": k, "value": v]`.
  static func entry(_ element: (key: String, value: Value)) -> Value {
    .map(["key": .string(element.key), "value": element.value])
  }
}

/// Reads `base[index]`: a list by Int (out of range is an error), a map by String (nil if absent).
func subscriptValue(_ base: Value, _ index: Value, _ at: Int) throws(EvaluationError) -> Value {
  switch (base, index) {
  case (.list(let items), .int(let i)):
    guard i >= 0, i < items.count else {
      throw failure(.indexOutOfRange(i, count: items.count), at)
    }
    return items[i]
  case (.list, _):
    throw failure(.listIndexNotInt(index), at)
  case (.map(let entries), .string(let key)):
    return entries[key] ?? .null
  case (.map, _):
    throw failure(.mapKeyNotString(index), at)
  default:
    throw failure(.cannotSubscript(base), at)
  }
}

extension Diagnostic.Message {
  fileprivate static func cannotRead(_ member: String, of value: Value) -> Self {
    "cannot read '\(member)' of \(value.kindName)"
  }
  fileprivate static func indexOutOfRange(_ index: Int, count: Int) -> Self {
    "index \(index) out of range (count \(count))"
  }
  fileprivate static func listIndexNotInt(_ index: Value) -> Self {
    "a list index must be an Int, got \(index.kindName)"
  }
  fileprivate static func cannotSubscript(_ value: Value) -> Self { "cannot subscript \(value.kindName)" }
}
