import FlowrunCore
import FlowrunDiagnostics
import Testing

@testable import FlowrunMarbles

/// The consumer's marks of an async expectation (`,` and `;`) and the pulls they give.
@Suite struct ConsumerMarksTests {
  func marks(_ marble: String) throws -> ParsedMarble {
    var reader = try parser()
    reader.consumerMarks = true
    return try reader.parseExpectation(marble)
  }

  /// (marble, events, delays as `frame/afterEvents`, cancel frame, pull frames).
  static let cases: [(String, String, String, Int?, [Int?])] = [
    (",,(xxx)|", "2:x 2:x 2:x 3:|", "0/0 1/0", nil, [2, 2, 2, 2, 3]),
    ("x,,,,(xx)|", "0:x 5:x 5:x 6:|", "1/1 2/1 3/1 4/1", nil, [nil, 5, 5, 5, 6]),
    (",,,(x,)(x,)(x,)|", "3:x 4:x 5:x 6:|", "0/0 1/0 2/0 3/1 4/2 5/3", nil, [3, 4, 5, 6, 6]),
    ("a--b-(;|)", "0:a 3:b 5:|", "", 5, [nil, 0, 3, 5]),
    ("-^-,a", "3:a", "2/0", nil, [3, 3]),
    ("ab", "0:a 1:b", "", nil, [nil, 0, 1]),
  ]

  @Test(arguments: cases)
  func marksAndPulls(_ test: (String, String, String, Int?, [Int?])) throws {
    let (marble, events, delays, cancel, pulls) = test
    let parsed = try marks(marble)
    #expect(summary(parsed.items) == events)
    #expect(parsed.consumer.delays.map { "\($0.frame)/\($0.afterEvents)" }.joined(separator: " ") == delays)
    #expect(parsed.consumer.cancel == cancel)
    #expect(parsed.consumer.pullFrames(eventFrames: parsed.items.map(\.frame)) == pulls)
  }

  /// Outside an async expectation both are errors at their column; quoted they are values.
  @Test func elsewhereTheMarksAreErrors() throws {
    let plain = try parser()
    #expect(throws: MarbleError.self) { try plain.parseExpectation("a,b") }
    #expect(throws: MarbleError.self) { try plain.parseHot("a;") }
    do {
      _ = try plain.parseExpectation("ab;")
    } catch {
      #expect(error.offset == 2)
      #expect(error.message.contains("only allowed in an expectation under 'library: async'"))
    }
    var async = try parser()
    async.consumerMarks = true
    #expect(throws: MarbleError.self) { try async.parseHot("a,b") }
    #expect(summary(try plain.parseExpectation("';'','").items) == "0:';' 1:','")
  }

  @Test func cancellationErrors() throws {
    #expect(throws: MarbleError(Diagnostic.Message("';' may appear only once"), offset: 2)) { try marks("a;;") }
    #expect(throws: MarbleError(Diagnostic.Message("events after ';'"), offset: 2)) { try marks("a;b") }
    #expect(throws: MarbleError(Diagnostic.Message("events after '|'"), offset: 2)) { try marks("a|;") }
  }

  /// A one-character value `,` or `;` is never printed as itself (it would read back as a
  /// mark): it gets a legend letter. `;` is drawn first in its frame.
  @Test func printing() {
    var symbols = MarblePrinter()
    let values = symbols.print([next(0, .string(";")), next(1, .string(","))])
    #expect(values.text == "ab")
    #expect(values.newEntries.map(\.value) == [.string(";"), .string(",")])
    var printer = MarblePrinter()
    let printed = printer.print([next(0, .string("a")), Recorded(frame: 2, event: .completed)])
    #expect(printed.cancelling(at: 2).text == "a-(;|)")
    #expect(printed.cancelling(at: 4).text == "a-|-;")
    #expect(printed.cancelling(at: 1).text == "a;|")
  }
}
