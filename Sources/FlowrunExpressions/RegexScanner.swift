/// Reads a regular expression's groups, classes and quantifiers for ``RegexBudget``: which
/// repetitions there are, which of them sit next to each other matching the same characters,
/// and which unbounded repetition repeats a group that can match one text in several ways.
struct RegexScanner {
  /// An open group.
  struct Group {
    /// It holds a repetition of variable count (`+`, `*`, `{n,m}`), or a group that does.
    var varies = false
    /// The first character of each alternative: nil when it is not a literal character.
    var firsts: [Unicode.Scalar?] = []
    /// The next atom starts an alternative.
    var atStart = true
    /// The group starts with a punctuation character (`(\.\w+)`, `(-[a-z]+)`, `(,\d+)`) …
    var separator: Unicode.Scalar?
    /// … that nothing else in it can match: each repetition of the group then starts at a
    /// separator, one way only.
    var separatorIsUnique = true
    /// What its atoms may match.
    var characters = RegexCharacters.none
    /// What the first atom of each alternative may match: where a match of the group starts.
    var firstCharacters = RegexCharacters.none
    /// What the last variable repetition of the current run matches, if a run is open.
    var lastRepeated: RegexCharacters?
    /// The length of the current run of repetitions that can trade characters.
    var run = 0

    /// Repeating it without bound may match one text in several ways.
    var isAmbiguous: Bool {
      guard firsts.count > 1 else { return varies && (separator == nil || !separatorIsUnique) }
      let literals = firsts.compactMap { $0 }
      return varies || literals.count < firsts.count || Set(literals).count < literals.count
    }

    /// An atom that may match `matched`, one literal character when `literal`.
    mutating func note(_ literal: Unicode.Scalar?, matching matched: RegexCharacters) {
      if let separator, matched.contains(separator) { separatorIsUnique = false }
      characters = characters.union(matched)
      guard atStart else { return }
      atStart = false
      firstCharacters = firstCharacters.union(matched)
      if firsts.isEmpty, let literal, literal.isASCII, literal.value > 0x20, literal != "_",
        !literal.properties.isAlphabetic, literal.properties.numericType == nil
      {
        separator = literal
      }
      firsts.append(literal)
    }
  }

  let text: [Unicode.Scalar]
  var index = 0
  var repetitions = 0
  var longestRun = 0
  var choices = 0
  /// The open groups, the whole pattern first.
  var groups: [Group] = [Group()]
  /// The last atom, until a quantifier or the next token says whether it repeats: what it
  /// may match, what its match may start with, and whether it is an ambiguous group.
  var pending: (characters: RegexCharacters, first: RegexCharacters, ambiguous: Bool)?

  init(_ text: [Unicode.Scalar]) { self.text = text }

  /// False when an unbounded repetition repeats an ambiguous group.
  mutating func scan() -> Bool {
    while index < text.count {
      let c = text[index]
      index += 1
      switch c {
      case "\\": escape()
      case "[": atom(nil, matching: characterClass())
      case ".": atom(nil, matching: .all)
      case "^", "$": settle()
      case "(":
        settle()
        skipGroupPrefix()
        groups.append(Group())
      case ")":
        guard groups.count > 1 else {
          atom(c, matching: RegexCharacters(c))
          continue
        }
        settle()
        var closed = groups.removeLast()
        if closed.atStart { closed.firsts.append(nil) }  // an empty alternative
        if closed.varies { groups[groups.count - 1].varies = true }
        groups[groups.count - 1].note(nil, matching: closed.characters)
        pending = (closed.characters, closed.atStart ? .all : closed.firstCharacters, closed.isAmbiguous)
      case "|":
        settle()
        choices += 1
        if groups[groups.count - 1].atStart { groups[groups.count - 1].firsts.append(nil) }
        groups[groups.count - 1].atStart = true
        groups[groups.count - 1].lastRepeated = nil
      case "*", "+":
        guard repeated(unbounded: true, varies: true) else { return false }
      case "?":
        optional()
      case "{":
        guard let (lower, upper) = bounds() else {
          atom(c, matching: RegexCharacters(c))
          continue
        }
        if lower == 0, upper == 1 {
          optional()
        } else if upper == 0 {
          pending = nil
        } else {
          guard repeated(unbounded: upper == Int.max, varies: lower != upper) else { return false }
        }
      default:
        atom(c, matching: RegexCharacters(c))
      }
    }
    settle()
    return true
  }

  /// An atom that is not a group: `literal` when it is one literal character.
  private mutating func atom(_ literal: Unicode.Scalar?, matching matched: RegexCharacters) {
    settle()
    groups[groups.count - 1].note(literal, matching: matched)
    pending = (matched, matched, false)
  }

  /// The pending atom is matched once: a character the current run's repetition cannot match
  /// ends the run (`\w+@\w+`: the `@`).
  private mutating func settle() {
    guard let atom = pending else { return }
    pending = nil
    if let last = groups[groups.count - 1].lastRepeated, !last.intersects(atom.first) {
      groups[groups.count - 1].lastRepeated = nil
    }
  }

