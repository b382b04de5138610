import FlowrunCore
import OrderedCollections
import Testing

@testable import FlowrunMarbles

@Suite struct PrinterTests {
  static let legend = Legend(layers: [
    [("t", .bool(true)), ("u1", .map(["id": .int(1)]))],
    [("f", .bool(false)), ("t", .bool(false)), ("a", .string("apple")), ("7", .string("seven"))],
  ])

  /// (value, token) with the legend above.
  static let tokenCases: [(Value, String)] = [
    (.bool(true), "t"),
    (.bool(false), "f"),
    (.map(["id": .int(1)]), "'u1'"),
    (.string("apple"), "a"),
    (.string("seven"), "7"),
    (.string("x"), "x"),
    (.string("雨"), "雨"),
    (.int(3), "3"),
    (.double(4), "4"),
    (.int(7), "b"),
    (.string("a"), "b"),
    (.string("t"), "b"),
    (.string("-"), "b"),
    (.string("|"), "b"),
    (.string("'"), "b"),
    (.string(" "), "b"),
    (.string("5"), "b"),
    (.string("ab"), "b"),
    (.int(10), "b"),
    (.null, "b"),
    (.double(2.5), "b"),
  ]

  @Test(arguments: tokenCases)
  func tokenChoice(value: Value, token: String) {
    var printer = MarblePrinter(legend: PrinterTests.legend)
    let printed = printer.print([next(0, value)])
    #expect(printed.text == token)
    if token == "b" {
      #expect(printed.newEntries == [LegendEntry(key: "b", value: value, kind: .value)])
    } else {
      #expect(printed.newEntries.isEmpty)
    }
  }

  @Test func layout() {
    var printer = MarblePrinter()
    let events = [
      next(1, .string("a")), next(3, .string("b")), next(3, .string("c")), Recorded(frame: 5, event: .completed),
    ]
    let printed = printer.print(events)
    #expect(printed.text == "-a-(bc)-|")
    #expect(printed.cells.map(\.text) == ["-", "a", "-", "(bc)", "-", "|"])
    #expect(printed.cells.map(\.frame) == [0, 1, 2, 3, 4, 5])
    #expect(printed.isExact)
    #expect(printer.print(events, through: 7).text == "-a-(bc)-|--")
    #expect(printer.print([], showZero: true).text == "^")
    #expect(printer.print([]).text == "")
  }

  @Test(arguments: [
    ([next(-2, .string("x")), next(1, .string("y"))], false, "x-^y"),
    ([next(-1, .string("x")), next(0, .string("y")), next(0, .string("z"))], false, "x(^yz)"),
    ([next(-1, .string("x"))], false, "x^"),
    ([next(2, .string("x"))], true, "^-x"),
    ([next(0, .string("x"))], true, "(^x)"),
  ])
  func caret(events: [Recorded], showZero: Bool, text: String) {
    var printer = MarblePrinter()
    #expect(printer.print(events, showZero: showZero).text == text)
  }

  @Test func rxjsGroupsWiden() {
    var printer = MarblePrinter(grammar: .rxjs)
    let events = [next(0, .string("a")), next(0, .string("b")), next(5, .string("c"))]
    let printed = printer.print(events)
    #expect(printed.text == "(ab)-c")
    #expect(printed.cells.map(\.span) == [4, 1, 1])
    #expect(printed.isExact)
    let tight = printer.print([next(0, .string("a")), next(0, .string("b")), next(1, .string("c"))])
    #expect(tight.text == "(ab)c")
    #expect(!tight.isExact)
  }

  @Test func freshLettersSkipLegendKeysAndSelfPrintedCharacters() {
    var printer = MarblePrinter(legend: Legend(layers: [[("a", .int(100)), ("c", .int(300))]]))
    let events = [next(0, .bool(true)), next(1, .string("b")), next(2, .bool(false)), next(3, .bool(true))]
    let printed = printer.print(events)
    #expect(printed.text == "dbed")
    #expect(printed.newEntries.map(\.key) == ["d", "e"])
    // Later marbles keep the keys already assigned and the characters already printed.
    let second = printer.print([next(0, .bool(false)), next(1, .null), next(2, .string("d"))])
    #expect(second.text == "efg")
    #expect(
      second.newEntries == [
        LegendEntry(key: "f", value: .null, kind: .value), LegendEntry(key: "g", value: .string("d"), kind: .value),
      ])
  }

  @Test func freshKeysRunOutOfLettersIntoQuotedKeys() {
    var printer = MarblePrinter()
    let events = (0..<60).map { next($0, .int(100 + $0)) }
    let printed = printer.print(events)
    let keys = printed.newEntries.map(\.key)
    #expect(keys.prefix(3) == ["a", "b", "c"])
    #expect(keys[26] == "A")
    #expect(keys[52] == "v1")
    #expect(printed.cells[53].text == "'v2'")
  }

  @Test func signalValuesGetLegendEntriesWithTheirMarble() {
    let legend = Legend(layers: [
      [("x", .signal(SignalValue(events: [next(2, .string("a")), Recorded(frame: 3, event: .completed)])))]
    ])
    var printer = MarblePrinter(legend: legend, errorValue: .string("oops"))
    let inner = SignalValue(events: [next(1, .map(["k": .int(1)])), Recorded(frame: 2, event: .error(.int(5)))])
    let known = SignalValue(events: [next(2, .string("a")), Recorded(frame: 3, event: .completed)])
    let printed = printer.print([next(0, .signal(known)), next(2, .signal(inner))])
    #expect(printed.text == "x-a")
    #expect(
      printed.newEntries == [
        LegendEntry(key: "a", value: .signal(inner), kind: .signal(marble: "-b#", errorValue: .int(5))),
        LegendEntry(key: "b", value: .map(["k": .int(1)]), kind: .value),
      ])
  }

  @Test func errorValues() {
    var printer = MarblePrinter(errorValue: .string("error"))
    let same = printer.print([Recorded(frame: 1, event: .error(.string("error")))])
    #expect(same.text == "-#")
    #expect(same.errorValue == nil)
    let other = printer.print([Recorded(frame: 0, event: .error(.int(10086)))])
    #expect(other.text == "#")
    #expect(other.errorValue == .int(10086))
  }

  @Test(arguments: [
    (0, Int?.none, "^"), (2, 6, "--^---!"), (1, 1, "-(^!)"), (0, 1, "^!"), (3, Int?.none, "---^"),
  ])
  func subscriptionLogs(subscribe: Int, unsubscribe: Int?, text: String) throws {
    #expect(MarblePrinter.subscription(subscribe: subscribe, unsubscribe: unsubscribe) == text)
    for grammar in MarbleGrammar.allCases {
      let parsed = try parser(grammar).parseSubscription(text)
      #expect(parsed.subscribe == subscribe)
      #expect(parsed.unsubscribe == unsubscribe)
    }
  }

  @Test func unsortedInputKeepsSameFrameOrder() {
    var printer = MarblePrinter()
    let printed = printer.print([next(2, .string("b")), next(0, .string("a")), next(2, .string("c"))])
    #expect(printed.text == "a-(bc)")
  }
}
