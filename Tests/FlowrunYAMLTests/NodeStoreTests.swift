import FlowrunDiagnostics
import Testing

@testable import FlowrunYAML

/// The flat node store: key look-ups in large (hash-indexed) and small mappings, duplicate
/// keys on both sides of the index threshold, and scalar values kept in the file or copied.

private func parse(_ text: String) -> (YAMLFile, [Diagnostic]) {
  YAMLFile.parse(path: "t.yaml", text: text)
}

@Suite struct NodeStoreTests {
  @Test(arguments: [3, TreeBuilder.indexedFrom - 1, TreeBuilder.indexedFrom, 1_000])
  func keyLookupFindsEveryKey(count: Int) throws {
    let text = (0..<count).map { "k\($0): \($0)" }.joined(separator: "\n")
    let (file, diagnostics) = parse(text)
    #expect(diagnostics.isEmpty)
    let root = try #require(file.documents.first?.root)
    #expect(root.store.keyIndexes[root.index] != nil || count < TreeBuilder.indexedFrom)
    for i in [0, count / 2, count - 1] {
      #expect(root["k\(i)"]?.resolvedScalar == .int(i))
    }
    #expect(root["k\(count)"] == nil)
    #expect(root["k"] == nil)
  }

  @Test(arguments: [2, TreeBuilder.indexedFrom - 2, TreeBuilder.indexedFrom + 5, 500])
  func duplicateKeysAreReportedAndTheFirstWins(position: Int) throws {
    var lines = (0..<position).map { "k\($0): \($0)" }
    lines.append("k1: again")
    let (file, diagnostics) = parse(lines.joined(separator: "\n"))
    #expect(diagnostics.map(\.headline) == ["t.yaml:\(position + 1):1: error: duplicate key 'k1'"])
    #expect(diagnostics.first?.notes.first?.location?.line == 2)
    let root = try #require(file.documents.first?.root)
    #expect(root["k1"]?.scalarValue == "1")
    #expect(root.mappingPairs?.count == position + 1)
  }

  @Test func nonScalarKeysAreNeitherIndexedNorMatched() throws {
    let keys = (0..<40).map { "k\($0): \($0)" }.joined(separator: "\n")
    let (file, diagnostics) = parse("? [a]\n: list\n" + keys + "\n? [a]\n: again")
    #expect(diagnostics.isEmpty)
    let root = try #require(file.documents.first?.root)
    #expect(root["k39"]?.resolvedScalar == .int(39))
    #expect(root["[a]"] == nil)
    #expect(root.mappingPairs?.count == 42)
  }

  @Test(arguments: [
    ("plain text", "plain text", false),
    ("'quoted'", "quoted", false),
    ("\"double\"", "double", false),
    ("'it''s'", "it's", true),
    ("\"tab\\there\"", "tab\there", true),
    ("!!str tagged", "tagged", true),
    ("|\n  block\n", "block\n", true),
    ("\"雨夜😀\"", "雨夜😀", false),
  ])
  func scalarValuesAreKeptInTheFileUnlessTheyDiffer(source: String, value: String, pooled: Bool) throws {
    let (file, diagnostics) = parse("key: " + source)
    #expect(diagnostics.isEmpty)
    let node = try #require(file.documents.first?.root?["key"])
    #expect(node.scalarValue == value)
    #expect(node.isScalar(value))
    #expect(!node.isScalar(value + "x"))
    #expect(node.record.isPooled == pooled)
  }

  @Test func aliasesShareTheAnchoredNode() throws {
    let (file, diagnostics) = parse("a: &x { b: 1 }\nc: *x")
    #expect(diagnostics.isEmpty)
    let root = try #require(file.documents.first?.root)
    #expect(root["a"] == root["c"])
    #expect(root["c"]?.start.line == 1)
    #expect(root["c"]?["b"]?.resolvedScalar == .int(1))
  }
}
