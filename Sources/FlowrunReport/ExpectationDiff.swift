public import FlowrunCore
import FlowrunMarbles
public import FlowrunScenario

/// A failed expectation drawn as aligned expected and actual lanes under a frame ruler, with a
/// caret at the first difference and the legend of the values shown.
public struct ExpectationDiff: Sendable {
  /// The lines, without indentation or colour.
  public let lines: [String]
  /// The first difference: its frame and the two sides as tokens (`nothing` when absent).
  public let firstDifference: (frame: Int, expected: String, actual: String)?
  /// The first difference in words: `frame 10: expected c, got nothing (c at frame 13)`.
  public let differenceSentence: String?
  /// The actual events as a marble in the file's grammar (for `--update` and JSON).
  public let actualMarble: String
  /// The expected events as printed.
  public let expectedMarble: String
  /// Legend entries for the values shown: `(key, value text)`.
  public let legend: [(key: String, value: String)]
  /// Entries the actual marble needs beyond the expectation's legend.
  public let newEntries: [LegendEntry]
  /// The actual error value when it differs from the expectation's `error`.
  public let actualErrorValue: Value?

  public init(_ result: ExpectationResult, grammar: MarbleGrammar) {
    switch result.actual {
    case .events(let actual):
      guard case .events(let expected) = result.spec.expected else {
        self.init(empty: ())
        return
      }
      self.init(expected: expected.events, actual: actual.events, result: result, grammar: grammar)
    case .subscriptions(let actual):
      guard case .subscriptions(let expected, _) = result.spec.expected else {
        self.init(empty: ())
        return
      }
      self.init(expected: expected, actual: actual, difference: result.firstDifference)
    }
  }

  private init(empty: Void) {
    lines = []
    firstDifference = nil
    differenceSentence = nil
    actualMarble = ""
    expectedMarble = ""
    legend = []
    newEntries = []
    actualErrorValue = nil
  }

  private init(expected: [Recorded], actual: [Recorded], result: ExpectationResult, grammar: MarbleGrammar) {
    var printer = MarblePrinter(
      grammar: grammar, legend: Legend(layers: [result.spec.legend]), errorValue: result.spec.errorValue)
    let showZero = (expected.first?.frame ?? 0) < 0 || (actual.first?.frame ?? 0) < 0
    let expectedPrinted = printer.print(expected, showZero: showZero)
    let actualPrinted = printer.print(actual, showZero: showZero)
    expectedMarble = expectedPrinted.text
    actualMarble = printer.print(actual).text
    newEntries = actualPrinted.newEntries
    actualErrorValue = actualPrinted.errorValue

    var difference: (frame: Int, expected: String, actual: String)?
    var sentence = ""
    if let index = result.firstDifference {
      let e = index < expected.count ? expected[index] : nil
      let a = index < actual.count ? actual[index] : nil
      let frame = min(e?.frame ?? .max, a?.frame ?? .max)
      func token(_ recorded: Recorded) -> String {
        var single = printer
        return single.print([Recorded(frame: 0, event: recorded.event)]).text
      }
      /// The event at the difference's frame as a token (`nothing` when absent), and the
      /// human sentence's richer wording of it.
      func describe(_ recorded: Recorded?, other: Recorded?) -> (token: String, sentence: String) {
        guard let recorded else { return ("nothing", "nothing") }
        guard recorded.frame == frame else {
          return ("nothing", "nothing (\(token(recorded)) at frame \(recorded.frame))")
        }
        if case .error(let value) = recorded.event, let other, case .error = other.event, other.frame == frame {
          return ("#", "# (error: \(value))")
        }
        return (token(recorded), token(recorded))
      }
      let expectedSide = describe(e, other: a)
      let actualSide = describe(a, other: e)
      difference = (frame, expectedSide.token, actualSide.token)
      sentence = "frame \(frame): expected \(expectedSide.sentence), got \(actualSide.sentence)"
    }
    firstDifference = difference
    differenceSentence = difference == nil ? nil : sentence

    let lanes = Lanes(expected: expectedPrinted.cells, actual: actualPrinted.cells, grammar: grammar)
    var lines = [lanes.ruler, "expected " + lanes.expected]
    var actualLine = "actual   " + lanes.actual
    if let value = actualPrinted.errorValue { actualLine += "   error: \(value)" }
    lines.append(actualLine)
    if let difference {
      let column = lanes.column(of: difference.frame)
      lines.append(
        String(repeating: " ", count: 9 + column)
          + "^ " + sentence)
    }
    var legend: [(key: String, value: String)] = []
    var legendKeys = Set<String>()
    let shown = Set(expectedPrinted.cells.map(\.text) + actualPrinted.cells.map(\.text))
      .joined()
    for entry in result.spec.legend where shown.contains(entry.key) && legendKeys.insert(entry.key).inserted {
      legend.append((entry.key, ExpectationDiff.describe(entry.value)))
    }
    for entry in expectedPrinted.newEntries + actualPrinted.newEntries where legendKeys.insert(entry.key).inserted {
      switch entry.kind {
      case .value: legend.append((entry.key, ExpectationDiff.describe(entry.value)))
      case .signal(let marble, _): legend.append((entry.key, "!cold \(Value.quoted(marble))"))
      }
    }
    self.legend = legend
    if !legend.isEmpty {
      lines.append("legend: " + legend.map { "\($0.key) = \($0.value)" }.joined(separator: ", "))
    }
    self.lines = lines
  }

