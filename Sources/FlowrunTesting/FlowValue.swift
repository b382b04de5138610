public import FlowrunCore
import FlowrunReport
import Foundation
import OrderedCollections

/// A Swift type that converts to and from flowrun's `Value` directly: the numbers, strings,
/// booleans, optionals, arrays and dictionaries of the scenario's legends. Any other `Codable`
/// type converts through its coding keys (a struct becomes a map, compared with the legend's
/// maps without regard to key order).
public protocol FlowValueConvertible {
  /// The value as a scenario writes it.
  var flowValue: Value { get }
  /// The Swift value of `value`; nil when it is of another kind.
  init?(flowValue value: Value)
}

extension Bool: FlowValueConvertible {
  public var flowValue: Value { .bool(self) }
  public init?(flowValue value: Value) {
    guard case .bool(let bool) = value else { return nil }
    self = bool
  }
}

extension Int: FlowValueConvertible {
  public var flowValue: Value { .int(self) }
  public init?(flowValue value: Value) {
    switch value {
    case .int(let int): self = int
    case .double(let double):
      guard let int = Int(exactly: double) else { return nil }
      self = int
    default: return nil
    }
  }
}

extension Double: FlowValueConvertible {
  public var flowValue: Value { .double(self) }
  public init?(flowValue value: Value) {
    switch value {
    case .int(let int): self = Double(int)
    case .double(let double): self = double
    default: return nil
    }
  }
}

extension String: FlowValueConvertible {
  public var flowValue: Value { .string(self) }
  public init?(flowValue value: Value) {
    guard case .string(let string) = value else { return nil }
    self = string
  }
}

extension Optional: FlowValueConvertible where Wrapped: FlowValueConvertible {
  public var flowValue: Value { self?.flowValue ?? .null }
  public init?(flowValue value: Value) {
    if case .null = value {
      self = .none
      return
    }
    guard let wrapped = Wrapped(flowValue: value) else { return nil }
    self = .some(wrapped)
  }
}

extension Array: FlowValueConvertible where Element: FlowValueConvertible {
  // A closure, not `\.flowValue`: in this generic context a key path is made anew (allocated)
  // for every array converted.
  public var flowValue: Value { .list(map { $0.flowValue }) }
  public init?(flowValue value: Value) {
    guard case .list(let items) = value else { return nil }
    var result: [Element] = []
    result.reserveCapacity(items.count)
    for item in items {
      guard let element = Element(flowValue: item) else { return nil }
      result.append(element)
    }
    self = result
  }
}

extension Dictionary: FlowValueConvertible where Key == String, Value: FlowValueConvertible {
  public var flowValue: FlowrunCore.Value {
    .map(OrderedDictionary(uniqueKeysWithValues: sorted { $0.key < $1.key }.map { ($0.key, $0.value.flowValue) }))
  }
  public init?(flowValue value: FlowrunCore.Value) {
    guard case .map(let entries) = value else { return nil }
    var result: [String: Value] = [:]
    for (key, item) in entries {
      guard let element = Value(flowValue: item) else { return nil }
      result[key] = element
    }
    self = result
  }
}

/// The answer of a service whose Swift type has no value (`func logout() -> Single<Void>`,
/// `AnyPublisher<Void, Error>`): `Void` is not `Decodable`, so the test takes the service as
/// `flow.service("api.logout", returning: FlowVoid.self)` and maps its answers to `()`. Any
/// value of the scenario converts to it (a service's `r: ~` most often).
public struct FlowVoid: FlowValueConvertible, Decodable, Hashable, Sendable {
  /// The one value of the type.
  public init() {}
  public var flowValue: Value { .null }
  public init?(flowValue value: Value) {}
  public init(from decoder: any Decoder) throws {}
}

/// Why a value did not convert.
struct ConversionError: Error {
  var reason: String
}

