import FlowrunDiagnostics
import FlowrunYAML
import Testing

@testable import FlowrunLSP

/// Positions: the loader counts columns in Unicode scalars and places by UTF-8 byte; LSP counts
/// UTF-16 code units.
@Suite struct LineIndexTests {
  /// `é` is 2 UTF-8 bytes and 1 UTF-16 unit, `😀` 4 bytes and 2 units, `登` 3 bytes and 1 unit.
  static let text = "a: 1\nname: \"é😀登x\"\r\nlast\rend"

  @Test func loaderColumnsBecomeUTF16Characters() {
    let lines = LineIndex(bytes: Array(Self.text.utf8))
    #expect(lines.lineCount == 4)
    // `x` is scalar column 11 of line 2 (name: "é😀登x"): 7 + 1 + 1 + 1 + 1, UTF-16 character 11.
    #expect(lines.position(of: SourceLocation(line: 2, column: 11, offset: 0)) == Position(line: 1, character: 11))
    #expect(lines.position(of: SourceLocation(line: 2, column: 10, offset: 0)) == Position(line: 1, character: 10))
    #expect(lines.position(of: SourceLocation(line: 2, column: 9, offset: 0)) == Position(line: 1, character: 8))
    #expect(lines.position(of: SourceLocation(line: 4, column: 2, offset: 0)) == Position(line: 3, character: 1))
  }

  @Test func bytesAndPositionsRoundTrip() {
    let bytes = Array(Self.text.utf8)
    let lines = LineIndex(bytes: bytes)
    let x = bytes.firstIndex(of: UInt8(ascii: "x"))!
    #expect(lines.position(ofByte: x) == Position(line: 1, character: 11))
    #expect(lines.byteOffset(of: Position(line: 1, character: 11)) == x)
    // Inside the surrogate pair of 😀: the character's start.
    let emoji = lines.byteOffset(of: Position(line: 1, character: 8))
    #expect(lines.byteOffset(of: Position(line: 1, character: 9)) == emoji)
    #expect(lines.lineText(2) == "last")
    #expect(lines.byteOffset(of: Position(line: 9, character: 0)) == bytes.count)
  }

  @Test func aByteOrderMarkIsOneUnitForTheClientAndNoColumnForTheLoader() {
    let lines = LineIndex(bytes: [0xEF, 0xBB, 0xBF] + Array("flowrun: 1".utf8))
    #expect(lines.position(of: SourceLocation(line: 1, column: 1, offset: 3)) == Position(line: 0, character: 1))
    #expect(lines.position(ofByte: 3) == Position(line: 0, character: 1))
  }
}
