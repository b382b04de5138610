import FlowrunTestSupport
import Foundation
import Testing

/// `flowrun explore` end to end, and the outputs docs/explore.md shows.
@Suite struct ExploreCLITests {
  /// The planted bugs are found (exit 1); the correct flow is not (exit 0); the scenarios of
  /// the README's main job still pass `flowrun run`.
  @Test func exitCodes() throws {
    let found = try CLI.run(["explore", "scenarios/explore/login-button.yaml", "--runs", "100"])
    #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
    #expect(found.stdout.contains("counterexample: run "))
    let none = try CLI.run(["explore", "scenarios/explore/login-command.yaml", "--runs", "200"])
    #expect(none.status == 0, "\(none.stdout)\(none.stderr)")
    #expect(none.stdout.hasSuffix("1 scenario, 1 passed, 0 failed (200 runs, 0 counterexamples)\n"))
    let run = try CLI.run(["scenarios/explore"])
    #expect(run.status == 0, "\(run.stdout)")
  }

  @Test(arguments: [
    ["explore"], ["explore", "scenarios/explore", "--runs", "-1"], ["explore", "nowhere.yaml"],
    ["explore", "scenarios/explore", "--reporter", "tap"],
  ])
  func usageErrors(arguments: [String]) throws {
    let output = try CLI.run(arguments)
    #expect(output.status == 64, "\(output.stdout)\(output.stderr)")
  }

  /// The counterexamples committed under docs/explore fail `flowrun run`, each on its
  /// invariant, located, with the lanes of the names it reads.
  @Test func committedCounterexamplesFailFlowrunRun() throws {
    let output = try CLI.run(["docs/explore"])
    #expect(output.status == 1)
    #expect(output.stdout.contains("docs/explore/login-button.yaml:"))
    #expect(
      output.stdout.contains(
        "error: invariant 'the button is enabled only when both fields have text' failed at frame 0"))
    #expect(output.stdout.contains("error: invariant 'the HUD shows while a request runs' failed at frame 1"))
    #expect(output.stdout.contains("2 scenarios, 0 passed, 2 failed (6 expectations, 0 failed)"))
  }

  /// The outputs and files that docs/explore.md shows are those of the current build.
  /// `FLOWRUN_RECORD=1 swift test --filter ExploreDocs` rewrites them.
  @Test func exploreDocsAreCurrent() throws {
    let page = CLI.packageRoot.appendingPathComponent("docs/explore.md")
    var text = try String(contentsOf: page, encoding: .utf8)
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("explore-docs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    var files: [String: String] = [:]
    for arguments in Self.markers(in: text, kind: "explore-output") {
      var words = arguments.split(separator: " ").map(String.init)
      var documented: String?
      if let flag = words.firstIndex(of: "--output"), flag + 1 < words.count {
        documented = words[flag + 1]
        words[flag + 1] = scratch.appendingPathComponent("out.yaml").path
      }
      let output = try CLI.run(["explore"] + words)
      var shown = output.stdout
      if let documented {
        shown = shown.replacingOccurrences(of: words[words.firstIndex(of: "--output")! + 1], with: documented)
        files[documented] = try String(contentsOf: scratch.appendingPathComponent("out.yaml"), encoding: .utf8)
      }
      text = Self.replaceBlock(
        after: "<!-- explore-output: \(arguments) -->", in: text, language: "text",
        with: "$ flowrun explore \(arguments)\n" + shown)
    }
    for path in Self.markers(in: text, kind: "explore-file") {
      let contents = try #require(files[path], "no explore-output marker writes \(path)")
      text = Self.replaceBlock(after: "<!-- explore-file: \(path) -->", in: text, language: "yaml", with: contents)
      assertGolden(contents, file: CLI.packageRoot.appendingPathComponent(path))
    }
    #expect(!files.isEmpty)
    assertGolden(text, file: page)
  }

  /// The arguments of each `<!-- kind: arguments -->` marker, in page order.
  private static func markers(in text: String, kind: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("<!-- \(kind): "), line.hasSuffix(" -->") else { return nil }
      return String(line.dropFirst("<!-- \(kind): ".count).dropLast(" -->".count))
    }
  }

  /// `text` with the fenced block right after `marker` replaced (or inserted) with `body`.
  private static func replaceBlock(after marker: String, in text: String, language: String, with body: String) -> String
  {
    guard let markerRange = text.range(of: marker + "\n") else { return text }
    let fenced = "```\(language)\n" + body + (body.hasSuffix("\n") ? "" : "\n") + "```\n"
    let rest = text[markerRange.upperBound...]
    if rest.hasPrefix("```"), let close = rest.range(of: "\n```\n") {
      return String(text[..<markerRange.upperBound]) + fenced + String(rest[close.upperBound...])
    }
    return String(text[..<markerRange.upperBound]) + fenced + String(rest)
  }
}