/// Conversions between Swift values and flowrun's: directly for ``FlowValueConvertible``
/// types, through JSON for any other `Codable` type (Foundation's default strategies: a `Date`
/// is a number of seconds, `Data` base64).
enum FlowValues {
  static func value<T>(of swift: T) throws(ConversionError) -> Value {
    if let optional = swift as? any OptionalValue, optional.isNone { return .null }
    if let convertible = swift as? any FlowValueConvertible { return convertible.flowValue }
    if let value = swift as? Value { return value }
    guard let encodable = swift as? any Encodable else {
      throw ConversionError(reason: "\(T.self) is neither FlowValueConvertible nor Encodable")
    }
    let data: Data
    do {
      data = try JSONEncoder().encode(encodable)
    } catch {
      throw ConversionError(reason: "encoding failed: \(error)")
    }
    var reader = JSONValueReader(bytes: Array(data))
    guard let value = reader.read() else { throw ConversionError(reason: "its JSON did not read back") }
    return value
  }

  /// The conversion of values to `T`, chosen once for the type (a binding converts every value
  /// of its input with it): a ``FlowValueConvertible`` type's own initializer without a cast
  /// per value, else ``swift(_:from:)``.
  static func reader<T>(of type: T.Type) -> (Value) throws(ConversionError) -> T {
    if let scalar = scalarReader(of: type) { return scalar }
    guard let convertible = type as? any FlowValueConvertible.Type else {
      return { value throws(ConversionError) in try swift(T.self, from: value) }
    }
    func direct<C: FlowValueConvertible>(_: C.Type) -> (Value) throws(ConversionError) -> T {
      { value throws(ConversionError) in
        guard let made = C(flowValue: value) else {
          throw ConversionError(reason: "a \(value.kindName) value \(value) is not a \(T.self)")
        }
        // C is T (the cast above succeeded for T's own metatype).
        return unsafeBitCast(made, to: T.self)
      }
    }
    return direct(convertible)
  }

  /// The conversion of `T`'s values to flowrun values, chosen once for the type (an output
  /// converts every value the code sends with it), as ``reader(of:)``.
  static func writer<T>(of type: T.Type) -> (T) throws(ConversionError) -> Value {
    if let scalar = scalarWriter(of: type) { return scalar }
    guard let convertible = type as? any FlowValueConvertible.Type else {
      return { swift throws(ConversionError) in try value(of: swift) }
    }
    func direct<C: FlowValueConvertible>(_: C.Type) -> (T) throws(ConversionError) -> Value {
      { swift in unsafeBitCast(swift, to: C.self).flowValue }
    }
    return direct(convertible)
  }

  /// The readers of the scalar types and their optionals, written out for each: the generic
  /// path looks the optional's type metadata up for every value, which costs more than the
  /// conversion itself (an input driven with `String?` a hundred thousand times).
  private static func scalarReader<T>(of type: T.Type) -> ((Value) throws(ConversionError) -> T)? {
    func mismatch(_ value: Value) -> ConversionError {
      ConversionError(reason: "a \(value.kindName) value \(value) is not a \(T.self)")
    }
    // Each closure makes a value of the type T was just compared with.
    switch type {
    case is String.Type:
      return { value throws(ConversionError) in
        guard let made = String(flowValue: value) else { throw mismatch(value) }
        return unsafeBitCast(made, to: T.self)
      }
    case is String?.Type:
      return { value throws(ConversionError) in
        guard let made = String?(flowValue: value) else { throw mismatch(value) }
        return unsafeBitCast(made, to: T.self)
      }
    case is Int.Type:
      return { value throws(ConversionError) in
        guard let made = Int(flowValue: value) else { throw mismatch(value) }
        return unsafeBitCast(made, to: T.self)
      }
    case is Int?.Type:
      return { value throws(ConversionError) in
        guard let made = Int?(flowValue: value) else { throw mismatch(value) }
        return unsafeBitCast(made, to: T.self)
      }
    case is Double.Type:
      return { value throws(ConversionError) in
        guard let made = Double(flowValue: value) else { throw mismatch(value) }
        return unsafeBitCast(made, to: T.self)
      }
    case is Double?.Type:
      return { value throws(ConversionError) in
        guard let made = Double?(flowValue: value) else { throw mismatch(value) }
        return unsafeBitCast(made, to: T.self)
      }
    case is Bool.Type:
      return { value throws(ConversionError) in
        guard let made = Bool(flowValue: value) else { throw mismatch(value) }
        return unsafeBitCast(made, to: T.self)
      }
    case is Bool?.Type:
      return { value throws(ConversionError) in
        guard let made = Bool?(flowValue: value) else { throw mismatch(value) }
        return unsafeBitCast(made, to: T.self)
      }
    default:
      return nil
    }
  }

