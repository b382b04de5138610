import FlowrunApp
import FlowrunDiagnostics
import FlowrunReport
import FlowrunScenario
import FlowrunTestSupport
import FlowrunYAML
import Foundation
import Testing

/// Every step drawn (`--steps`), subscriptions drawn from ▲ to ✕, and the layout of long
/// titles, wide values and very long runs.
@Suite struct StepDiagramTests {
  static let search = "scenarios/search/search-as-you-type.yaml"
  static let cancel = "scenarios/network/cancel.yaml"
  static let steps = DiagramModel.Options(steps: true)

  // MARK: - Golden files

  @Test func stepLanesInText() throws {
    let models = try tracedRuns(Self.search).map { DiagramModel($0, options: Self.steps) }
    expectGolden(
      models.map { TextDiagram($0).render() }.joined(separator: "\n"), "search-as-you-type.steps.diagram.txt")
  }

  @Test func stepLanesInSVG() throws {
    let models = try tracedRuns(Self.search).map { DiagramModel($0, options: Self.steps) }
    expectGolden(SVGDiagram(models).render(), "search-as-you-type.steps.diagram.svg")
  }

  @Test func stepTrace() throws {
    let text = try tracedRuns(Self.search).map { TraceRenderer($0, steps: true).render() }.joined(separator: "\n")
    expectGolden(text, "search-as-you-type.steps.trace.txt")
  }

  @Test func subscriptionMarkersInText() throws {
    let models = try tracedRuns(Self.cancel).map(DiagramModel.init)
    expectGolden(models.map { TextDiagram($0).render() }.joined(separator: "\n"), "cancel.diagram.txt")
  }

  @Test func subscriptionMarkersInSVG() throws {
    let models = try tracedRuns(Self.cancel).map(DiagramModel.init)
    expectGolden(SVGDiagram(models).render(), "cancel.diagram.svg")
  }

  // MARK: - What the lanes say

