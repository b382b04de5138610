import FlowrunDiagnostics
import Testing

@testable import FlowrunYAML

/// One broken input and the full rendered text of the diagnostics it must produce.
struct ErrorCase: Sendable, CustomTestStringConvertible {
  var name: String
  var bytes: [UInt8]
  var expected: [String]

  init(_ name: String, _ text: String, _ expected: [String]) {
    self.name = name
    bytes = Array(text.utf8)
    self.expected = expected
  }

  init(_ name: String, bytes: [UInt8], _ expected: [String]) {
    self.name = name
    self.bytes = bytes
    self.expected = expected
  }

  var testDescription: String { name }
}

/// Bytes of `text` with the byte at `index` replaced.
private func bytes(_ text: String, replacing index: Int, with byte: UInt8) -> [UInt8] {
  var result = Array(text.utf8)
  result[index] = byte
  return result
}

let errorCases: [ErrorCase] = [
  ErrorCase(
    "bad indentation", "name: x\n  bad: 1\n",
    [
      "t.yaml:2:6: error: mapping values are not allowed in this context",
      "      bad: 1",
      "         ^",
    ]),
  ErrorCase(
    "unclosed double quote", "name: \"abc\n",
    [
      "t.yaml:2:1: error: found unexpected end of stream",
      "    ",
      "    ^",
      "t.yaml:1:7: note: while scanning a quoted scalar",
    ]),
  ErrorCase(
    "unclosed single quote after multi-byte key", "雨夜: 'x\ny: 1\n",
    [
      "t.yaml:3:1: error: found unexpected end of stream",
      "    ",
      "    ^",
      "t.yaml:1:5: note: while scanning a quoted scalar",
    ]),
  ErrorCase(
    "tab indenting a mapping", "a:\n\tb: 1\n",
    [
      "t.yaml:2:1: error: tab characters are not allowed for indentation",
      "     b: 1",
      "    ^",
    ]),
  ErrorCase(
    "tab after spaces", "a:\n  b: 1\n  \tc: 2\n",
    [
      "t.yaml:3:3: error: tab characters are not allowed for indentation",
      "       c: 2",
      "      ^",
    ]),
  ErrorCase(
    "tab in a block scalar", "a: |\n  x\n\ty\n",
    [
      "t.yaml:3:1: error: tab characters are not allowed for indentation",
      "     y",
      "    ^",
    ]),
  ErrorCase(
    "tab continuing a plain scalar", "a: b\n\tc\n",
    [
      "t.yaml:2:1: error: tab characters are not allowed for indentation",
      "     c",
      "    ^",
    ]),
  ErrorCase(
    "tab after a sequence indicator", "- a\n-\tb\n",
    [
      "t.yaml:2:2: error: tab characters are not allowed for indentation",
      "    - b",
      "     ^",
    ]),
  ErrorCase(
    "duplicate key", "name: a\nvalues: {}\nname: b\n",
    [
      "t.yaml:3:1: error: duplicate key 'name'",
      "    name: b",
      "    ^",
      "t.yaml:1:1: note: first defined here",
    ]),
  ErrorCase(
    "duplicate key in a flow mapping", "signals: { hot: a, 雨: b, 雨: c }\n",
    [
      "t.yaml:1:26: error: duplicate key '雨'",
      "    signals: { hot: a, 雨: b, 雨: c }",
      "                              ^",
      "t.yaml:1:20: note: first defined here",
    ]),
  ErrorCase(
    "invalid UTF-8", bytes: bytes("a: b\nc: dXe\n", replacing: 9, with: 0xFF),
    [
      "t.yaml:2:5: error: invalid UTF-8 (byte 0xFF)",
      "    c: d\u{FFFD}e",
      "        ^",
    ]),
  ErrorCase(
    "truncated UTF-8 sequence", bytes: [0x61, 0x3A, 0x20, 0xE9, 0x0A],
    [
      "t.yaml:1:4: error: invalid UTF-8 (byte 0xE9)",
      "    a: \u{FFFD}",
      "       ^",
    ]),
  ErrorCase(
    "NUL byte", bytes: bytes("k: 雨X\n", replacing: 6, with: 0),
    [
      "t.yaml:1:5: error: NUL bytes are not allowed",
      "    k: 雨\u{FFFD}",
      "         ^",
    ]),
  ErrorCase(
    "control character", bytes: bytes("a: X\n", replacing: 3, with: 1),
    [
      "t.yaml:1:4: error: control character U+0001 is not allowed",
      "    a: \u{FFFD}",
      "       ^",
    ]),
  ErrorCase(
    "unknown alias", "a: 1\nb: *nope\n",
    [
      "t.yaml:2:4: error: unknown alias 'nope'",
      "    b: *nope",
      "       ^",
    ]),
  ErrorCase(
    "recursive alias", "a: &x [*x]\n",
    [
      "t.yaml:1:8: error: alias 'x' refers to a node that contains it",
      "    a: &x [*x]",
      "           ^",
    ]),
  ErrorCase(
    "unclosed flow sequence", "tags: [1, 2\n",
    [
      "t.yaml:2:1: error: did not find expected ',' or ']'",
      "    ",
      "    ^",
      "t.yaml:1:7: note: while parsing a flow sequence",
    ]),
  ErrorCase(
    "sequence then mapping", "- a\nb: 1\n",
    [
      "t.yaml:2:1: error: did not find expected '-' indicator",
      "    b: 1",
      "    ^",
      "t.yaml:1:1: note: while parsing a block collection",
    ]),
  ErrorCase(
    "extra bracket", "key: [1, 2]]\n",
    [
      "t.yaml:1:12: error: did not find expected key",
      "    key: [1, 2]]",
      "               ^",
      "t.yaml:1:1: note: while parsing a block mapping",
    ]),
  ErrorCase(
    "dedented sequence item", "a:\n  - 1\n - 2\n",
    [
      "t.yaml:3:2: error: did not find expected key",
      "     - 2",
      "     ^",
      "t.yaml:1:1: note: while parsing a block mapping",
    ]),
  ErrorCase(
    "reserved indicator after emoji", "[a, 😀: b, @\n",
    [
      "t.yaml:1:11: error: found character that cannot start any token",
      "    [a, 😀: b, @",
      "               ^",
      "t.yaml:1:11: note: while scanning for the next token",
    ]),
  ErrorCase(
    "CRLF line ends", "a: 1\r\nb: 2\r\n  c: 3\r\n",
    [
      "t.yaml:3:4: error: mapping values are not allowed in this context",
      "      c: 3",
      "       ^",
    ]),
  ErrorCase(
    "byte order mark", "\u{FEFF}a: b\nc: [\n",
    [
      "t.yaml:3:1: error: did not find expected node content",
      "    ",
      "    ^",
      "t.yaml:3:1: note: while parsing a flow node",
    ]),
  ErrorCase(
    "too deep nesting", String(repeating: "[", count: 300),
    [
      "t.yaml:1:257: error: nesting deeper than 256 levels",
      "    " + String(repeating: "[", count: 300),
      "    " + String(repeating: " ", count: 256) + "^",
    ]),
  ErrorCase(
    "alias bomb",
    """
    a: &a [x, x, x, x, x, x, x, x, x, x]
    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
    d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
    e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
    f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
    g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
    h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]
    i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]

    """,
    [
      // Expanding b, c and d costs 12,330 nodes; each *d then costs 11,111: the 8th crosses.
      "t.yaml:5:36: error: alias expansion exceeds the limit of 100000 nodes",
      "    e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
      "                                       ^",
    ]),
]

