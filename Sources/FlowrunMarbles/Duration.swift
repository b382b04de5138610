public import FlowrunDiagnostics

/// A problem with a duration or a tick, with the message the spec prescribes.
public struct DurationError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  /// Whether the text is not a duration at all (rather than a duration that does not fit).
  var isSyntax = false

  public init(_ message: Diagnostic.Message) {
    self.message = message.text
  }

  init(syntax message: Diagnostic.Message) {
    self.message = message.text
    self.isSyntax = true
  }

  public var description: String { message }

  public static func == (lhs: DurationError, rhs: DurationError) -> Bool {
    lhs.message == rhs.message
  }
}

/// A duration as written: `<number><unit>` with unit `ms`, `s`, `m` or `f`, or a bare number of frames.
///
/// The number is kept exactly (digits and a decimal scale), never as floating point, so
/// `1.5s` is exactly 1,500,000,000 ns.
public struct DurationLiteral: Sendable, Equatable, CustomStringConvertible {
  /// The unit of a duration.
  public enum Unit: String, Sendable {
    case milliseconds = "ms"
    case seconds = "s"
    case minutes = "m"
    case frames = "f"

    /// Nanoseconds in one unit, or nil for frames.
    var nanoseconds: Int? {
      switch self {
      case .milliseconds: 1_000_000
      case .seconds: 1_000_000_000
      case .minutes: 60_000_000_000
      case .frames: nil
      }
    }
  }

  /// The text as written, used in messages.
  public let text: String
  /// The unit; a bare number is frames.
  public let unit: Unit
  /// The number's digits without the decimal point.
  let mantissa: Int
  /// The number of digits after the decimal point.
  let scale: Int

  /// Parses `500ms`, `1.5s`, `2m`, `10f` or `5` (frames).
  public init(parsing text: String) throws(DurationError) {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    var mantissa = 0
    var scale = 0
    var digitCount = 0
    var sawPoint = false
    var overflow = false
    while index < scalars.count {
      let scalar = scalars[index]
      if let digit = DurationLiteral.digitValue(scalar) {
        let (times, o1) = mantissa.multipliedReportingOverflow(by: 10)
        let (plus, o2) = times.addingReportingOverflow(digit)
        overflow = overflow || o1 || o2
        mantissa = plus
        digitCount += 1
        if sawPoint { scale += 1 }
      } else if scalar == ".", !sawPoint, digitCount > 0 {
        sawPoint = true
      } else {
        break
      }
      index += 1
    }
    let suffix = String(text.unicodeScalars.dropFirst(index))
    let unit: Unit? = suffix.isEmpty ? .frames : Unit(rawValue: suffix)
    guard digitCount > 0, let unit, !(sawPoint && scale == 0) else {
      throw DurationError(syntax: .invalidDuration(text))
    }
    if overflow { throw DurationError(.durationTooLarge(text)) }
    // Trailing zeros after the point carry no precision; dropping them keeps `1.50000s` exact.
    while scale > 0, mantissa % 10 == 0 {
      mantissa /= 10
      scale -= 1
    }
    self.text = text
    self.unit = unit
    self.mantissa = mantissa
    self.scale = scale
  }

  /// A duration of a whole number of frames.
  public init(frames: Int) {
    self.text = String(frames)
    self.unit = .frames
    self.mantissa = frames
    self.scale = 0
  }

  public var description: String { text }

  /// Whether the duration is a real time (not frames).
  public var isTime: Bool { unit != .frames }

  /// The exact length in nanoseconds, for a time; nil for frames.
  public func nanoseconds() throws(DurationError) -> Int? {
    guard let perUnit = unit.nanoseconds else { return nil }
    let (total, overflow) = mantissa.multipliedReportingOverflow(by: perUnit)
    if overflow { throw DurationError(.durationTooLarge(text)) }
    guard scale > 0 else { return total }
    guard let divisor = DurationLiteral.powerOfTen(scale), total % divisor == 0 else {
      throw DurationError(.finerThanANanosecond(text))
    }
    return total / divisor
  }

  /// The number of frames this duration lasts with `tick`; fails when it is not a whole number.
  public func frames(tick: Tick) throws(DurationError) -> Int {
    guard let ns = try nanoseconds() else {
      guard scale > 0 else { return mantissa }
      guard let divisor = DurationLiteral.powerOfTen(scale), mantissa % divisor == 0 else {
        throw DurationError(.notWholeFrames(text))
      }
      return mantissa / divisor
    }
    guard ns % tick.nanoseconds == 0 else {
      throw DurationError(.notWholeTicks(text, tick: tick))
    }
    return ns / tick.nanoseconds
  }

