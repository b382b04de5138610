import FlowrunCore
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

  /// What the parse with known one-byte values hands out, in the order written.
  enum Streamed: Equatable {
    case value(frame: Int, Value)
    case item(MarbleItem)
  }

  /// With the values of one-byte tokens given, an unquoted token whose byte has one comes to
  /// `eachValue` as that value with its frame, every other item (a quoted `'a'`, a token with no
  /// value, a terminal) to `each` as before, in the order written; the marble is the same.
  @Test(arguments: [
    ("-a-b-|", true), ("--^-a--(bc)-|", true), ("a-^-'a'-b-c", true), ("-a-x-#", false),
    ("^-(ab)-@10f c|", false), ("", true),
  ])
  func knownOneByteTokensComeAsValues(marble: String, hot: Bool) throws {
    let known: [UInt8: Value] = [UInt8(ascii: "a"): .int(1), UInt8(ascii: "b"): .string("B")]
    var table = [Value?](repeating: nil, count: 128)
    for (byte, value) in known { table[Int(byte)] = value }
    let parser = MarbleParser()
    var expected: [Streamed] = []
    let (plain, plainZero) = try parser.parse(marble, hot: hot) { item in
      if case .value(let token, false) = item.kind, token.utf8.count == 1, let value = known[token.utf8.first!] {
        expected.append(.value(frame: item.frame, value))
      } else {
        expected.append(.item(item))
      }
    }
    var streamed: [Streamed] = []
    let (shell, zero) = try parser.parse(
      marble, hot: hot, values: table, eachValue: { streamed.append(.value(frame: $0, $1)) },
      each: { streamed.append(.item($0)) })
    #expect(streamed == expected)
    #expect(expected.contains { if case .value = $0 { true } else { false } } == marble.contains("a"))
    #expect(shell == plain)
    #expect(zero == plainZero)
  }

  @Test(arguments: ["-a-|-a", "-(a", "^-^", "-a-!", "-a-\u{7}"])
  func parseWithKnownValuesFailsLikeParse(marble: String) {
    var table = [Value?](repeating: nil, count: 128)
    table[Int(UInt8(ascii: "a"))] = .int(1)
    table[7] = .int(7)
    let parser = MarbleParser()
    var expected: MarbleError?
    do { _ = try parser.parseHot(marble) } catch { expected = error }
    var actual: MarbleError?
    do { _ = try parser.parse(marble, hot: true, values: table, eachValue: { _, _ in }, each: { _ in }) } catch {
      actual = error
    }
    #expect(expected != nil)
    #expect(actual == expected)
  }
}