@Suite struct DiagnosticTests {
  @Test(arguments: errorCases)
  func errorsRenderWithLocationAndCaret(_ errorCase: ErrorCase) {
    let (_, diagnostics) = YAMLFile.parse(path: "t.yaml", bytes: errorCase.bytes)
    #expect(diagnostics.map(\.rendered) == [errorCase.expected.joined(separator: "\n")])
  }

  @Test func oversizedFileIsRejectedBeforeParsing() {
    let limits = YAMLLimits(maxFileSize: 8)
    let (file, diagnostics) = YAMLFile.parse(path: "big.yaml", text: "a: 123456789\n", limits: limits)
    #expect(diagnostics.map(\.rendered) == ["big.yaml:1:1: error: file is larger than the limit of 8 bytes"])
    #expect(file.documents.isEmpty)
    #expect(YAMLLimits().maxFileSize == 10_485_760)
  }

  @Test func nodeLimitStopsParsing() {
    let limits = YAMLLimits(maxNodes: 5)
    let (_, diagnostics) = YAMLFile.parse(path: "t.yaml", text: "[1, 2, 3, 4, 5, 6]\n", limits: limits)
    #expect(
      diagnostics.map(\.rendered) == [
        [
          "t.yaml:1:14: error: file has more than the limit of 5 nodes",
          "    [1, 2, 3, 4, 5, 6]",
          "                 ^",
        ].joined(separator: "\n")
      ])
  }

  @Test func duplicateKeysAreReportedAndBothEntriesKept() throws {
    let (file, diagnostics) = YAMLFile.parse(path: "t.yaml", text: "a: 1\nb: 2\na: 3\na: 4\n")
    #expect(
      diagnostics.map(\.headline) == ["t.yaml:3:1: error: duplicate key 'a'", "t.yaml:4:1: error: duplicate key 'a'"])
    #expect(diagnostics.map { $0.notes.first?.location?.line } == [1, 1])
    let root = try #require(file.documents.first?.root)
    #expect(root.mappingPairs?.count == 4)
    #expect(root["a"]?.scalarValue == "1")
  }

  @Test func documentsBeforeAnErrorAreKept() {
    let (file, diagnostics) = YAMLFile.parse(path: "t.yaml", text: "a: 1\n---\nb: [\n")
    #expect(file.documents.count == 1)
    #expect(diagnostics.count == 1)
  }

  @Test func fileDiagnosticHelperFillsTheSourceLine() {
    let (file, _) = YAMLFile.parse(path: "s.yaml", text: "flowrun: 2\n")
    let location = SourceLocation(line: 1, column: 10, offset: 9)
    let diagnostic = file.diagnostic("unsupported scenario format 2 (this flowrun reads 1)", at: location)
    #expect(
      diagnostic.rendered
        == [
          "s.yaml:1:10: error: unsupported scenario format 2 (this flowrun reads 1)",
          "    flowrun: 2",
          "             ^",
        ].joined(separator: "\n"))
  }
}

/// Display widths: one column per scalar, two for East Asian wide characters and emoji (the
/// ASCII and narrow fast path included).
@Test(arguments: [
  ("", 0), ("abc", 3), ("é-ü", 3), ("\u{0800}\u{10FF}", 2), ("雨夜", 4), ("a雨b", 4), ("a😀", 3),
  ("e\u{301}", 2),
])
func displayColumnsCountWideCharactersTwice(_ text: String, _ columns: Int) {
  #expect(text.displayColumns == columns)
  #expect(text.unicodeScalars.reduce(0) { $0 + $1.displayColumns } == columns)
}
