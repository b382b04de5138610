import Testing
@testable import FlowrunYAML

@Test func parsesSimpleMapping() throws {
  let (file, diagnostics) = YAMLFile.parse(path: "a.yaml", text: "name: x\n")
  #expect(diagnostics.isEmpty)
  let root = try #require(file.documents.first?.root)
  #expect(root["name"]?.scalarValue == "x")
}
