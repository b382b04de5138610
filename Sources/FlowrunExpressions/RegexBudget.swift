import FlowrunDiagnostics

/// How much backtracking a `matches` pattern may cost, read from the pattern's text.
///
/// Swift `Regex` backtracks and has no step budget, so `matches` bounds its work before it
/// runs, deterministically (docs/limits.md):
/// - a pattern that repeats (`*`, `+`, `{n,}`, `{n,m}`) a group which itself repeats or
///   alternates, such as `(a+)+` or `(a|aa)*`, can take exponential time and is rejected;
/// - every other pattern takes at most about `(n + 1)^k · 2^c` steps on a string of `n`
///   characters, where `k` counts its repetitions and `c` its optional parts (`?`) and
///   alternatives (`|`); `matches` refuses a string for which that estimate passes
///   `RegexBudget.limit`.
struct RegexBudget: Sendable {
  /// The most work a `matches` evaluation may be estimated to take.
  static let limit = 10_000_000

  /// The repetitions (`*`, `+`, `{n,}`, `{n,m}`) in the pattern.
  var repetitions = 0
  /// The optional parts (`?`, `{0,1}`) and alternatives (`|`) in the pattern.
  var choices = 0

  /// The budget of `pattern`, or nil when a repetition repeats a group that repeats or
  /// alternates (nested quantifiers: catastrophic backtracking).
  init?(_ pattern: String) {
    var scanner = Scanner(Array(pattern.unicodeScalars))
    guard scanner.scan() else { return nil }
    repetitions = scanner.repetitions
    choices = scanner.choices
  }

  /// Whether a string of `length` characters stays within `limit`.
  func allows(length: Int) -> Bool {
    var work = 1
    for _ in 0..<min(choices, 64) {
      work *= 2
      if work > Self.limit { return false }
    }
    for _ in 0..<repetitions {
      let (product, overflow) = work.multipliedReportingOverflow(by: length + 1)
      if overflow || product > Self.limit { return false }
      work = product
    }
    return true
  }

  /// Reads the pattern's groups, classes and quantifiers (escapes and classes are skipped).
  private struct Scanner {
    let text: [Unicode.Scalar]
    var index = 0
    var repetitions = 0
    var choices = 0
    /// For every open group: whether it holds a repetition or an alternative.
    var groups: [Bool] = [false]
    /// Whether the last atom is a group that repeats or alternates.
    var lastAtomIsRisky = false

    init(_ text: [Unicode.Scalar]) { self.text = text }

    mutating func scan() -> Bool {
      while index < text.count {
        let c = text[index]
        index += 1
        switch c {
        case "\\":
          index += 1
          lastAtomIsRisky = false
        case "[":
          skipClass()
          lastAtomIsRisky = false
        case "(":
          if index < text.count, text[index] == "?" { index += 1 }
          groups.append(false)
          lastAtomIsRisky = false
        case ")":
          let risky = groups.count > 1 ? groups.removeLast() : false
          if risky { groups[groups.count - 1] = true }
          lastAtomIsRisky = risky
        case "|":
          choices += 1
          groups[groups.count - 1] = true
          lastAtomIsRisky = false
        case "*", "+":
          guard repeated() else { return false }
        case "?":
          choices += 1
          skipModifier()
          lastAtomIsRisky = false
        case "{":
          guard let upper = bound() else {
            lastAtomIsRisky = false
            continue
          }
          if upper == 1 {
            choices += 1
            skipModifier()
            lastAtomIsRisky = false
          } else if upper != 0 {
            guard repeated() else { return false }
          }
        default:
          lastAtomIsRisky = false
        }
      }
      return true
    }

    /// A repetition of the last atom: false when that atom is a group that repeats or alternates.
    private mutating func repeated() -> Bool {
      if lastAtomIsRisky { return false }
      repetitions += 1
      groups[groups.count - 1] = true
      skipModifier()
      return true
    }

    /// Skips the `?` (lazy) or `+` (possessive) after a quantifier.
    private mutating func skipModifier() {
      if index < text.count, text[index] == "?" || text[index] == "+" { index += 1 }
    }

    /// Skips a character class, nested classes included.
    private mutating func skipClass() {
      var depth = 1
      if index < text.count, text[index] == "^" { index += 1 }
      if index < text.count, text[index] == "]" { index += 1 }
      while index < text.count, depth > 0 {
        switch text[index] {
        case "\\": index += 1
        case "[": depth += 1
        case "]": depth -= 1
        default: break
        }
        index += 1
      }
    }

    /// The upper bound of a `{n}`, `{n,}` or `{n,m}` quantifier (Int.max when unbounded), after
    /// which `index` is past the `}`; nil (and `index` unchanged) when the `{` is a literal.
    private mutating func bound() -> Int? {
      var i = index
      var numbers: [Int?] = [nil]
      while i < text.count, text[i] != "}" {
        let c = text[i]
        if c == ",", numbers.count == 1 {
          numbers.append(nil)
        } else if let digit = c.properties.numericType == .decimal ? Int(String(c)) : nil {
          let n = numbers[numbers.count - 1] ?? 0
          numbers[numbers.count - 1] = n > 1_000_000 ? n : n * 10 + digit
        } else if c != " " {
          return nil
        }
        i += 1
      }
      guard i < text.count, numbers[0] != nil || numbers.count == 2 else { return nil }
      index = i + 1
      if numbers.count == 1 { return numbers[0] }
      return numbers[1] ?? Int.max
    }
  }
}

extension Diagnostic.Message {
  static func nestedRepetition(_ pattern: String) -> Self {
    Self(
      "regular expression '\(pattern)' repeats a group that itself repeats or alternates, which can"
        + " backtrack exponentially; repeat a character class instead (e.g. '[ab]+' for '(a|b)+')")
  }

  static func regexWorkLimit(_ pattern: String, length: Int) -> Self {
    Self(
      "'matches' on a string of \(length) characters with '\(pattern)' exceeds the limit of"
        + " \(RegexBudget.limit) steps of regular expression work")
  }
}
