import FlowrunCore
import FlowrunMarbles

/// The legend under a diff or a diagram: the value of each token that does not print as itself.
/// A signal value prints as its own marble followed by the values of its tokens, read with the
/// same printer (so with the legend it was written with): `c = !cold "-(a|)" where a = [1, 2, 3]`.
/// Two different values therefore never read the same.
struct LegendText {
  private var printer: MarblePrinter
  private let legend: [(key: String, value: Value)]

  /// `printer` has printed the marbles the legend is for; `legend` is the one it was made with.
  init(printer: MarblePrinter, legend: [(key: String, value: Value)] = []) {
    self.printer = printer
    self.legend = legend
  }

  /// The entries for the keys the printed `marbles` show: the legend's in its order, then the
  /// keys the printer assigned, in the order it assigned them. (Read from the text rather than
  /// from the events: a token costs less to find than a value to hash.)
  mutating func entries(in marbles: [String]) -> [(key: String, value: String)] {
    let shown = Self.tokens(in: marbles)
    guard !shown.isEmpty else { return [] }
    var result: [(key: String, value: String)] = []
    var listed = Set<String>()
    for entry in legend where shown.contains(entry.key) && listed.insert(entry.key).inserted {
      result.append((entry.key, describe(entry.value)))
    }
    for entry in printer.assigned where shown.contains(entry.key) && listed.insert(entry.key).inserted {
      result.append((entry.key, describe(entry.value)))
    }
    return result
  }

  /// The tokens of printed marbles, quotes removed: every scalar but `-`, `(`, `)`, `^`, `|`,
  /// `#` and the time progressions (` 20000f `), and every quoted token.
  static func tokens(in marbles: [String]) -> Set<String> {
    var tokens = Set<String>()
    for marble in marbles {
      var scalars = marble.unicodeScalars.makeIterator()
      while let scalar = scalars.next() {
        switch scalar {
        case "-", "(", ")", "^", "|", "#": continue
        case " ":
          while let next = scalars.next(), next != " " {}
        case "'":
          var key = String.UnicodeScalarView()
          while let next = scalars.next(), next != "'" { key.append(next) }
          tokens.insert(String(key))
        default:
          tokens.insert(String(scalar))
        }
      }
    }
    return tokens
  }

  /// A value as the legend shows it; a signal as its marble with the values of its tokens
  /// (in parentheses when it is itself inside such a list).
  mutating func describe(_ value: Value, nested: Bool = false) -> String {
    guard case .signal(let signal) = value, let events = signal.events else { return value.description }
    let printed = printer.print(events)
    var clauses: [String] = []
    var listed = Set<String>()
    for recorded in events {
      if case .next(let inner) = recorded.event, let key = printer.key(for: inner), listed.insert(key).inserted {
        clauses.append("\(key) = \(describe(inner, nested: true))")
      }
    }
    if let error = printed.errorValue { clauses.append("# = \(error)") }
    let marble = "!cold \(Value.quoted(printed.text))"
    guard !clauses.isEmpty else { return marble }
    let text = marble + " where " + clauses.joined(separator: ", ")
    return nested ? "(\(text))" : text
  }
}

extension ExpectationDiff {
  /// A value as a diagram's legend and marks show it: a signal as its marble alone, printed on
  /// its own (diagrams keep this shorter form; failures use `LegendText`).
  static func describe(_ value: Value) -> String {
    if case .signal(let signal) = value, let events = signal.events {
      var printer = MarblePrinter()
      return "!cold \(Value.quoted(printer.print(events).text))"
    }
    return value.description
  }
}