  /// A repetition of the pending atom: false when it is unbounded and that atom is an
  /// ambiguous group. A repetition of variable count joins the run of the one before it when
  /// that one can match what its matches start with.
  private mutating func repeated(unbounded: Bool, varies: Bool) -> Bool {
    skipModifier()
    guard let atom = pending else { return true }
    if unbounded, atom.ambiguous { return false }
    repetitions += 1
    guard varies else { return true }
    pending = nil
    var group = groups[groups.count - 1]
    group.varies = true
    if let last = group.lastRepeated, last.intersects(atom.first) {
      group.run += 1
    } else {
      group.run = 1
    }
    group.lastRepeated = atom.characters
    longestRun = max(longestRun, group.run)
    groups[groups.count - 1] = group
    return true
  }

  /// `?` or `{0,1}`: one more choice; the atom neither separates nor repeats.
  private mutating func optional() {
    choices += 1
    pending = nil
    skipModifier()
  }

  /// After a `\`: an anchor, a class, or one character.
  private mutating func escape() {
    guard index < text.count else { return }
    let escaped = text[index]
    index += 1
    if "bBAzZG".unicodeScalars.contains(escaped) { return settle() }
    if let matched = RegexCharacters.escapedClass(escaped) { return atom(nil, matching: matched) }
    guard escaped.properties.isAlphabetic || escaped.properties.numericType != nil else {
      return atom(escaped, matching: RegexCharacters(escaped))
    }
    // `\p{…}`, `\u{…}`, `\n`, a back reference …: anything.
    if index < text.count, text[index] == "{" {
      while index < text.count, text[index] != "}" { index += 1 }
      index += 1
    }
    atom(nil, matching: .all)
  }

  /// Skips `?:`, `?=`, `?!`, `?>`, `?<=`, `?<!`, `?<name>`, `?P<name>`, `?i:` after a `(`.
  private mutating func skipGroupPrefix() {
    guard index < text.count, text[index] == "?" else { return }
    index += 1
    guard index < text.count else { return }
    if ":=!>".unicodeScalars.contains(text[index]) {
      index += 1
      return
    }
    while index < text.count, text[index].properties.isAlphabetic || text[index] == "-" { index += 1 }
    guard index < text.count else { return }
    if text[index] == ":" {
      index += 1
    } else if text[index] == "<" || text[index] == "'" {
      if index + 1 < text.count, "=!".unicodeScalars.contains(text[index + 1]) {
        index += 2
        return
      }
      let close: Unicode.Scalar = text[index] == "<" ? ">" : "'"
      index += 1
      while index < text.count, text[index] != close { index += 1 }
      index += 1
    }
  }

  /// Skips the `?` (lazy) or `+` (possessive) after a quantifier.
  private mutating func skipModifier() {
    if index < text.count, text[index] == "?" || text[index] == "+" { index += 1 }
  }

  /// Reads a character class after its `[`: what it may match.
  private mutating func characterClass() -> RegexCharacters {
    let negated = index < text.count && text[index] == "^"
    if negated { index += 1 }
    var matched = RegexCharacters.none
    var first = true
    var depth = 1
    while index < text.count {
      let c = text[index]
      index += 1
      if c == "]", !first {
        depth -= 1
        if depth == 0 { break }
        continue
      }
      first = false
      switch c {
      case "[":
        depth += 1
        matched = .all  // a nested class or a POSIX class (`[:alpha:]`): anything
      case "\\":
        guard index < text.count else { break }
        let escaped = text[index]
        index += 1
        if let escapedClass = RegexCharacters.escapedClass(escaped) {
          matched = matched.union(escapedClass)
        } else if escaped.properties.isAlphabetic {
          matched = .all
        } else {
          matched = matched.union(RegexCharacters(escaped))
        }
      default:
        if index + 1 < text.count, text[index] == "-", text[index + 1] != "]", text[index + 1] != "\\" {
          let (low, high) = (c, text[index + 1])
          index += 2
          matched = matched.union(RegexCharacters(beyondASCII: !high.isASCII) { $0 >= low && $0 <= high })
        } else {
          matched = matched.union(RegexCharacters(c))
        }
      }
    }
    guard negated else { return matched }
    return RegexCharacters(low: ~matched.low, high: ~matched.high, beyondASCII: true)
  }

  /// The bounds of a `{n}`, `{n,}` or `{n,m}` quantifier (upper Int.max when unbounded),
  /// after which `index` is past the `}`; nil (and `index` unchanged) when the `{` is a literal.
  private mutating func bounds() -> (Int, Int)? {
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
    let lower = numbers[0] ?? 0
    if numbers.count == 1 { return (lower, lower) }
    return (lower, numbers[1] ?? Int.max)
  }
}
