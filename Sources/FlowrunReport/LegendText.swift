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

  /// The entries for the keys `events` print with: the legend's in its order, then the keys
  /// the printer assigned, in the order it assigned them.
  mutating func entries(for events: [Recorded]) -> [(key: String, value: String)] {
    var used: [String: Value] = [:]
    for recorded in events {
      if case .next(let value) = recorded.event, let key = printer.key(for: value), used[key] == nil {
        used[key] = value
      }
    }
    guard !used.isEmpty else { return [] }
    var result: [(key: String, value: String)] = []
    var listed = Set<String>()
    let assigned = printer.assigned.map(\.key)
    for key in legend.map(\.key) + assigned {
      guard let value = used[key], listed.insert(key).inserted else { continue }
      result.append((key, describe(value)))
    }
    return result
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
  /// A value as a legend shows it on its own; a signal as its marble with its tokens' values.
  static func describe(_ value: Value) -> String {
    var text = LegendText(printer: MarblePrinter())
    return text.describe(value)
  }
}
