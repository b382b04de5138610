public import FlowrunCore
import FlowrunDiagnostics
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
  /// When code answered the expectation: the model's events as a marble (`ExpectationResult.model`).
  public private(set) var modelMarble: String?

  /// The diff of a failed expectation; `folded` (the default) draws only a window of the
  /// lanes around the first difference when they are wider than `foldWidth`.
  public init(_ result: ExpectationResult, grammar: MarbleGrammar, folded: Bool = true) {
    switch result.actual {
    case .events(let actual):
      guard case .events(let expected) = result.spec.expected else {
        self.init(empty: ())
        return
      }
      self.init(
        expected: expected.events, actual: actual.events, model: result.model?.events, result: result,
        grammar: grammar, folded: folded)
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

  private init(
    expected: [Recorded], actual: [Recorded], model: [Recorded]?, result: ExpectationResult, grammar: MarbleGrammar,
    folded: Bool
  ) {
    var printer = MarblePrinter(
      grammar: grammar, legend: Legend(layers: [result.spec.legend]), errorValue: result.spec.errorValue)
    let showZero = (expected.first?.frame ?? 0) < 0 || (actual.first?.frame ?? 0) < 0
    let expectedPrinted = printer.print(expected, showZero: showZero).cancelling(at: result.spec.cancel)
    // Nothing happened: the lane shows its frames as `-` (an empty lane would read as missing).
    let actualPrinted = printer.print(
      actual, showZero: showZero, through: actual.isEmpty ? max(0, expected.last?.frame ?? 0) : nil
    ).cancelling(at: result.cancelled)
    expectedMarble = expectedPrinted.text
    actualMarble = printer.print(actual).cancelling(at: result.cancelled).text
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
      if let e, let a, e.frame == frame, a.frame == frame, case .next(let wanted) = e.event,
        case .next(let got) = a.event, let note = Self.unlegendedNote(wanted, got: got, printer: printer)
      {
        sentence += " (\(note))"
      }
    }
    firstDifference = difference
    differenceSentence = difference == nil ? nil : sentence

    // Code bound into the run: the model's lane between the expected and the code's.
    let modelPrinted = model.map {
      printer.print($0, showZero: showZero, through: $0.isEmpty ? max(0, expected.last?.frame ?? 0) : nil)
    }
    if let model { modelMarble = printer.print(model).text }
    let lanes = DiffLanes(expected: expectedPrinted.cells, actual: actualPrinted.cells, model: modelPrinted?.cells)
    let focus = difference.map { lanes.column(of: $0.frame) } ?? 0
    let window = folded ? lanes.window(around: focus, limit: Self.foldWidth) : lanes.columns.indices
    let shown = lanes.renderLanes(window)
    // An empty marble (`out: ""`) draws nothing: say what it expects.
    let expectedLane =
      expected.isEmpty && shown.expected.allSatisfy({ $0 == " " })
      ? "(an empty marble: no event at all, not even a completion)" : shown.expected
    var lines = [String(repeating: " ", count: 9) + shown.ruler, "expected " + expectedLane]
    if model != nil { lines.append("model    " + shown.model) }
    var actualLine = (model == nil ? "actual   " : "code     ") + shown.actual
    if let value = actualPrinted.errorValue { actualLine += "   error: \(value)" }
    lines.append(actualLine)
    let cutBefore = window.lowerBound > 0
    if let difference {
      let column =
        lanes.column(of: difference.frame) - (lanes.columns.isEmpty ? 0 : lanes.columns[window.lowerBound].start)
      lines.append(String(repeating: " ", count: 9 + column + (cutBefore ? 1 : 0)) + "^ " + sentence)
    }
    if let model, let parting = Self.parting(model: model, code: actual, printer: printer),
      lanes.columns.indices.isEmpty || window.contains(lanes.firstIndex(notBefore: parting.frame))
    {
      let column =
        lanes.column(of: parting.frame) - (lanes.columns.isEmpty ? 0 : lanes.columns[window.lowerBound].start)
      lines.append(String(repeating: " ", count: 9 + column + (cutBefore ? 1 : 0)) + "^ " + parting.sentence)
    }
    if window != lanes.columns.indices { lines.append(Self.foldNote(lanes, window)) }

    var legendText = LegendText(printer: printer, legend: result.spec.legend)
    legend = legendText.entries(in: [expectedPrinted.text, actualPrinted.text] + [modelPrinted?.text ?? ""])
    let lineEntries =
      window == lanes.columns.indices
      ? legend : legendText.entries(in: lanes.columns[window].map { $0.expected + $0.actual })
    if !lineEntries.isEmpty {
      lines.append("legend: " + lineEntries.map { "\($0.key) = \($0.value)" }.joined(separator: ", "))
    }
    self.lines = lines
  }

  /// Where the code parts from the model: the first event that differs, in words.
  static func parting(model: [Recorded], code: [Recorded], printer: MarblePrinter) -> (frame: Int, sentence: String)? {
    let count = max(model.count, code.count)
    guard let index = (0..<count).first(where: { $0 >= model.count || $0 >= code.count || model[$0] != code[$0] })
    else { return nil }
    let m = index < model.count ? model[index] : nil
    let c = index < code.count ? code[index] : nil
    let frame = min(m?.frame ?? .max, c?.frame ?? .max)
    func side(_ recorded: Recorded?) -> String {
      guard let recorded else { return "nothing" }
      var single = printer
      let token = single.print([Recorded(frame: 0, event: recorded.event)]).text
      return recorded.frame == frame ? token : "nothing (\(token) at frame \(recorded.frame))"
    }
    return (frame, "frame \(frame): the code parts from the model: model \(side(m)), code \(side(c))")
  }

  /// Why an expected token meant something else than its writer thought: it is in no legend,
  /// so `F` is the string "F" (not false) and `1` the integer 1, while a value of another kind
  /// came. Nil when the token is a legend key or the kinds agree.
  static func unlegendedNote(_ expected: Value, got actual: Value, printer: MarblePrinter) -> String? {
    guard printer.key(for: expected) == nil else { return nil }
    switch (expected, actual) {
    case (.string(let text), _):
      if case .string = actual { return nil }
      guard text.unicodeScalars.count == 1 else { return nil }
      return "'\(text)' is not in the legend, so it stands for the string \(Value.quoted(text))"
    case (.int(let digit), .string), (.int(let digit), .bool), (.int(let digit), .null), (.int(let digit), .list),
      (.int(let digit), .map):
      guard (0...9).contains(digit) else { return nil }
      return "'\(digit)' is not in the legend, so it stands for the integer \(digit)"
    default:
      return nil
    }
  }

  /// The display columns of lanes shown before a failure is folded around its first difference.
  public static let foldWidth = 80

  /// `folded: frames 0-979 and 1052-200000 are not shown (-v shows the whole marbles)`.
  private static func foldNote(_ lanes: DiffLanes, _ window: Range<Int>) -> String {
    var cut: [(first: Int, last: Int)] = []
    if window.lowerBound > 0 {
      cut.append((lanes.columns[0].frame, lanes.columns[window.lowerBound].frame - 1))
    }
    if window.upperBound < lanes.columns.count {
      cut.append((lanes.columns[window.upperBound].frame, lanes.lastFrame))
    }
    let single = cut.count == 1 && cut[0].first == cut[0].last
    let ranges = cut.map { $0.first == $0.last ? "\($0.first)" : "\($0.first)-\($0.last)" }
    let subject = (single ? "frame " : "frames ") + ranges.joined(separator: " and ")
    return "folded: \(subject) \(single ? "is" : "are") not shown (-v shows the whole marbles)"
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
}
