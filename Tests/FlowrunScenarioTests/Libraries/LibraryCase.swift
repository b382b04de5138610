import FlowrunTestSupport
import Testing

/// One case of a library's words: a scenario body read under a library, which loads and whose
/// expectations hold, or whose problems name `error`. The libraries' vocabulary tests are tables
/// of them.
struct LibraryCase: CustomTestStringConvertible, Sendable {
  var name: String
  var body: String
  /// nil: the scenario loads and its expectations hold; otherwise a diagnostic contains it.
  var error: String?
  var testDescription: String { name }

  /// Runs the case as a file of `library` (`library: rac2` …) and records what does not hold.
  func check(under library: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let text = "flowrun: 1\nname: case\nlibrary: \(library)\n" + body + "\n"
    let problems = problemsRunning(text)
    if let error {
      #expect(problems?.contains(error) == true, "\(name): \(problems ?? "no problem")", sourceLocation: sourceLocation)
    } else {
      #expect(problems == nil, "\(name): \(problems ?? "")", sourceLocation: sourceLocation)
    }
  }
}
