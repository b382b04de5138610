import FlowrunCore
import FlowrunDiagnostics
import Testing

@testable import FlowrunMarbles

@Suite struct ParserTests {
  /// (marble, flowrun items, rxjs items) for hot marbles with the default 1ms tick.
  static let hotCases: [(String, String, String)] = [
    ("", "", ""),
    ("a", "0:a", "0:a"),
    ("-a-b|", "1:a 3:b 4:|", "1:a 3:b 4:|"),
    ("--#", "2:#", "2:#"),
    ("a b  c", "0:a 1:b 2:c", "0:a 1:b 2:c"),
    ("  -a", "1:a", "1:a"),
    ("(ab)c", "0:a 0:b 1:c", "0:a 0:b 4:c"),
    ("-(abc)-d", "1:a 1:b 1:c 3:d", "1:a 1:b 1:c 7:d"),
    ("---(u|)", "3:u 3:|", "3:u 3:|"),
    ("-a^b", "-1:a 1:b", "-1:a 1:b"),
    ("ab-^-c", "-3:a -2:b 2:c", "-3:a -2:b 2:c"),
    ("a ^ b", "-1:a 1:b", "-1:a 1:b"),
    ("-(^a)b", "0:a 1:b", "0:a 4:b"),
    ("a 9ms b", "0:a 10:b", "0:a 10:b"),
    ("9ms a", "9:a", "9:a"),
    ("a 1.5s b", "0:a 1501:b", "0:a 1501:b"),
    ("a 2f b", "0:a 3:b", "0:a 1:2 2:f 3:b"),
    ("a 1m b", "0:a 60001:b", "0:a 60001:b"),
    ("a 9ms", "0:a", "0:a 1:9 2:m 3:s"),
    ("a9ms b", "0:a 1:9 2:m 3:s 4:b", "0:a 1:9 2:m 3:s 4:b"),
    ("a 9msb", "0:a 1:9 2:m 3:s 4:b", "0:a 1:9 2:m 3:s 4:b"),
    ("a 12 b", "0:a 1:1 2:2 3:b", "0:a 1:1 2:2 3:b"),
    ("a @5ms b", "0:a 5:b", "0:a 5:b"),
    ("a @5 b", "0:a 5:b", "0:a 5:b"),
    ("a @1ms b", "0:a 1:b", "0:a 1:b"),
    ("-^ a @3ms b", "1:a 3:b", "1:a 3:b"),
    ("-'u1'-'u2'|", "1:'u1' 3:'u2' 4:|", "1:'u1' 3:'u2' 4:|"),
    ("('u1'b)c", "0:'u1' 0:b 1:c", "0:'u1' 0:b 7:c"),
    ("' a b '-x", "0:' a b ' 2:x", "0:' a b ' 2:x"),
    ("1-2", "0:1 2:2", "0:1 2:2"),
    ("雨-夜", "0:雨 2:夜", "0:雨 2:夜"),
    ("-a--|--", "1:a 4:|", "1:a 4:|"),
    ("--|-^-", "-2:|", "-2:|"),
    ("( a b )c", "0:a 0:b 1:c", "0:a 0:b 4:c"),
  ]

  @Test(arguments: hotCases)
  func hotFlowrun(marble: String, flowrun: String, rxjs: String) throws {
    #expect(try summary(parser(.flowrun).parseHot(marble).items) == flowrun)
  }

  @Test(arguments: hotCases)
  func hotRxjs(marble: String, flowrun: String, rxjs: String) throws {
    #expect(try summary(parser(.rxjs).parseHot(marble).items) == rxjs)
  }

  @Test(arguments: MarbleGrammar.allCases)
  func coldAndExpectation(grammar: MarbleGrammar) throws {
    let p = try parser(grammar)
    #expect(try summary(p.parseCold("--a---b--c|").items) == "2:a 6:b 9:c 10:|")
    #expect(try summary(p.parseExpectation("-a^b").items) == "-1:a 1:b")
    #expect(try summary(p.parseExpectation("---a------d--e|").items) == "3:a 10:d 13:e 14:|")
  }

