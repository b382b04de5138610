import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunReport
import FlowrunScenario
import FlowrunYAML
import Foundation
import Testing

/// How a failed expectation is drawn: folding of long lanes, wide characters, legends of inner
/// signals, tokens that no legend defines.
@Suite struct ExpectationDiffTests {
  /// Loads and runs a one-scenario file.
  static func run(_ yaml: String, path: String = "diff.yaml") throws -> ScenarioResult {
    let file = ScenarioLoader.load(path: path, bytes: Array(yaml.utf8))
    let scenario = try #require(file.scenarios.first, "\(file.diagnostics.map(\.rendered))")
    return ScenarioRunner.run(scenario)
  }

  /// A marble of 200,000 frames with an event every 10 frames; the expectation differs at frame
  /// 100,000.
  static let longFailure: String = {
    let beat = "a" + String(repeating: "-", count: 9)
    let actual = String(repeating: beat, count: 20_000)
    let expected = String(repeating: beat, count: 10_000) + "b---------" + String(repeating: beat, count: 9_999)
    return """
      flowrun: 1
      name: Long
      signals:
        s: { hot: "\(actual)" }
      expect:
        s: "\(expected)"
      """
  }()

  @Test func aLongFailureIsFoldedAroundItsFirstDifference() throws {
    let result = try Self.run(Self.longFailure)
    let text = HumanReporter(color: false).report(result)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.allSatisfy { $0.count <= 200 }, "\(lines.map(\.count))")
    let expected = try #require(lines.first { $0.hasPrefix("    expected ") })
    let actual = try #require(lines.first { $0.hasPrefix("    actual ") })
    #expect(expected.hasPrefix("    expected …") && expected.hasSuffix("…"))
    #expect(actual.hasPrefix("    actual   …") && actual.hasSuffix("…"))
    #expect(expected.contains("a---------b---------a"))
    // The caret stands under the `b`, which the ruler labels.
    let caret = try #require(lines.first { $0.contains("^ frame 100000: expected b, got a") })
    let column = try #require(caret.firstIndex(of: "^")).utf16Offset(in: caret)
    #expect(Array(expected)[column] == "b")
    #expect(lines.contains { $0.contains("100000") && $0.hasPrefix("             ") })
    #expect(
      lines.contains {
        $0.hasPrefix("    folded: frames 0-") && $0.contains(" and ")
          && $0.hasSuffix("-199990 are not shown (-v shows the whole marbles)")
      })
  }

  @Test func aLaneWithNothingShowsItsFrames() throws {
    let result = try Self.run(
      """
      flowrun: 1
      name: Silent
      signals:
        s: { hot: "------" }
      expect:
        s: "-a-|"
      """)
    let lines = HumanReporter(color: false).report(result).split(separator: "\n")
    #expect(lines.contains("    expected -a-|"))
    #expect(lines.contains("    actual   ----"))
  }

  /// An expected marble with nothing in it (`out: ""`) says so instead of an empty lane.
  @Test func anEmptyExpectedMarbleIsExplained() throws {
    let result = try Self.run(
      """
      flowrun: 1
      name: Empty
      signals:
        s: { cold: "-a|" }
      expect:
        s: ""
      """)
    let lines = HumanReporter(color: false).report(result).split(separator: "\n")
    #expect(lines.contains("    expected (an empty marble: no event at all, not even a completion)"))
    #expect(lines.contains("    actual   -a|"))
  }

  @Test func verboseShowsALongFailureWhole() throws {
    let result = try Self.run(Self.longFailure)
    let text = HumanReporter(color: false, verbosity: .verbose).report(result)
    let lines = text.split(separator: "\n")
    // (Lines are compared whole: a substring search in a 200,000-character line is slow.)
    let beat = "a" + String(repeating: "-", count: 9)
    let expected =
      "    expected " + String(repeating: beat, count: 10_000) + "b" + String(repeating: "-", count: 9)
      + String(repeating: beat, count: 9_998) + "a"
    #expect(lines.contains { $0.count == expected.count && $0 == expected })
    #expect(!lines.contains { $0.hasPrefix("    folded:") })
  }

  /// JUnit's failure text is the folded diff; JSON keeps both marbles whole.
  @Test func machineReportsFoldAsTheHumanOutputDoes() throws {
    let result = try Self.run(Self.longFailure)
    let file = ScenarioLoader.load(path: "diff.yaml", bytes: Array(Self.longFailure.utf8))
    var summary = RunSummary()
    summary.add(result)
    let report = RunReport(files: [.init(file: file, results: [result])], summary: summary, durationSeconds: 0)
    let junit = JUnitReporter().render(report).split(separator: "\n")
    #expect(junit.allSatisfy { $0.count <= 300 })
    #expect(junit.contains { $0.hasPrefix("  folded: frames 0-") })
    let beat = "a" + String(repeating: "-", count: 9)
    let marble = String(repeating: beat, count: 19_999) + "a"
    let whole = "  actual   " + marble
    #expect(JUnitReporter(verbosity: .verbose).render(report).split(separator: "\n").contains { $0 == whole })
    let json = JSONReporter().render(report).split(separator: "\n")
    let actual = "          \"actual\": \"" + marble + "\","
    #expect(json.contains { $0 == actual })
  }

  /// Short lanes are drawn whole; a wide character takes two columns, so the ruler and the
  /// caret after it stay in line.
  @Test(arguments: [
    (
      "-a-b-c", "-a-b-d",
      [
        "         0    5",
        "expected -a-b-d",
        "actual   -a-b-c",
        "              ^ frame 5: expected d, got c",
      ]
    ),
    (
      "-'雨夜'-'雨'-x-y", "-'雨夜'-'雨'-x-z",
      [
        "         0     5",
        "expected -a-雨-x-z",
        "actual   -a-雨-x-y",
        "                 ^ frame 7: expected z, got y",
        "legend: a = \"雨夜\"",
      ]
    ),
  ])
  func aShortFailureIsDrawnWhole(_ hot: String, _ expected: String, _ lines: [String]) throws {
    let result = try Self.run(
      """
      flowrun: 1
      name: Short
      signals:
        s: { hot: "\(hot)" }
      expect:
        s: "\(expected)"
      """)
    #expect(ExpectationDiff(try #require(result.expectations.first), grammar: .flowrun).lines == lines)
  }

  /// Two inner signals whose marbles read alike print with the values of their tokens.
  @Test func innerSignalsPrintWithTheirOwnLegend() throws {
    let result = try Self.run(
      """
      flowrun: 1
      name: Inner
      values:
        a: [1, 2, 3]
        d: [4, 5, 6]
        b: !cold "-(a|)"
        c: !cold "-(d|)"
      commands:
        fetch:
          work: { cold: "-(r|)", values: { r: [9, 9] } }
      signals:
        s: { hot: "-b-c" }
      timeline:
        - { at: 2, execute: fetch }
      expect:
        s: "-c-b"
        fetch.executions: "--b"
      """)
    let legends = result.expectations.map { ExpectationDiff($0, grammar: .flowrun).lines.last ?? "" }
    #expect(
      legends == [
        "legend: b = !cold \"-(a|)\" where a = [1, 2, 3], c = !cold \"-(d|)\" where d = [4, 5, 6]",
        "legend: b = !cold \"-(a|)\" where a = [1, 2, 3], e = !cold \"-(f|)\" where f = [9, 9]",
      ])
    let json = ExpectationDiff(try #require(result.expectations.first), grammar: .flowrun).legend
    #expect(json.map(\.value) == ["!cold \"-(a|)\" where a = [1, 2, 3]", "!cold \"-(d|)\" where d = [4, 5, 6]"])
  }

  /// A token that no legend defines stands for itself; the sentence says so when a value of
  /// another kind came.
  @Test(arguments: [
    ("-T", "t: true", "frame 1: expected T, got a ('T' is not in the legend, so it stands for the string \"T\")"),
    ("-1", "t: \"1\"", "frame 1: expected 1, got a ('1' is not in the legend, so it stands for the integer 1)"),
    ("-x", "t: \"y\"", "frame 1: expected x, got y"),
    ("-1", "t: 2", "frame 1: expected 1, got 2"),
  ])
  func aTokenOutsideTheLegendIsNamed(_ marble: String, _ value: String, _ sentence: String) throws {
    let result = try Self.run(
      """
      flowrun: 1
      name: Tokens
      signals:
        s: { hot: "-t", values: { \(value) } }
      expect:
        s: "\(marble)"
      """)
    let diff = ExpectationDiff(try #require(result.expectations.first), grammar: .flowrun)
    #expect(diff.differenceSentence == sentence)
  }
}