  /// `body` as the handler of a drive of a scalar type or its optional, `body` converted once
  /// to a function of that type: each value is then converted and handed over without the
  /// generic path (a value of `T` returned indirectly, then destroyed through its value
  /// witness). A value that does not convert goes to `otherwise`. Nil for the other types.
  static func scalarDrive<T>(_ body: @escaping (T) -> Void, otherwise: @escaping (Value) -> Void) -> (
    (Value) -> Void
  )? {
    // Written out for each type: a generic helper over the type stays unspecialised, and
    // converts through witness tables and metadata lookups.
    switch body {
    case let body as (String) -> Void:
      return { value in if let made = String(flowValue: value) { body(made) } else { otherwise(value) } }
    case let body as (String?) -> Void:
      return { value in if let made = String?(flowValue: value) { body(made) } else { otherwise(value) } }
    case let body as (Int) -> Void:
      return { value in if let made = Int(flowValue: value) { body(made) } else { otherwise(value) } }
    case let body as (Int?) -> Void:
      return { value in if let made = Int?(flowValue: value) { body(made) } else { otherwise(value) } }
    case let body as (Double) -> Void:
      return { value in if let made = Double(flowValue: value) { body(made) } else { otherwise(value) } }
    case let body as (Double?) -> Void:
      return { value in if let made = Double?(flowValue: value) { body(made) } else { otherwise(value) } }
    case let body as (Bool) -> Void:
      return { value in if let made = Bool(flowValue: value) { body(made) } else { otherwise(value) } }
    case let body as (Bool?) -> Void:
      return { value in if let made = Bool?(flowValue: value) { body(made) } else { otherwise(value) } }
    default:
      return nil
    }
  }

  /// The writers of the scalar types and their optionals, as ``scalarReader(of:)``.
  private static func scalarWriter<T>(of type: T.Type) -> ((T) throws(ConversionError) -> Value)? {
    // Each closure reads the value as the type T was just compared with.
    switch type {
    case is String.Type: return { swift in .string(unsafeBitCast(swift, to: String.self)) }
    case is String?.Type: return { swift in unsafeBitCast(swift, to: String?.self).map(Value.string) ?? .null }
    case is Int.Type: return { swift in .int(unsafeBitCast(swift, to: Int.self)) }
    case is Int?.Type: return { swift in unsafeBitCast(swift, to: Int?.self).map(Value.int) ?? .null }
    case is Double.Type: return { swift in .double(unsafeBitCast(swift, to: Double.self)) }
    case is Double?.Type: return { swift in unsafeBitCast(swift, to: Double?.self).map(Value.double) ?? .null }
    case is Bool.Type: return { swift in .bool(unsafeBitCast(swift, to: Bool.self)) }
    case is Bool?.Type: return { swift in unsafeBitCast(swift, to: Bool?.self).map(Value.bool) ?? .null }
    default: return nil
    }
  }

  static func swift<T>(_ type: T.Type, from value: Value) throws(ConversionError) -> T {
    if let convertible = type as? any FlowValueConvertible.Type {
      guard let made = convertible.init(flowValue: value) as? T else {
        throw ConversionError(reason: "a \(value.kindName) value \(value) is not a \(T.self)")
      }
      return made
    }
    if T.self == Value.self, let same = value as? T { return same }
    guard let decodable = type as? any Decodable.Type else {
      throw ConversionError(reason: "\(T.self) is neither FlowValueConvertible nor Decodable")
    }
    guard let json = JSONValueWriter.json(value) else {
      throw ConversionError(reason: "\(value) has no JSON form")
    }
    do {
      guard let made = try JSONDecoder().decode(decodable, from: Data(json.utf8)) as? T else {
        throw ConversionError(reason: "decoding made another type")
      }
      return made
    } catch let error as ConversionError {
      throw error
    } catch {
      throw ConversionError(reason: "\(value) does not decode as \(T.self): \(Self.describe(error))")
    }
  }

  /// A decoding error in one line: what was missing or mismatched, and where.
  static func describe(_ error: any Error) -> String {
    guard let decoding = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      return keys.isEmpty ? "" : " at '\(keys.joined(separator: "."))'"
    }
    switch decoding {
    case .keyNotFound(let key, let context): return "no key '\(key.stringValue)'\(path(context))"
    case .typeMismatch(let type, let context): return "not a \(type)\(path(context))"
    case .valueNotFound(let type, let context): return "no \(type) value\(path(context))"
    case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
    @unknown default: return "\(error)"
    }
  }
}

