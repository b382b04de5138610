import FlowrunCore
import FlowrunDiagnostics
import Testing

@testable import FlowrunMarbles

@Suite struct ParserErrorTests {
  enum Kind: Sendable { case hot, cold, expectation, subscription }

  /// (kind, grammar, tick, marble, message, offset).
  static let cases: [(Kind, MarbleGrammar, String, String, String, Int)] = [
    (.hot, .flowrun, "1ms", "-a--(bc-", "unclosed group in marble", 4),
    (.hot, .rxjs, "1ms", "-a--(bc-", "unclosed group in marble", 4),
    (.hot, .flowrun, "1ms", "-^-^", "'^' may appear only once", 3),
    (.expectation, .rxjs, "1ms", "^(^a)", "'^' may appear only once", 2),
    (.cold, .flowrun, "1ms", "--^--", "'^' is not allowed in a cold marble", 2),
    (.cold, .rxjs, "1ms", "(^a)", "'^' is not allowed in a cold marble", 1),
    (.hot, .flowrun, "1ms", "-a-!", "'!' is only allowed in a subscription marble", 3),
    (.expectation, .rxjs, "1ms", "^ !", "'!' is only allowed in a subscription marble", 2),
    (.cold, .flowrun, "1ms", "!", "'!' is only allowed in a subscription marble", 0),
    (.hot, .flowrun, "1ms", "-a|-b", "events after '|'", 4),
    (.cold, .flowrun, "1ms", "(|a)", "events after '|'", 2),
    (.cold, .rxjs, "1ms", "-|-|", "events after '|'", 3),
    (.hot, .flowrun, "1ms", "-#-'u1'", "events after '#'", 3),
    (.expectation, .flowrun, "1ms", "#|", "events after '#'", 1),
    (.hot, .flowrun, "1ms", "-(a(b))", "nested group", 3),
    (.hot, .rxjs, "1ms", "((a))", "nested group", 1),
    (.hot, .flowrun, "1ms", "-a-()", "empty group", 3),
    (.cold, .rxjs, "1ms", "( )", "empty group", 0),
    (.hot, .flowrun, "1ms", "a @1s b @0.5s c", "'@0.5s' moves time backwards", 8),
    (.hot, .rxjs, "100ms", "-a @0.1s b", "'@0.1s' moves time backwards", 3),
    (.hot, .flowrun, "100ms", "a 250ms b", "duration 250ms is not a whole number of ticks (tick = 100ms)", 2),
    (.hot, .rxjs, "100ms", "a 250ms b", "duration 250ms is not a whole number of ticks (tick = 100ms)", 2),
    (.hot, .flowrun, "100ms", "a @250ms", "duration 250ms is not a whole number of ticks (tick = 100ms)", 2),
    (.hot, .flowrun, "1ms", "-'abc", "unterminated quoted value", 1),
    (.cold, .rxjs, "1ms", "('a'b'c)", "unterminated quoted value", 5),
    (.hot, .flowrun, "1ms", "-''-", "empty quoted value", 1),
    (.hot, .flowrun, "1ms", "-a)", "unmatched ')'", 2),
    (.hot, .flowrun, "1ms", "(a-b)", "'-' is not allowed in a group", 2),
    (.hot, .flowrun, "1ms", "(a @1 b)", "'@' is not allowed in a group", 3),
    (.hot, .flowrun, "1ms", "a @x b", "'@x' is not a valid time", 2),
    (.hot, .flowrun, "1ms", "a @ b", "'@' is not a valid time", 2),
    (.hot, .flowrun, "1ms", "a @5 ^ b", "'@5' must come after '^'", 2),
    (.hot, .flowrun, "1ms", "a\tb", "unexpected character U+0009 in marble", 1),
    (.hot, .flowrun, "1ms", "a 99999999999999999999ms", "duration 99999999999999999999ms is too large", 2),
    (.subscription, .flowrun, "1ms", "^-a", "'a' is not allowed in a subscription marble", 2),
    (.subscription, .rxjs, "1ms", "^-|", "'|' is not allowed in a subscription marble", 2),
    (.subscription, .flowrun, "1ms", "^#", "'#' is not allowed in a subscription marble", 1),
    (.subscription, .flowrun, "1ms", "^'x'", "'x' is not allowed in a subscription marble", 1),
    (.subscription, .flowrun, "1ms", "^-^", "'^' may appear only once", 2),
    (.subscription, .rxjs, "1ms", "^-!-!", "'!' may appear only once", 4),
    (.subscription, .flowrun, "1ms", "-!-^", "'!' comes before '^'", 1),
    (.subscription, .flowrun, "1ms", "(^-!", "unclosed group in marble", 0),
    (.subscription, .flowrun, "1ms", "^-- @1ms !", "'@1ms' moves time backwards", 4),
  ]

  @Test(arguments: cases)
  func error(kind: Kind, grammar: MarbleGrammar, tick: String, marble: String, message: String, offset: Int) throws {
    let p = try parser(grammar, tick: tick)
    #expect(throws: MarbleError(Diagnostic.Message(message), offset: offset)) {
      switch kind {
      case .hot: _ = try p.parseHot(marble)
      case .cold: _ = try p.parseCold(marble)
      case .expectation: _ = try p.parseExpectation(marble)
      case .subscription: _ = try p.parseSubscription(marble)
      }
    }
  }

  @Test(arguments: MarbleGrammar.allCases)
  func limits(grammar: MarbleGrammar) throws {
    let p = try parser(grammar, limits: MarbleLimits(frames: 10, characters: 12))
    #expect(throws: MarbleError("marble is longer than the limit of 12 characters", offset: 12)) {
      try p.parseCold("-------------")
    }
    #expect(throws: MarbleError("marble is longer than the limit of 10 frames", offset: 10)) {
      try p.parseCold("-----------")
    }
    #expect(throws: MarbleError("marble is longer than the limit of 10 frames", offset: 2)) {
      try p.parseCold("a 10ms b")
    }
    #expect(throws: MarbleError("marble is longer than the limit of 10 frames", offset: 2)) {
      try p.parseHot("a @11 b")
    }
    #expect(throws: MarbleError("marble is longer than the limit of 10 frames", offset: 2)) {
      try p.parseHot("a @9999999m")
    }
  }

  @Test func errorDescriptionHasOffset() {
    #expect(MarbleError("empty group", offset: 3).description == "empty group (at 3)")
  }
}