  /// distinctUntilChanged's drop is on its lane (faint, not an event) and in the trace, in words.
  @Test func droppedValuesAreNamedWithTheirReason() throws {
    let run = try #require(try tracedRuns(Self.search).first)
    let model = DiagramModel(run, options: Self.steps)
    let distinct = try #require(model.lanes.first { $0.name == "query › distinctUntilChanged" })
    let dropped = distinct.marks.filter { $0.kind == .dropped }
    #expect(dropped.map(\.frame) == [12])
    #expect(dropped.first?.label == "dropped \"swift\" (same as before)")
    let text = TextDiagram(model).render()
    let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("  query › distinctUntilChanged") })
    #expect(row.hasSuffix("------c-----------e---f-----"), "a dropped value is not an event of the lane: \(row)")
    let debounce = try #require(model.lanes.first { $0.name == "query › debounce 300ms" })
    #expect(debounce.marks.filter { $0.kind == .dropped }.map(\.frame) == [2, 3, 9])
    let lines = TraceRenderer(run, steps: true).lines
    let line = try #require(lines.first { $0.what.hasPrefix("dropped \"swift\"") })
    #expect(line.name == "query › distinctUntilChanged" && line.frame == 12)
    #expect(line.what == "dropped \"swift\" (same as before)")
    #expect(
      lines.contains {
        $0.name == "query › debounce 300ms" && $0.what == "dropped \"s\" (a newer value came within 300ms)"
      })
    // Without steps, the trace is as it was: no step lines, no drops.
    #expect(!TraceRenderer(run).lines.contains { $0.what.hasPrefix("dropped") || $0.name.contains("debounce") })
  }

  /// A step that drops values on purpose, under each library: the trace names every drop and
  /// its reason, which comes from the step's definition.
  struct DropCase: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    /// The trace's drop lines: `<lane>: <what>`.
    var drops: [String]
    var testDescription: String { name }
  }

  static let dropCases: [DropCase] = [
    DropCase(
      name: "Combine removeDuplicates",
      yaml: """
        library: combine
        signals:
          taps: { hot: "-a-a-b-" }
          out: [{ from: taps }, { removeDuplicates }]
        """,
      drops: ["out › removeDuplicates: dropped \"a\" (same as before)"]),
    DropCase(
      name: "Combine flatMap(maxPublishers:) while full",
      yaml: """
        library: combine
        signals:
          taps: { hot: "-a-b-c-----" }
          out: [{ from: taps }, { flatMap: { maxPublishers: 1, signal: [{ cold: "--x|" }] } }]
        """,
      drops: ["out › flatMap maxPublishers 1: dropped \"b\" (maxPublishers inner signals were running)"]),
    DropCase(
      name: "Combine debounce drops its pending value at completion",
      yaml: """
        library: combine
        signals:
          taps: { hot: "-a-b|" }
          out: [{ from: taps }, { debounce: { for: 3 } }]
        """,
      drops: [
        "out › debounce for 3: dropped \"a\" (a newer value came within 3)",
        "out › debounce for 3: dropped \"b\" (the source completed while it was pending)",
      ]),
    DropCase(
      name: "RAC2 throttle is a trailing debounce",
      yaml: """
        library: rac2
        signals:
          taps: { hot: "-a-b-----" }
          out: [{ from: taps }, { throttle: 3 }]
        """,
      drops: ["out › throttle 3: dropped \"a\" (a newer value came within 3)"]),
    DropCase(
      name: "The default debounce sends its pending value at completion",
      yaml: """
        signals:
          taps: { hot: "-a-b|" }
          out: [{ from: taps }, { debounce: 3 }]
        """,
      drops: ["out › debounce 3: dropped \"a\" (a newer value came within 3)"]),
  ]

  @Test(arguments: dropCases)
  func everyDropIsNamed(_ drop: DropCase) throws {
    let file = ScenarioLoader.load(
      path: "s.yaml", bytes: Array(("flowrun: 1\nname: drops\n" + drop.yaml + "\nexpect:\n  out: \"-\"\n").utf8))
    #expect(!file.hasErrors, "\(file.diagnostics.map(\.rendered))")
    let run = try #require(TeachingSession.traced(file).first)
    let lines = TraceRenderer(run, steps: true).lines.filter { $0.what.hasPrefix("dropped") }
    #expect(lines.map { "\($0.name): \($0.what)" } == drop.drops)
  }

  /// flatMapLatest's inner requests: each from its ▲, the stale one ended by ✕ when the newer
  /// query came.
  @Test func innerSubscriptionsShowTheCancellation() throws {
    let run = try #require(try tracedRuns(Self.search).first)
    let model = DiagramModel(run, options: Self.steps)
    let inner = model.lanes.filter { $0.depth == 1 && $0.name.hasPrefix("↳ call searchAPI") }
    #expect(
      inner.map(\.name) == ["↳ call searchAPI \"swift\"", "↳ call searchAPI \"swiftui\"", "↳ call searchAPI \"rx\""])
    #expect(inner.map(\.start) == [6, 18, 22])
    #expect(inner.map(\.end) == [11, 22, 27])
    #expect(inner[1].marks.map(\.kind) == [.started, .disposed])
    #expect(inner[0].marks.map(\.kind) == [.started, .value], "the completion with the value ends the small lane")
  }

  /// A shared node once, its subscribers under it from ▲ to ✕; a cold signal subscribed during
  /// the run begins at its ▲; a subscription log's pairs each on a small lane.
  @Test func sharedNodesAndSubscriptionsAreDrawnOnce() throws {
    let runs = try tracedRuns(Self.cancel)
    let shared = DiagramModel(runs[2])
    let avatar = shared.lanes.filter { $0.name.hasPrefix("avatar") }
    #expect(avatar.count == 1 && avatar.first?.note == "shared by 2 subscribers")
    let subscribers = shared.lanes.filter { $0.depth == 1 && $0.group == .signals }
    #expect(subscribers.map(\.name) == ["↳ cellA", "↳ cellB"])
    #expect(subscribers.map(\.end) == [2, 4])
    let download = try #require(shared.lanes.first { $0.name == "download" })
    #expect(download.marks.map(\.kind) == [.disposed] && download.end == 4)

    let search = DiagramModel(runs[1])
    let first = try #require(search.lanes.first { $0.name == "searchResponse #1" })
    #expect(first.marks.map(\.token) == ["▲", "✕"] && first.start == 1 && first.end == 3)
    let pairs = search.lanes.filter { $0.name.hasPrefix("↳ subscription") }
    #expect(pairs.map { $0.marks.map(\.token) } == [["^", "!"], ["^", "!"]])
    #expect(pairs.map(\.start) == [1, 3] && pairs.map(\.end) == [3, 6])

    let command = DiagramModel(runs[0])
    let executions = command.lanes.filter { $0.group == .commands && $0.depth == 1 }
    #expect(executions.map(\.name) == ["↳ a", "↳ b"])
    #expect(command.legend.contains { $0.key == "a" && $0.value == "an inner signal (lane below)" })
  }

  // MARK: - Layout

  /// A title longer than the drawing is wide wraps onto several lines; so does a long lane title.
  @Test func longTitlesWrap() throws {
    let name = String(repeating: "a very long scenario title ", count: 8).trimmingCharacters(in: .whitespaces)
    let yaml = """
      flowrun: 1
      name: \(name)
      signals:
        aSignalWithAVeryLongNameThatDoesNotFitTheLabelColumn: { hot: "-x" }
      """
    let model = try #require(try models(yaml).first)
    let svg = SVGDiagram([model]).render()
    let titleLines = svg.components(separatedBy: "font-size=\"16\" font-weight=\"bold\">").dropFirst()
      .map { $0.prefix { $0 != "<" } }
    #expect(titleLines.count > 1)
    #expect(titleLines.joined(separator: " ") == name)
    let width = try #require(Int(svg.components(separatedBy: "width=\"")[1].prefix { $0 != "\"" }))
    #expect(titleLines.allSatisfy { 20 + $0.count * 10 <= width })
    let text = TextDiagram(model).render()
    #expect(!text.contains("…"), "nothing is cut")
    #expect(text.contains("  aSignalWithAVeryLongNameThatDo\n") || text.contains("aSignalWithAVeryLong"))
    #expect(text.split(separator: "\n").allSatisfy { String($0).displayColumns <= 100 || name.contains($0) })
  }

  /// Wide (CJK) values are measured by the columns they take: every line of the login flow's
  /// text diagram fits 100 terminal columns.
  @Test func wideValuesAreMeasured() throws {
    for model in try tracedRuns("scenarios/login/command.yaml").map(DiagramModel.init) {
      let text = TextDiagram(model).render()
      let description = model.scenario.description ?? ""
      for line in text.split(separator: "\n") where !description.contains(line.dropFirst(2)) {
        #expect(String(line).displayColumns <= 100, "\(String(line).displayColumns) columns: \(line)")
      }
    }
    let yaml = """
      flowrun: 1
      name: wide
      values: { 登: "登录中,请稍后", x: 1 }
      signals:
        s: { hot: "-登-登-x" }
      """
    let text = TextDiagram(try #require(try models(yaml).first)).render()
    let lane = String(try #require(text.split(separator: "\n").first { $0.hasPrefix("  s ") }))
    let ruler = String(try #require(text.split(separator: "\n").first { $0.hasPrefix("frame") }))
    // Frame 5's token sits under the ruler's 5: each wide token takes two columns, not one.
    let token = try #require(lane.firstIndex(of: "x"))
    let five = try #require(ruler.firstIndex(of: "5"))
    #expect(String(lane[..<token]).displayColumns == String(ruler[..<five]).displayColumns)
    #expect(lane.contains("-登-登-x"))
  }

  /// 200,000 frames, every one with events: the SVG and the page stay small (the middle of the
  /// run folds into one column), where one column per frame made a 60 MB page.
  @Test func twoHundredThousandBusyFramesStaySmall() throws {
    let yaml = "flowrun: 1\nname: busy\nsignals:\n  a: { hot: \"\(String(repeating: "ab", count: 100_000))|\" }\n"
    let model = try #require(try models(yaml).first)
    #expect(model.lastFrame == 200_000)
    let svg = SVGDiagram([model]).render()
    #expect(svg.utf8.count < 500_000, "\(svg.utf8.count) bytes of SVG")
    #expect(svg.contains("fill=\"#b00020\">…"), "the folded middle is labelled")
    let html = HTMLDiagram([model]).render()
    #expect(html.utf8.count < 1_500_000, "\(html.utf8.count) bytes of HTML")
    #expect(html.contains("\"folded\":[["))
  }

  private func models(_ yaml: String) throws -> [DiagramModel] {
    let file = ScenarioLoader.load(path: "s.yaml", bytes: Array(yaml.utf8))
    #expect(!file.hasErrors, "\(file.diagnostics.map(\.rendered))")
    return TeachingSession.traced(file).map(DiagramModel.init)
  }
}