/// An expectation answered by bound code (docs/testing-real-code.md) is drawn with the model's
/// lane between the expected and the code's, in the human report and the JSON.
@Suite struct ModelLaneTests {
  static let yaml = """
    flowrun: 1
    name: bound
    values: { a: 1, b: 2 }
    signals:
      taps: { hot: "-a-b" }
    expect:
      taps: "-a-b"
    """

  static func result() throws -> ScenarioResult {
    let file = ScenarioLoader.load(path: "bound.yaml", bytes: Array(yaml.utf8))
    let scenario = try #require(file.scenarios.first)
    let binding = CodeBinding { run in
      let code = ColdSource(
        events: [Recorded(frame: 1, event: .next(.int(1))), Recorded(frame: 2, event: .next(.int(2)))],
        owner: NodeLabel("code"), runtime: run.runtime)
      run.bind("taps", to: code)
    }
    return ScenarioRunner.run(scenario, boundTo: binding)
  }

  @Test func theHumanDiffShowsExpectedModelAndCode() throws {
    let lines = HumanReporter(color: false).report(try Self.result()).split(separator: "\n").map(String.init)
    #expect(
      Array(lines.suffix(6)) == [
        "    expected -a-b",
        "    model    -a-b",
        "    code     -ab",
        "               ^ frame 2: expected nothing (b at frame 3), got b",
        "               ^ frame 2: the code parts from the model: model nothing (b at frame 3), code b",
        "    legend: a = 1, b = 2",
      ])
  }

  @Test func theJSONCarriesTheModelMarble() throws {
    let result = try Self.result()
    let file = ScenarioLoader.load(path: "bound.yaml", bytes: Array(Self.yaml.utf8))
    var summary = RunSummary()
    summary.add(result)
    let report = RunReport(files: [.init(file: file, results: [result])], summary: summary, durationSeconds: 0)
    let json = JSONReporter().render(report)
    #expect(json.contains("\"actual\": \"-ab\",\n"), "\(json)")
    #expect(json.contains("\"model\": \"-a-b\",\n"), "\(json)")
  }
}
