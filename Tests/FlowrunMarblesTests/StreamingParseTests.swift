import Testing

@testable import FlowrunMarbles

@Suite struct StreamingParseTests {
  /// `parse(_:hot:each:)` hands out the same items as `parseHot`/`parseExpectation` (frames
  /// counted from the marble's start, to be shifted by the returned zero frame), keeps none, and
  /// fails with the same error.
  @Test(arguments: [
    ("-a-b-|", true), ("--^-a--(bc)-|", true), ("a-^-b", true), ("-'u1'-'u2'-#", false),
    ("^-(ab)-@10f c|", false), ("", true), ("--", false),
  ])
  func streamedItemsMatchParsedItems(marble: String, hot: Bool) throws {
    let parser = MarbleParser()
    let parsed = hot ? try parser.parseHot(marble) : try parser.parseExpectation(marble)
    var streamed: [MarbleItem] = []
    let (shell, zero) = try parser.parse(marble, hot: hot) { streamed.append($0) }
    #expect(shell.items.isEmpty)
    #expect(shell.zeroOffset == parsed.zeroOffset)
    #expect(shell.end == parsed.end)
    #expect(streamed.map { MarbleItem(frame: $0.frame - zero, kind: $0.kind, offset: $0.offset) } == parsed.items)
  }

  @Test(arguments: ["-a-|-b", "-(a", "^-^", "-a-!"])
  func streamedParseFailsLikeParse(marble: String) {
    let parser = MarbleParser()
    var expected: MarbleError?
    do { _ = try parser.parseHot(marble) } catch { expected = error }
    var actual: MarbleError?
    do { _ = try parser.parse(marble, hot: true) { _ in } } catch { actual = error }
    #expect(expected != nil)
    #expect(actual == expected)
  }
}