/// An optional, to tell a nil of any wrapped type (a cast to a protocol unwraps it).
private protocol OptionalValue {
  var isNone: Bool { get }
}

extension Optional: OptionalValue {
  fileprivate var isNone: Bool { self == nil }
}

/// JSON text of a value (nil for a signal, which has none), written by the report's `JSON`.
enum JSONValueWriter {
  static func json(_ value: Value) -> String? {
    json(of: value)?.rendered(indent: nil)
  }

  private static func json(of value: Value) -> JSON? {
    switch value {
    case .null: return .null
    case .bool(let bool): return .bool(bool)
    case .int(let int): return .int(int)
    case .double(let double): return double.isFinite ? .double(double) : nil
    case .string(let string): return .string(string)
    case .list(let items):
      var array: [JSON] = []
      for item in items {
        guard let json = json(of: item) else { return nil }
        array.append(json)
      }
      return .array(array)
    case .map(let entries):
      var object: [(String, JSON)] = []
      for (key, item) in entries {
        guard let json = json(of: item) else { return nil }
        object.append((key, json))
      }
      return .object(object)
    case .signal: return nil
    }
  }
}

/// Reads the JSON that `JSONEncoder` writes into a value (an integer stays an `int`, a
/// number with a fraction or exponent is a `double`).
struct JSONValueReader {
  let bytes: [UInt8]
  var index = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  mutating func read() -> Value? {
    let value = readValue()
    skipSpace()
    return index == bytes.count ? value : nil
  }

  private mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
  }

  private mutating func readValue() -> Value? {
    skipSpace()
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      var entries = OrderedDictionary<String, Value>()
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .map(entries)
      }
      while true {
        skipSpace()
        guard let key = readString() else { return nil }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let item = readValue() else { return nil }
        entries[key] = item
        skipSpace()
        guard index < bytes.count else { return nil }
        index += 1
        if bytes[index - 1] == UInt8(ascii: "}") { return .map(entries) }
        guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
      }
    case UInt8(ascii: "["):
      index += 1
      var items: [Value] = []
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .list(items)
      }
      while true {
        guard let item = readValue() else { return nil }
        items.append(item)
        skipSpace()
        guard index < bytes.count else { return nil }
        index += 1
        if bytes[index - 1] == UInt8(ascii: "]") { return .list(items) }
        guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
      }
    case UInt8(ascii: "\""):
      return readString().map(Value.string)
    case UInt8(ascii: "t"): return readWord("true", .bool(true))
    case UInt8(ascii: "f"): return readWord("false", .bool(false))
    case UInt8(ascii: "n"): return readWord("null", .null)
    default: return readNumber()
    }
  }

  private mutating func readWord(_ word: String, _ value: Value) -> Value? {
    let utf8 = Array(word.utf8)
    guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else { return nil }
    index += utf8.count
    return value
  }

  private mutating func readNumber() -> Value? {
    let start = index
    var isInteger = true
    while index < bytes.count, let byte = Optional(bytes[index]),
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || [0x2D, 0x2B, 0x2E, 0x65, 0x45].contains(byte)
    {
      if [0x2E, 0x65, 0x45].contains(byte) { isInteger = false }
      index += 1
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger, let int = Int(text) { return .int(int) }
    return Double(text).map(Value.double)
  }

  private mutating func readString() -> String? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    index += 1
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    func flush() {
      scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
      run.removeAll(keepingCapacity: true)
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        flush()
        return String(scalars)
      case UInt8(ascii: "\\"):
        flush()
        guard index < bytes.count else { return nil }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "u"):
          guard var code = readHex() else { return nil }
          if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\") {
            index += 2
            guard let low = readHex() else { return nil }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { return nil }
          scalars.append(scalar)
        default: scalars.append(Unicode.Scalar(escape))
        }
      default:
        run.append(byte)
      }
    }
    return nil
  }

  private mutating func readHex() -> UInt32? {
    guard index + 4 <= bytes.count,
      let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else { return nil }
    index += 4
    return code
  }
}
