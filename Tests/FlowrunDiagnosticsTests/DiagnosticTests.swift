import FlowrunDiagnostics
import Testing

/// The one rendering of every diagnostic: `path:line:column: severity: message`, the source line
/// with a caret under the column, then the notes.
@Suite struct DiagnosticRenderingTests {
  @Test func aProblemWithTheWholeFileIsPlacedAtItsStart() {
    let diagnostic = Diagnostic(path: "a.yaml", location: nil, message: "file is empty")
    #expect(diagnostic.rendered == "a.yaml:1:1: error: file is empty")
    #expect(diagnostic.description == diagnostic.rendered)
  }

  @Test func theCaretCountsWideCharactersTwice() {
    let diagnostic = Diagnostic(
      severity: .warning, path: "a.yaml", location: SourceLocation(line: 3, column: 4, offset: 20),
      message: "odd", sourceLine: "名前: x")
    #expect(diagnostic.rendered.split(separator: "\n") == ["a.yaml:3:4: warning: odd", "    名前: x", "         ^"])
  }

  @Test func controlCharactersAreShownAndTheCaretMayPassTheLineEnd() {
    let diagnostic = Diagnostic(
      path: "a.yaml", location: SourceLocation(line: 1, column: 5, offset: 4), message: "m",
      sourceLine: "\ta\u{1}")
    #expect(diagnostic.rendered.split(separator: "\n") == ["a.yaml:1:5: error: m", "     a\u{FFFD}", "        ^"])
  }

  @Test func notesFollowWithOrWithoutAPlace() {
    let diagnostic = Diagnostic(
      path: "a.yaml", location: SourceLocation(line: 2, column: 1, offset: 9), message: "duplicate key 'a'",
      notes: [
        .init(location: SourceLocation(line: 1, column: 1, offset: 0), message: "first defined here"),
        .init(location: nil, message: "keys must be unique"),
      ])
    #expect(
      diagnostic.rendered.split(separator: "\n") == [
        "a.yaml:2:1: error: duplicate key 'a'", "a.yaml:1:1: note: first defined here",
        "a.yaml: note: keys must be unique",
      ])
  }

  @Test func locationsOrderByLineThenColumn() {
    let early = SourceLocation(line: 1, column: 9, offset: 8)
    let late = SourceLocation(line: 2, column: 1, offset: 10)
    #expect(early < late)
    #expect(late.description == "2:1")
  }
}
