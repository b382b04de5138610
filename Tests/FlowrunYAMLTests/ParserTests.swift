import FlowrunDiagnostics
import Testing

@testable import FlowrunYAML

private func parseClean(_ text: String) throws -> YAMLFile {
  let (file, diagnostics) = YAMLFile.parse(path: "t.yaml", text: text)
  #expect(diagnostics.map(\.rendered) == [])
  return file
}

private func loc(_ line: Int, _ column: Int, _ offset: Int) -> FlowrunDiagnostics.SourceLocation {
  FlowrunDiagnostics.SourceLocation(line: line, column: column, offset: offset)
}

@Suite struct ParserTests {
  @Test func nodeLocationsCountScalarsAndBytes() throws {
    let file = try parseClean("name: 雨夜😀 x\nk: [a, 'b']\n")
    let root = try #require(file.documents.first?.root)
    #expect(root.start == loc(1, 1, 0))
    let pairs = try #require(root.mappingPairs)
    #expect(pairs.map { $0.key.scalarValue } == ["name", "k"])
    #expect(pairs[0].key.start == loc(1, 1, 0))
    #expect(pairs[0].key.end == loc(1, 5, 4))
    #expect(pairs[0].value.scalarValue == "雨夜😀 x")
    #expect(pairs[0].value.start == loc(1, 7, 6))
    #expect(pairs[0].value.end == loc(1, 12, 18))
    #expect(pairs[1].key.start == loc(2, 1, 19))
    let list = pairs[1].value
    #expect(list.start == loc(2, 4, 22))
    #expect(list.end == loc(2, 12, 30))
    let items = try #require(list.sequenceItems)
    #expect(items.map(\.scalarValue) == ["a", "b"])
    #expect(items[1].start == loc(2, 8, 26))
    #expect(items[1].end == loc(2, 11, 29))
    #expect(items[1].scalarStyle == .singleQuoted)
  }

  @Test func locationsAfterManyMultiByteLinesStayExact() throws {
    var text = ""
    for i in 0..<200 { text += "k\(i): \"雨夜😀\(i)\"\n" }
    let file = try parseClean(text)
    let pairs = try #require(file.documents.first?.root?.mappingPairs)
    for (i, pair) in pairs.enumerated() {
      let prefix = "k\(i): \""
      #expect(pair.value.start.line == i + 1)
      #expect(pair.value.start.column == prefix.count)
      #expect(file.location(ofByteOffset: pair.value.start.offset) == pair.value.start)
      #expect(file.sourceLine(i + 1) == "k\(i): \"雨夜😀\(i)\"")
    }
  }

  @Test func multipleDocuments() throws {
    let file = try parseClean("a: 1\n---\n- x\n--- !hot \"-a-\"\n---\n")
    let documents = file.documents
    #expect(documents.count == 4)
    #expect(documents[0].root?["a"]?.resolvedScalar == .int(1))
    #expect(documents[1].start == loc(2, 1, 5))
    #expect(documents[1].root?.sequenceItems?.map(\.scalarValue) == ["x"])
    #expect(documents[2].root?.tag == "!hot")
    #expect(documents[2].root?.scalarValue == "-a-")
    #expect(documents[3].root == nil)
  }

  @Test func emptyAndCommentOnlyFilesHaveNoDocuments() throws {
    #expect(try parseClean("").documents.isEmpty)
    #expect(try parseClean("# nothing\n").documents.isEmpty)
    let explicit = try parseClean("---\n...\n")
    #expect(explicit.documents.count == 1)
    #expect(explicit.documents[0].root == nil)
  }

  @Test func tagsAreKeptAsWritten() throws {
    let file = try parseClean(
      """
      cold: !cold "--a|"
      hot: !hot { a: 1 }
      str: !!str 12
      seq: !!seq [1]
      verbatim: !<tag:example.com,2000:x> y
      plain: z

      """)
    let root = try #require(file.documents.first?.root)
    #expect(root["cold"]?.tag == "!cold")
    #expect(root["hot"]?.tag == "!hot")
    #expect(root["hot"]?.isMapping == true)
    #expect(root["str"]?.tag == "!!str")
    #expect(root["str"]?.resolvedScalar == .string("12"))
    #expect(root["seq"]?.tag == "!!seq")
    #expect(root["verbatim"]?.tag == "tag:example.com,2000:x")
    #expect(root["plain"]?.tag == nil)
    // A node with a tag starts at its tag.
    #expect(root["cold"]?.start == loc(1, 7, 6))
  }

