import FlowrunDiagnostics
import Testing

@testable import FlowrunYAML

/// A scalar under key `k` (or the second item of a root sequence), an offset into its value,
/// and where that value scalar is in the file.
struct OffsetCase: Sendable, CustomTestStringConvertible {
  var yaml: String
  var value: String
  var offset: Int
  var line: Int
  var column: Int

  var testDescription: String { "\(yaml.debugDescription) @\(offset)" }
}

let offsetCases: [OffsetCase] = [
  OffsetCase(yaml: "hot: \"-a--(bc-\"\n", value: "-a--(bc-", offset: 4, line: 1, column: 11),
  OffsetCase(yaml: "k: -a--(bc-\n", value: "-a--(bc-", offset: 4, line: 1, column: 8),
  OffsetCase(yaml: "k: 'it''s (x'\n", value: "it's (x", offset: 3, line: 1, column: 9),
  OffsetCase(yaml: "k: 'it''s (x'\n", value: "it's (x", offset: 5, line: 1, column: 11),
  OffsetCase(yaml: "k: \"a\\n\\\"b\\u263Ac(d\"\n", value: "a\n\"b☺c(d", offset: 4, line: 1, column: 11),
  OffsetCase(yaml: "k: \"a\\n\\\"b\\u263Ac(d\"\n", value: "a\n\"b☺c(d", offset: 6, line: 1, column: 18),
  OffsetCase(yaml: "k: \"\\x41\\t(\"\n", value: "A\t(", offset: 2, line: 1, column: 11),
  OffsetCase(yaml: "k: \"😀\\U0001F600(\"\n", value: "😀😀(", offset: 2, line: 1, column: 16),
  OffsetCase(yaml: "雨: x\nk: \"雨夜(x\"\n", value: "雨夜(x", offset: 2, line: 2, column: 7),
  OffsetCase(yaml: "k: ab\n  cd(\n", value: "ab cd(", offset: 5, line: 2, column: 5),
  OffsetCase(yaml: "k: ab\n  cd(\n", value: "ab cd(", offset: 2, line: 1, column: 6),
  OffsetCase(yaml: "k: \"ab  \n\n  c(\"\n", value: "ab\nc(", offset: 4, line: 3, column: 4),
  OffsetCase(yaml: "k: \"ab\\\n  c(\"\n", value: "abc(", offset: 3, line: 2, column: 4),
  OffsetCase(yaml: "k: |\n  ab\n  c(d\n", value: "ab\nc(d\n", offset: 4, line: 3, column: 4),
  OffsetCase(yaml: "k: >\n  ab\n  c(d\n", value: "ab c(d\n", offset: 4, line: 3, column: 4),
  OffsetCase(yaml: "k: >\n  ab\n\n  c(d\n", value: "ab\nc(d\n", offset: 4, line: 4, column: 4),
  OffsetCase(yaml: "k: |2\n    ab(\n", value: "  ab(\n", offset: 4, line: 2, column: 7),
  OffsetCase(yaml: "k: !cold &m \"--a(\"\n", value: "--a(", offset: 3, line: 1, column: 17),
  OffsetCase(yaml: "k: \"ab\"\n", value: "ab", offset: 9, line: 1, column: 7),
  OffsetCase(yaml: "k: ab\n", value: "ab", offset: 0, line: 1, column: 4),
  OffsetCase(yaml: "[x, a(b]\n", value: "a(b", offset: 1, line: 1, column: 6),
  OffsetCase(yaml: "k: a(b\r\n", value: "a(b", offset: 2, line: 1, column: 6),
]

@Suite struct ScalarOffsetTests {
  @Test(arguments: offsetCases)
  func scalarOffsetsMapToFileLocations(_ testCase: OffsetCase) throws {
    let (file, diagnostics) = YAMLFile.parse(path: "t.yaml", text: testCase.yaml)
    #expect(diagnostics.isEmpty)
    let root = try #require(file.documents.first?.root)
    let node = try #require(root["k"] ?? root["hot"] ?? root.sequenceItems?[1])
    #expect(node.scalarValue == testCase.value)
    let location = file.location(ofScalarOffset: testCase.offset, in: node)
    #expect(location.line == testCase.line)
    #expect(location.column == testCase.column)
    #expect(file.location(ofByteOffset: location.offset) == location)
  }

  @Test func scalarOffsetPointsIntoTheSpecExample() throws {
    let yaml = "signals:\n  accountText: { hot: \"-a--(bc-\" }\n"
    let (file, _) = YAMLFile.parse(path: "login.yaml", text: yaml)
    let node = try #require(file.documents.first?.root?["signals"]?["accountText"]?["hot"])
    let location = file.location(ofScalarOffset: 4, in: node)
    let diagnostic = file.diagnostic("unclosed group in marble", at: location)
    #expect(
      diagnostic.rendered
        == [
          "login.yaml:2:28: error: unclosed group in marble",
          "      accountText: { hot: \"-a--(bc-\" }",
          "                               ^",
        ].joined(separator: "\n"))
  }
}