  @Test func offsetsAreUnicodeScalarOffsets() throws {
    let items = try parser().parseHot("雨-'夜x' (bc)").items
    #expect(items.map(\.offset) == [0, 2, 8, 9])
    #expect(items.map(\.frame) == [0, 2, 3, 3])
  }

  @Test func parsedMarbleReportsZeroAndEnd() throws {
    let hot = try parser().parseHot("ab-^-c--")
    #expect(hot.zeroOffset == 3)
    #expect(hot.end == 5)
    let cold = try parser().parseCold("--(ab)")
    #expect(cold.zeroOffset == nil)
    #expect(cold.end == 3)
    #expect(try parser(.rxjs).parseCold("--(ab)").end == 6)
  }

  @Test(arguments: [
    ("a 200ms b", "100ms", "0:a 3:b"),
    ("-a @1s b", "100ms", "1:a 10:b"),
    ("a 1.5s b", "500ms", "0:a 4:b"),
    ("-a-b-c-------d-e----|", "10ms", "1:a 3:b 5:c 13:d 15:e 20:|"),
  ])
  func durationsWithTick(marble: String, tick: String, items: String) throws {
    #expect(try summary(parser(tick: tick).parseHot(marble).items) == items)
  }

  @Test func eventsResolveThroughLegendAndErrorValue() throws {
    let legend = Legend(layers: [[("a", .bool(true))], [("a", .int(9)), ("b", .string("bee"))]])
    let events = try parser().parseHot("abc1'u1'#").events(legend: legend, errorValue: .int(42))
    #expect(
      events == [
        next(0, .bool(true)), next(1, .string("bee")), next(2, .string("c")), next(3, .int(1)),
        next(4, .string("u1")), Recorded(frame: 5, event: .error(.int(42))),
      ])
  }

  /// (marble, flowrun (subscribe, unsubscribe), rxjs (subscribe, unsubscribe)).
  static let subscriptionCases: [(String, [Int?], [Int?])] = [
    ("^---!", [0, 4], [0, 4]),
    ("--^-", [2, nil], [2, nil]),
    ("(^!)", [0, 0], [0, 0]),
    ("   ", [nil, nil], [nil, nil]),
    ("", [nil, nil], [nil, nil]),
    ("-----!", [nil, 5], [nil, 5]),
    ("--^--!-", [2, 5], [2, 5]),
    ("^ 5ms !", [0, 6], [0, 6]),
    ("^ @10ms !", [0, 10], [0, 10]),
    ("-- ^ -- !", [2, 5], [2, 5]),
  ]

  @Test(arguments: subscriptionCases)
  func subscriptionsFlowrun(marble: String, flowrun: [Int?], rxjs: [Int?]) throws {
    let parsed = try parser(.flowrun).parseSubscription(marble)
    #expect([parsed.subscribe, parsed.unsubscribe] == flowrun)
  }

  @Test(arguments: subscriptionCases)
  func subscriptionsRxjs(marble: String, flowrun: [Int?], rxjs: [Int?]) throws {
    let parsed = try parser(.rxjs).parseSubscription(marble)
    #expect([parsed.subscribe, parsed.unsubscribe] == rxjs)
  }

  @Test func bangOccupiesOneFrameOnlyInFlowrun() throws {
    #expect(throws: MarbleError("'@1ms' moves time backwards", offset: 3)) {
      try parser(.flowrun).parseSubscription("^! @1ms")
    }
    #expect(try parser(.rxjs).parseSubscription("^! @1ms").unsubscribe == 1)
  }

  @Test func subscriptionOffsets() throws {
    let parsed = try parser().parseSubscription("- ^ -!")
    #expect(parsed.subscribeOffset == 2)
    #expect(parsed.unsubscribeOffset == 5)
  }

  @Test func marbleAtTheLimitParses() throws {
    let limits = MarbleLimits(frames: 10, characters: 10)
    #expect(try parser(limits: limits).parseCold("----------").end == 10)
    #expect(try parser(limits: limits).parseCold("a @10f").end == 10)
  }
}