  @Test func scalarStylesAndValues() throws {
    let file = try parseClean(
      """
      plain: a b
      single: 'it''s'
      double: "x\\ty\\u263A"
      literal: |
        line 1
        line 2
      folded: >-
        one
        two

      """)
    let root = try #require(file.documents.first?.root)
    #expect(root["plain"]?.scalarValue == "a b")
    #expect(root["plain"]?.scalarStyle == .plain)
    #expect(root["single"]?.scalarValue == "it's")
    #expect(root["single"]?.scalarStyle == .singleQuoted)
    #expect(root["double"]?.scalarValue == "x\ty☺")
    #expect(root["double"]?.scalarStyle == .doubleQuoted)
    #expect(root["literal"]?.scalarValue == "line 1\nline 2\n")
    #expect(root["literal"]?.scalarStyle == .literal)
    #expect(root["folded"]?.scalarValue == "one two")
    #expect(root["folded"]?.scalarStyle == .folded)
    #expect(root["literal"]?.resolvedScalar == .string("line 1\nline 2\n"))
    #expect(root["missing"] == nil)
    #expect(root.kindName == "mapping")
  }

  @Test func aliasesCopyTheAnchoredNode() throws {
    let file = try parseClean("a: &x {k: v, n: [1, 2]}\nb: *x\nc: &s 5\nd: *s\n")
    let root = try #require(file.documents.first?.root)
    let a = try #require(root["a"])
    #expect(root["b"] == a)
    #expect(root["b"]?["n"]?.sequenceItems?.count == 2)
    #expect(root["d"]?.resolvedScalar == .int(5))
  }

  @Test func anchorsAreScopedToTheirDocument() {
    let (file, diagnostics) = YAMLFile.parse(path: "t.yaml", text: "a: &x 1\n---\nb: *x\n")
    #expect(file.documents.count == 1)
    #expect(diagnostics.map(\.headline) == ["t.yaml:3:4: error: unknown alias 'x'"])
  }

  @Test func deepFlowNestingEndsWithADiagnostic() {
    for depth in [10_000, 100_000] {
      let text = String(repeating: "[", count: depth)
      let (file, diagnostics) = YAMLFile.parse(path: "deep.yaml", text: text)
      #expect(file.documents.isEmpty)
      #expect(diagnostics.map(\.headline) == ["deep.yaml:1:257: error: nesting deeper than 256 levels"])
    }
  }

  @Test func deepBlockNestingEndsWithADiagnostic() {
    var text = ""
    for level in 0..<300 { text += String(repeating: " ", count: level) + "k:\n" }
    let (_, diagnostics) = YAMLFile.parse(path: "deep.yaml", text: text)
    #expect(diagnostics.map(\.headline) == ["deep.yaml:257:257: error: nesting deeper than 256 levels"])
  }

  @Test func aliasesCannotNestDeeperThanTheLimit() {
    let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    let text =
      "a: &a \(deep)\nb: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[*a]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n"
    let (_, diagnostics) = YAMLFile.parse(path: "t.yaml", text: text)
    #expect(diagnostics.map(\.headline) == ["t.yaml:2:61: error: nesting deeper than 256 levels"])
    let (_, fine) = YAMLFile.parse(path: "t.yaml", text: "a: &a \(deep)\nb: [[[[[*a]]]]]\n")
    #expect(fine.isEmpty)
  }

  @Test func nestingAtTheLimitIsAccepted() throws {
    let text = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
    let file = try parseClean(text)
    var node = try #require(file.documents.first?.root)
    var depth = 1
    while let inner = node.sequenceItems?.first {
      node = inner
      depth += 1
    }
    #expect(depth == 256)
  }

  @Test func billionLaughsStopsAtTheAliasLimit() {
    var text = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for level in 1...30 {
      let refs = Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ")
      text += "l\(level): &l\(level) [\(refs)]\n"
    }
    let (_, diagnostics) = YAMLFile.parse(path: "bomb.yaml", text: text)
    #expect(diagnostics.map(\.message) == ["alias expansion exceeds the limit of 100000 nodes"])
    // Stopped at line 5, where the nodes copied by aliases first pass 100,000: the work is
    // bounded by the limit, not by the 10^31 nodes the file describes.
    #expect(diagnostics.first?.location?.line == 5)
  }

  @Test func sourceLinesHandleAllLineBreaks() throws {
    let file = try parseClean("a: 1\r\nb: 2\rc: 3\nd: 4")
    #expect(file.lineCount == 4)
    #expect((1...4).map { file.sourceLine($0) } == ["a: 1", "b: 2", "c: 3", "d: 4"])
    #expect(file.sourceLine(0) == nil)
    #expect(file.sourceLine(5) == nil)
    #expect(file.documents.first?.root?["d"]?.start == loc(4, 4, 19))
  }

  @Test func byteOrderMarkIsNotPartOfTheFirstLine() throws {
    let file = try parseClean("\u{FEFF}a: 雨\nb: 2\n")
    let root = try #require(file.documents.first?.root)
    #expect(root["a"]?.start == loc(1, 4, 6))
    #expect(root["b"]?.start == loc(2, 4, 13))
    #expect(file.sourceLine(1) == "a: 雨")
    #expect(file.text == "a: 雨\nb: 2\n")
  }
}
