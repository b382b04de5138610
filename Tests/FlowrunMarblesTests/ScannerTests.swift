import FlowrunCore
import FlowrunDiagnostics
import Testing

@testable import FlowrunMarbles

/// The parser reads a marble's UTF-8 in place: offsets stay Unicode-scalar counts after multi-byte
/// characters, and the look-aheads (`)` of a group, `^` after an `@` time) skip quoted text.
@Suite struct ScannerTests {
  enum Kind: Sendable { case hot, cold, expectation, subscription }

  static func parse(_ kind: Kind, _ marble: String, _ p: MarbleParser) throws(MarbleError) {
    switch kind {
    case .hot: _ = try p.parseHot(marble)
    case .cold: _ = try p.parseCold(marble)
    case .expectation: _ = try p.parseExpectation(marble)
    case .subscription: _ = try p.parseSubscription(marble)
    }
  }

  /// (kind, grammar, tick, marble, message, scalar offset).
  static let errorCases: [(Kind, MarbleGrammar, String, String, String, Int)] = [
    (.hot, .flowrun, "1ms", "雨-(a", "unclosed group in marble", 2),
    (.hot, .rxjs, "1ms", "雨-(a", "unclosed group in marble", 2),
    (.hot, .flowrun, "1ms", "雨😀-a)", "unmatched ')'", 4),
    (.hot, .flowrun, "1ms", "'雨夜'-''", "empty quoted value", 5),
    (.hot, .flowrun, "1ms", "é-'abc", "unterminated quoted value", 2),
    (.hot, .flowrun, "1ms", "(雨-b)", "'-' is not allowed in a group", 2),
    (.hot, .flowrun, "1ms", "(雨-b", "unclosed group in marble", 0),
    // A `)` inside quotes does not close the group.
    (.hot, .flowrun, "1ms", "'雨)'(a-", "unclosed group in marble", 4),
    (.hot, .flowrun, "1ms", "(a-')'", "unclosed group in marble", 0),
    (.hot, .flowrun, "1ms", "(a-'x')", "'-' is not allowed in a group", 2),
    (.hot, .flowrun, "1ms", "(雨 @1 b)", "'@' is not allowed in a group", 3),
    (.hot, .flowrun, "1ms", "(雨 @1 ')'", "unclosed group in marble", 0),
    (.hot, .flowrun, "1ms", "雨\u{85}", "unexpected character U+0085 in marble", 1),
    (.hot, .flowrun, "1ms", "a雨\u{3000}", "unexpected character U+3000 in marble", 2),
    (.hot, .flowrun, "1ms", "😀\u{7F}", "unexpected character U+007F in marble", 1),
    (.hot, .flowrun, "1ms", "雨|夜", "events after '|'", 2),
    (.cold, .rxjs, "1ms", "(雨#'夜')", "events after '#'", 3),
    (.subscription, .flowrun, "1ms", "^-雨", "'雨' is not allowed in a subscription marble", 2),
    (.subscription, .flowrun, "1ms", "^'雨夜'", "'雨夜' is not allowed in a subscription marble", 1),
    (.hot, .flowrun, "1ms", "雨 @雨", "'@雨' is not a valid time", 2),
    (.hot, .flowrun, "1ms", "雨 @5 ^ b", "'@5' must come after '^'", 2),
    (.expectation, .rxjs, "1ms", "'x^' @3 ^", "'@3' must come after '^'", 5),
    (.hot, .flowrun, "1s", "😀 @1.5s", "duration 1.5s is not a whole number of ticks (tick = 1s)", 2),
    (.hot, .rxjs, "100ms", "雨夜 250ms b", "duration 250ms is not a whole number of ticks (tick = 100ms)", 3),
    (.hot, .flowrun, "1ms", "雨 @1s b @0.5s", "'@0.5s' moves time backwards", 8),
  ]

