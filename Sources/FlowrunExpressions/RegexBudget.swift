import FlowrunDiagnostics

/// How much backtracking a `matches` pattern may cost, read from the pattern's text.
///
/// Swift `Regex` backtracks and has no step budget, so `matches` bounds its work before it
/// runs, deterministically (docs/limits.md):
/// - a group repeated without an upper bound (`*`, `+`, `{n,}`) that can match one text in more
///   than one way — it holds a repetition of variable count and does not start with a
///   separator only it matches (`(a+)+`, `(\d+,)*`), or alternatives that may start alike
///   (`(a|aa)*`, `(\w|_)+`) — can take exponential time and is rejected. Alternatives that
///   start with different literal characters (`(foo|bar)+`), groups that start with their own
///   separator (`(\.\w+)*`, `(-[a-z]+)*`) and groups repeated a bounded number of times
///   (`(\d{3}-){2}`) are allowed;
/// - every other pattern takes at most about `r · (n + 1)^k · 2^c` steps on a string of `n`
///   characters, where `r` counts its repetitions, `k` is the longest run of repetitions next
///   to each other that can match the same characters (`a*a*a*`: 3; `\w+@\w+`: 1, the `@`
///   separates them) and `c` counts its optional parts (`?`) and alternatives (`|`); `matches`
///   refuses a string for which that estimate passes `RegexBudget.limit`.
struct RegexBudget: Sendable {
  /// The most work a `matches` evaluation may be estimated to take.
  static let limit = 10_000_000

  /// The repetitions (`*`, `+`, `{n,}`, `{n,m}`) in the pattern.
  var repetitions = 0
  /// The longest run of adjacent repetitions that can trade characters with each other.
  var overlapping = 0
  /// The optional parts (`?`, `{0,1}`) and alternatives (`|`) in the pattern.
  var choices = 0

  /// The budget of `pattern`, or nil when an unbounded repetition repeats a group that can
  /// match the same text in more than one way (catastrophic backtracking).
  init?(_ pattern: String) {
    var scanner = RegexScanner(Array(pattern.unicodeScalars))
    guard scanner.scan() else { return nil }
    repetitions = scanner.repetitions
    overlapping = scanner.longestRun
    choices = scanner.choices
  }

  /// Whether a string of `length` characters stays within `limit`.
  func allows(length: Int) -> Bool {
    var work = max(repetitions, 1)
    for _ in 0..<min(choices, 64) {
      work *= 2
      if work > Self.limit { return false }
    }
    for _ in 0..<overlapping {
      let (product, overflow) = work.multipliedReportingOverflow(by: length + 1)
      if overflow || product > Self.limit { return false }
      work = product
    }
    return true
  }
}

/// The characters an atom may match: the ASCII ones exactly, any other as one flag.
struct RegexCharacters: Sendable, Equatable {
  var low: UInt64 = 0
  var high: UInt64 = 0
  var beyondASCII = false

  static let none = Self()
  static let all = Self(low: .max, high: .max, beyondASCII: true)

  /// The characters `test` accepts (any character beyond ASCII when `beyondASCII`).
  init(beyondASCII: Bool = true, where test: (Unicode.Scalar) -> Bool) {
    for value in UInt32(0)..<128 where test(Unicode.Scalar(UInt8(value))) {
      if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
    }
    self.beyondASCII = beyondASCII
  }

  init(low: UInt64 = 0, high: UInt64 = 0, beyondASCII: Bool = false) {
    (self.low, self.high, self.beyondASCII) = (low, high, beyondASCII)
  }

  /// One character.
  init(_ character: Unicode.Scalar) {
    if character.isASCII {
      self.init(beyondASCII: false) { $0 == character }
    } else {
      self.init(beyondASCII: true)
    }
  }

  func contains(_ character: Unicode.Scalar) -> Bool {
    guard character.isASCII else { return beyondASCII }
    let value = UInt64(character.value)
    return value < 64 ? low & (1 << value) != 0 : high & (1 << (value - 64)) != 0
  }

  func intersects(_ other: Self) -> Bool {
    low & other.low != 0 || high & other.high != 0 || (beyondASCII && other.beyondASCII)
  }

  func union(_ other: Self) -> Self {
    Self(low: low | other.low, high: high | other.high, beyondASCII: beyondASCII || other.beyondASCII)
  }

  /// `\d`, `\w`, `\s` and their negations; nil for another escape.
  static func escapedClass(_ letter: Unicode.Scalar) -> Self? {
    let word: (Unicode.Scalar) -> Bool = { $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" }
    switch letter {
    case "d": return Self { $0.properties.numericType == .decimal }
    case "w": return Self(where: word)
    case "s": return Self { $0.properties.isWhitespace }
    case "D", "W", "S": return .all
    default: return nil
    }
  }
}

extension Diagnostic.Message {
  static func nestedRepetition(_ pattern: String) -> Self {
    Self(
      "regular expression '\(pattern)' repeats without bound a group that can match the same text in"
        + " more than one way, which can backtrack exponentially; repeat a character class instead"
        + " (e.g. 'a+' for '(a+)+', '[ab]+' for '(a|ab)+')")
  }

  static func regexWorkLimit(_ pattern: String, length: Int) -> Self {
    Self(
      "'matches' on a string of \(length) characters with '\(pattern)' exceeds the limit of"
        + " \(RegexBudget.limit) steps of regular expression work")
  }
}
