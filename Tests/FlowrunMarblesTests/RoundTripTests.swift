import FlowrunCore
import OrderedCollections
import Testing

@testable import FlowrunMarbles

/// A small deterministic random generator (SplitMix64).
struct SplitMix: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite struct RoundTripTests {
  static let legend = Legend(layers: [
    [
      ("t", .bool(true)),
      ("s", .signal(SignalValue(events: [next(1, .string("q")), Recorded(frame: 2, event: .completed)]))),
    ],
    [("f", .bool(false)), ("a", .string("apple")), ("u1", .map(["id": .int(1)]))],
  ])

  static func randomValue(_ rng: inout SplitMix, depth: Int = 0) -> Value {
    let pool: [Value] = [
      .int(0), .int(5), .int(9), .int(12), .int(-1), .double(2), .double(2.5), .string("a"), .string("x"),
      .string("雨"), .string("-"), .string("|"), .string("'"), .string("5"), .string("long text"), .string(""),
      .bool(true), .bool(false), .null, .map(["id": .int(1)]), .map(["id": .int(2)]), .list([.int(1)]),
      .string("b"), .string("v1"),
    ]
    if depth < 2, Int.random(in: 0..<8, using: &rng) == 0 {
      return .signal(SignalValue(events: randomEvents(&rng, negative: false, depth: depth + 1, count: 4)))
    }
    return pool[Int.random(in: 0..<pool.count, using: &rng)]
  }

  static func randomEvents(_ rng: inout SplitMix, negative: Bool, depth: Int = 0, count: Int = 12) -> [Recorded] {
    var frame = negative ? Int.random(in: -6...0, using: &rng) : 0
    var events: [Recorded] = []
    for _ in 0..<Int.random(in: 0...count, using: &rng) {
      frame += [0, 0, 1, 1, 2, 5][Int.random(in: 0..<6, using: &rng)]
      events.append(next(frame, randomValue(&rng, depth: depth)))
    }
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: events.append(Recorded(frame: frame + Int.random(in: 0...2, using: &rng), event: .completed))
    case 1:
      let error: Value = Bool.random(using: &rng) ? .string("error") : .int(10086)
      events.append(Recorded(frame: frame + Int.random(in: 0...2, using: &rng), event: .error(error)))
    default: break
    }
    return events
  }

  /// Parses a printed marble back, with the printer's new entries as an extra legend layer.
  static func reparse(
    _ printed: PrintedMarble, grammar: MarbleGrammar, legend: Legend, entries: [LegendEntry], cold: Bool = false
  ) throws -> [Recorded] {
    var full = legend
    var layer: [(key: String, value: Value)] = []
    for entry in entries {
      switch entry.kind {
      case .value: layer.append((entry.key, entry.value))
      case .signal:
        // Stands for the signal; its marble is checked separately by `checkSignals`.
        layer.append((entry.key, entry.value))
      }
    }
    full.append(layer: layer)
    let p = MarbleParser(grammar: grammar)
    let parsed = cold ? try p.parseCold(printed.text) : try p.parseExpectation(printed.text)
    return parsed.events(legend: full, errorValue: printed.errorValue ?? .string("error"))
  }

  /// Checks that every signal entry's marble parses back to the signal's events.
  static func checkSignals(
    _ entries: [LegendEntry], assigned: [LegendEntry], grammar: MarbleGrammar, legend: Legend
  ) throws {
    var full = legend
    full.append(layer: assigned.map { ($0.key, $0.value) })
    for entry in entries {
      guard case let .signal(marble, errorValue) = entry.kind, case let .signal(signal) = entry.value else { continue }
      let events = try MarbleParser(grammar: grammar).parseCold(marble)
        .events(legend: full, errorValue: errorValue ?? .string("error"))
      #expect(events == signal.events, "\(entry.key) = !cold \"\(marble)\"")
    }
  }

  @Test(arguments: MarbleGrammar.allCases)
  func randomRoundTrips(grammar: MarbleGrammar) throws {
    var rng = SplitMix(state: grammar == .flowrun ? 1 : 2)
    var printer = MarblePrinter(grammar: grammar, legend: RoundTripTests.legend)
    var exactCount = 0
    var exactEntries: [LegendEntry] = []
    for _ in 0..<500 {
      let events = RoundTripTests.randomEvents(&rng, negative: Bool.random(using: &rng))
      let printed = printer.print(events)
      if printed.isExact { exactEntries += printed.newEntries }
      guard printed.isExact else {
        #expect(grammar == .rxjs)
        continue
      }
      exactCount += 1
      let back = try RoundTripTests.reparse(
        printed, grammar: grammar, legend: RoundTripTests.legend, entries: printer.assigned)
      #expect(back == events, "\(printed.text)")
    }
    try RoundTripTests.checkSignals(
      exactEntries, assigned: printer.assigned, grammar: grammar, legend: RoundTripTests.legend)
    #expect(exactCount > 100)
  }

  @Test(arguments: [
    "-a-b-(cd)--|", "ab^c", "x(^a)b", "x(^yz)", "--#", "('u1'b)", "t-f-a", "-s", "a-b-c-------d-e----|",
  ])
  func printParsePrint(marble: String) throws {
    for grammar in MarbleGrammar.allCases {
      let events = try MarbleParser(grammar: grammar).parseExpectation(marble)
        .events(legend: RoundTripTests.legend, errorValue: .string("error"))
      var printer = MarblePrinter(grammar: grammar, legend: RoundTripTests.legend)
      let text = printer.print(events).text
      #expect(text == marble, "\(grammar)")
    }
  }

  /// A million events print and parse back (the time this takes in a release build is a
  /// benchmark: `FlowrunBench marbles`).
  @Test func largeMarbleRoundTrips() throws {
    let count = 1_000_000
    var events: [Recorded] = []
    events.reserveCapacity(count)
    for frame in 0..<count { events.append(next(frame, .string(frame % 3 == 0 ? "a" : "b"))) }
    var printer = MarblePrinter()
    let text = printer.print(events).text
    #expect(text.unicodeScalars.count == count)
    let parsed = try MarbleParser().parseCold(text)
    #expect(parsed.items.count == count)
    #expect(parsed.events(legend: Legend(), errorValue: .null) == events)
  }

  @Test func manyDistinctValuesGetDistinctKeys() throws {
    let events = (0..<5_000).map { next($0, .int(1_000 + $0)) }
    var printer = MarblePrinter()
    let printed = printer.print(events)
    #expect(Set(printed.newEntries.map(\.key)).count == 5_000)
    #expect(
      try RoundTripTests.reparse(printed, grammar: .flowrun, legend: Legend(), entries: printed.newEntries) == events)
  }
}