  @Test(arguments: errorCases)
  func errorOffsetsCountScalars(
    kind: Kind, grammar: MarbleGrammar, tick: String, marble: String, message: String, offset: Int
  ) throws {
    let p = try parser(grammar, tick: tick)
    #expect(throws: MarbleError(Diagnostic.Message(message), offset: offset)) {
      try ScannerTests.parse(kind, marble, p)
    }
  }

  /// (grammar, hot marble, items, their offsets).
  static let itemCases: [(MarbleGrammar, String, String, [Int])] = [
    (.flowrun, "-'雨夜'-'😀x'|", "1:'雨夜' 3:'😀x' 4:|", [1, 6, 10]),
    (.rxjs, "-'雨夜'-'😀x'|", "1:'雨夜' 3:'😀x' 4:|", [1, 6, 10]),
    // In an rxjs group every scalar of a quoted token takes a frame, not every byte.
    (.flowrun, "('雨夜'a)b", "0:'雨夜' 0:a 1:b", [1, 5, 7]),
    (.rxjs, "('雨夜'a)b", "0:'雨夜' 0:a 7:b", [1, 5, 7]),
    (.rxjs, "(😀'é')-x", "0:😀 0:'é' 7:x", [1, 2, 7]),
    (.flowrun, "é'a b'ü", "0:é 1:'a b' 2:ü", [0, 1, 6]),
    (
      .flowrun, "'雨夜雨夜雨夜'-'abcdefghijklmno'-'abcdefghijklmnop'",
      "0:'雨夜雨夜雨夜' 2:'abcdefghijklmno' 4:'abcdefghijklmnop'", [0, 9, 27]
    ),
    (.flowrun, "雨 @5 '^' b", "0:雨 5:'^' 6:b", [0, 5, 9]),
    (.flowrun, "雨 10ms 夜", "0:雨 11:夜", [0, 7]),
    (.rxjs, "雨 10ms 夜", "0:雨 11:夜", [0, 7]),
    (.rxjs, "雨 1.5s 夜", "0:雨 1501:夜", [0, 7]),
    (.rxjs, "雨 10ms夜", "0:雨 1:1 2:0 3:m 4:s 5:夜", [0, 2, 3, 4, 5, 6]),
    (.flowrun, "雨 10ms夜", "0:雨 1:1 2:0 3:m 4:s 5:夜", [0, 2, 3, 4, 5, 6]),
    (.rxjs, "雨 @5ms 夜 3f", "0:雨 5:夜 6:3 7:f", [0, 7, 9, 10]),
    (.flowrun, "雨 @5ms 夜 3f", "0:雨 5:夜", [0, 7]),
    (.rxjs, "夜^雨 2m x", "-1:夜 1:雨 120002:x", [0, 2, 7]),
  ]

  @Test(arguments: itemCases)
  func itemsAfterMultiByteCharacters(grammar: MarbleGrammar, marble: String, items: String, offsets: [Int]) throws {
    let parsed = try parser(grammar).parseHot(marble).items
    #expect(summary(parsed) == items)
    #expect(parsed.map(\.offset) == offsets)
  }

  @Test func characterLimitCountsScalarsNotBytes() throws {
    let p = try parser(limits: MarbleLimits(frames: 100, characters: 3))
    #expect(try summary(p.parseCold("雨夜😀").items) == "0:雨 1:夜 2:😀")
    #expect(throws: MarbleError("marble is longer than the limit of 3 characters", offset: 3)) {
      try p.parseCold("雨夜😀a")
    }
    // The limit is checked before anything else in the marble.
    #expect(throws: MarbleError("marble is longer than the limit of 3 characters", offset: 3)) {
      try p.parseCold(")雨夜😀")
    }
  }

  @Test(arguments: MarbleGrammar.allCases)
  func longMarble(grammar: MarbleGrammar) throws {
    let count = 200_000
    var marble = ""
    for value in 0..<count { marble += "-'\(value)'" }
    marble += "|"
    let limits = MarbleLimits(frames: 10_000_000, characters: 10_000_000)
    let items = try parser(grammar, limits: limits).parseHot(marble).items
    #expect(items.count == count + 1)
    #expect(items[count - 1].kind == .value(token: "\(count - 1)", quoted: true))
    #expect(items[count - 1].frame == 2 * count - 1)
    #expect(items[count].kind == .completed)
    #expect(items[count].frame == 2 * count)
    #expect(items[count].offset == marble.unicodeScalars.count - 1)
  }

  @Test func longExpectationWithMultiByteTokens() throws {
    let count = 200_000
    var marble = "^"
    for value in 0..<count { marble += "-'雨\(value)'" }
    marble += "#"
    let limits = MarbleLimits(frames: 10_000_000, characters: 10_000_000)
    let parsed = try parser(limits: limits).parseExpectation(marble)
    #expect(parsed.items.count == count + 1)
    #expect(parsed.items[count - 1].kind == .value(token: "雨\(count - 1)", quoted: true))
    #expect(parsed.items[count - 1].frame == 2 * count)
    #expect(parsed.items[count].kind == .error)
    #expect(parsed.items[count].offset == marble.unicodeScalars.count - 1)
    #expect(parsed.end == 2 * count + 2)
  }
}