  private init(expected: [SubscriptionLog.Entry], actual: [SubscriptionLog.Entry], difference: Int?) {
    func marble(_ entry: SubscriptionLog.Entry) -> String {
      MarblePrinter.subscription(subscribe: entry.subscribed, unsubscribe: entry.unsubscribed)
    }
    let expectedText = expected.map(marble)
    let actualText = actual.map(marble)
    var lines: [String] = []
    lines.append("expected " + (expectedText.isEmpty ? "no subscription" : expectedText.joined(separator: ", ")))
    lines.append("actual   " + (actualText.isEmpty ? "no subscription" : actualText.joined(separator: ", ")))
    if let difference {
      let e = difference < expectedText.count ? expectedText[difference] : "nothing"
      let a = difference < actualText.count ? actualText[difference] : "nothing"
      lines.append("subscription \(difference + 1): expected \(e), got \(a)")
      differenceSentence = "subscription \(difference + 1): expected \(e), got \(a)"
      firstDifference = (
        difference < actual.count ? actual[difference].subscribed : expected[difference].subscribed, e, a
      )
    } else {
      firstDifference = nil
      differenceSentence = nil
    }
    self.lines = lines
    actualMarble = actualText.joined(separator: ", ")
    expectedMarble = expectedText.joined(separator: ", ")
    legend = []
    newEntries = []
    actualErrorValue = nil
  }

  /// A value as the legend shows it; signals as their marble.
  static func describe(_ value: Value) -> String {
    if case .signal(let signal) = value, let events = signal.events {
      var printer = MarblePrinter()
      return "!cold \(Value.quoted(printer.print(events).text))"
    }
    return value.description
  }
}

/// Expected and actual cells laid out column by column: a frame is as wide as its wider cell.
private struct Lanes {
  var expected = ""
  var actual = ""
  var ruler = ""
  private var columns: [Int: Int] = [:]

  init(expected: [MarbleCell], actual: [MarbleCell], grammar: MarbleGrammar) {
    var expectedCells: [Int: String] = [:]
    var actualCells: [Int: String] = [:]
    var frames = Set<Int>()
    for cell in expected {
      expectedCells[cell.frame, default: ""] += cell.text
      frames.insert(cell.frame)
    }
    for cell in actual {
      actualCells[cell.frame, default: ""] += cell.text
      frames.insert(cell.frame)
    }
    var column = 0
    var rulerText = ""
    var rulerWidth = 0
    for frame in frames.sorted() {
      let e = expectedCells[frame] ?? ""
      let a = actualCells[frame] ?? ""
      let width = max(e.count, a.count)
      columns[frame] = column
      if frame >= 0, frame % 5 == 0, rulerWidth <= column {
        let label = String(frame)
        rulerText += String(repeating: " ", count: column - rulerWidth) + label
        rulerWidth = column + label.count
      }
      self.expected += e + String(repeating: " ", count: width - e.count)
      self.actual += a + String(repeating: " ", count: width - a.count)
      column += width
    }
    while self.expected.last == " " { self.expected.removeLast() }
    while self.actual.last == " " { self.actual.removeLast() }
    ruler = String(repeating: " ", count: 9) + rulerText
  }

  func column(of frame: Int) -> Int {
    if let column = columns[frame] { return column }
    let earlier = columns.filter { $0.key < frame }.max { $0.key < $1.key }
    return (earlier?.value ?? 0) + 1
  }
}
