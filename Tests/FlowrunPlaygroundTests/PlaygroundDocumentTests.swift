import FlowrunDiagnostics
import FlowrunPlayground
import Foundation
import Testing

/// The playground's file handling and rendering, without a server.
@Suite struct PlaygroundDocumentTests {
  /// A fresh directory, removed afterwards.
  private func withDirectory(_ body: (URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "flowrun-playground-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await body(directory)
  }

  static let scenario = """
    flowrun: 1
    name: edited
    signals:
      a: { hot: "-x" }
    expect:
      a: "-x"

    """

  @Test func saveWritesTheWholeTextAndLeavesNoTemporaryFile() async throws {
    try await withDirectory { directory in
      let file = directory.appendingPathComponent("s.yaml")
      try Data(Self.scenario.utf8).write(to: file)
      try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
      let document = try PlaygroundDocument(path: file.path)
      #expect(await document.text == Self.scenario)
      let edited = Self.scenario.replacingOccurrences(of: "-x", with: "--x")
      let result = await document.save(edited, base: await document.base)
      #expect(result == .saved(base: PlaygroundDocument.version(of: Data(edited.utf8))))
      #expect(try String(contentsOf: file, encoding: .utf8) == edited)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["s.yaml"])
      let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
      #expect(mode == 0o640, "the file keeps its permissions")
    }
  }

  @Test func saveRefusesWhenTheFileChangedOnDisk() async throws {
    try await withDirectory { directory in
      let file = directory.appendingPathComponent("s.yaml")
      try Data(Self.scenario.utf8).write(to: file)
      let document = try PlaygroundDocument(path: file.path)
      let base = await document.base
      try Data("changed elsewhere\n".utf8).write(to: file)
      #expect(await document.save("mine\n", base: base) == .changedOnDisk)
      #expect(try String(contentsOf: file, encoding: .utf8) == "changed elsewhere\n")
      // A page that loaded an older version is refused too, after a save from another page.
      try Data(Self.scenario.utf8).write(to: file)
      let saved = await document.save(Self.scenario + "# one\n", base: base)
      #expect(saved == .saved(base: PlaygroundDocument.version(of: Data((Self.scenario + "# one\n").utf8))))
      #expect(await document.save(Self.scenario + "# two\n", base: base) == .changedOnDisk)
    }
  }

  @Test func aNewFileStartsFromTheStarterAndIsCreatedOnSave() async throws {
    try await withDirectory { directory in
      let file = directory.appendingPathComponent("new.yaml")
      let document = try PlaygroundDocument(path: file.path)
      #expect(await document.base == PlaygroundDocument.absent)
      #expect(await document.text.contains("flowrun: 1"))
      let result = await document.save(Self.scenario, base: PlaygroundDocument.absent)
      #expect(result == .saved(base: PlaygroundDocument.version(of: Data(Self.scenario.utf8))))
      #expect(FileManager.default.fileExists(atPath: file.path))
    }
  }

  @Test func withoutAFileNothingIsSaved() async throws {
    let document = try PlaygroundDocument(path: nil)
    guard case .failed(let reason) = await document.save("x", base: PlaygroundDocument.absent) else {
      Issue.record("saved without a file")
      return
    }
    #expect(reason.contains("no file"))
  }

  @Test func renderGivesDiagramsDiffsAndDiagnosticsWithTheirLines() async throws {
    let passing = await PlaygroundRender.rendered(Self.scenario, path: "s.yaml")
    #expect(passing.status == "passed")
    #expect(passing.problems.isEmpty)
    #expect(passing.html.contains("<section class=\"scenario\"") && passing.html.contains("class=\"steps\""))
    let failing = await PlaygroundRender.rendered(
      Self.scenario.replacingOccurrences(of: "a: \"-x\"", with: "a: \"--x\""), path: "s.yaml")
    #expect(failing.status == "failed")
    #expect(failing.report.contains("expected --x") && failing.report.contains("actual   -x"))
    let broken = await PlaygroundRender.rendered(
      Self.scenario.replacingOccurrences(of: "hot: \"-x\"", with: "hot: \"-x(\""), path: "s.yaml")
    #expect(broken.status == "error")
    let problem = try #require(broken.problems.first)
    #expect(problem.line == 4 && problem.severity == "error")
    #expect(problem.text.hasPrefix("s.yaml:4:"))
  }

  /// A file of several documents: each section says its document, and a document that does
  /// not load is named, so the page keeps its last diagram as it does for one document.
  @Test func renderNamesTheDocumentOfEachSectionAndTheBrokenOnes() async throws {
    let two = Self.scenario + "---\n" + Self.scenario.replacingOccurrences(of: "name: ", with: "name: second ")
    let both = await PlaygroundRender.rendered(two, path: "s.yaml")
    #expect(both.sectionDocuments == [0, 1])
    #expect(both.brokenDocuments.isEmpty)
    let secondBroken = await PlaygroundRender.rendered(
      Self.scenario + "---\n" + Self.scenario.replacingOccurrences(of: "hot: \"-x\"", with: "hot: \"-x(\""),
      path: "s.yaml")
    #expect(secondBroken.sectionDocuments == [0])
    #expect(secondBroken.brokenDocuments == [1])
    let firstBroken = await PlaygroundRender.rendered(
      Self.scenario.replacingOccurrences(of: "hot: \"-x\"", with: "hot: \"-x(\"") + "---\n" + Self.scenario,
      path: "s.yaml")
    #expect(firstBroken.sectionDocuments == [1])
    #expect(firstBroken.brokenDocuments == [0])
  }
}