  /// The value of an ASCII digit.
  static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
    guard scalar.value >= 48, scalar.value <= 57 else { return nil }
    return Int(scalar.value - 48)
  }

  /// 10 to the power `exponent`, or nil when it overflows.
  static func powerOfTen(_ exponent: Int) -> Int? {
    var result = 1
    for _ in 0..<exponent {
      let (next, overflow) = result.multipliedReportingOverflow(by: 10)
      if overflow { return nil }
      result = next
    }
    return result
  }
}

/// The real time one frame stands for: a time duration greater than zero (default `1ms`).
public struct Tick: Sendable, Equatable, CustomStringConvertible {
  /// The duration as written.
  public let literal: DurationLiteral
  /// The length of one frame in nanoseconds.
  public let nanoseconds: Int

  /// The default tick, `1ms`.
  public static let `default` = Tick(uncheckedLiteral: DurationLiteral(milliseconds: 1), nanoseconds: 1_000_000)

  /// Makes a tick from a written duration, which must be a time greater than zero.
  public init(_ literal: DurationLiteral) throws(DurationError) {
    guard let ns = try literal.nanoseconds() else {
      throw DurationError(.tickInFrames(literal))
    }
    guard ns > 0 else { throw DurationError(.tickNotPositive(literal)) }
    self.literal = literal
    self.nanoseconds = ns
  }

  /// Parses a tick such as `100ms`.
  public init(parsing text: String) throws(DurationError) {
    try self.init(DurationLiteral(parsing: text))
  }

  private init(uncheckedLiteral: DurationLiteral, nanoseconds: Int) {
    self.literal = uncheckedLiteral
    self.nanoseconds = nanoseconds
  }

  public var description: String { literal.text }

  /// A frame count as real time for rulers: `300 ms`, `1.5 s`, `0.5 ms`.
  public func realTime(frames: Int) -> String {
    let (ns, overflow) = frames.multipliedReportingOverflow(by: nanoseconds)
    if overflow { return "\(frames) f" }
    let sign = ns < 0 ? "-" : ""
    let magnitude = ns.magnitude
    if magnitude >= 1_000_000_000 {
      return sign + Tick.decimal(magnitude, per: 1_000_000_000) + " s"
    }
    return sign + Tick.decimal(magnitude, per: 1_000_000) + " ms"
  }

  /// `value / per` written exactly, without trailing zeros.
  static func decimal(_ value: UInt, per: UInt) -> String {
    let whole = value / per
    var fraction = value % per
    guard fraction > 0 else { return String(whole) }
    var width = String(per).count - 1
    while fraction % 10 == 0 {
      fraction /= 10
      width -= 1
    }
    let digits = String(fraction)
    return String(whole) + "." + String(repeating: "0", count: width - digits.count) + digits
  }
}

extension DurationLiteral {
  /// A whole number of milliseconds.
  init(milliseconds: Int) {
    self.text = "\(milliseconds)ms"
    self.unit = .milliseconds
    self.mantissa = milliseconds
    self.scale = 0
  }
}

extension Diagnostic.Message {
  fileprivate static func invalidDuration(_ text: String) -> Self {
    "invalid duration '\(text)' (expected a number with ms, s, m or f)"
  }
  fileprivate static func durationTooLarge(_ text: String) -> Self { "duration \(text) is too large" }
  fileprivate static func finerThanANanosecond(_ text: String) -> Self { "duration \(text) is finer than a nanosecond" }
  fileprivate static func notWholeFrames(_ text: String) -> Self { "duration \(text) is not a whole number of frames" }
  fileprivate static func notWholeTicks(_ text: String, tick: Tick) -> Self {
    "duration \(text) is not a whole number of ticks (tick = \(tick.literal.text))"
  }
  fileprivate static func tickInFrames(_ literal: DurationLiteral) -> Self {
    "tick \(literal.text) must be a time (ms, s or m), not frames"
  }
  fileprivate static func tickNotPositive(_ literal: DurationLiteral) -> Self {
    "tick \(literal.text) must be greater than zero"
  }
}
