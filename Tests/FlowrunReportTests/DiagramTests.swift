import FlowrunApp
import FlowrunDiagnostics
import FlowrunReport
import FlowrunScenario
import FlowrunTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct DiagramTests {
  @Test(arguments: teachingFlows.map(\.name))
  func teachingFlowTextDiagram(_ name: String) throws {
    let flow = try #require(teachingFlows.first { $0.name == name })
    let models = try tracedRuns(flow.path).map(DiagramModel.init)
    let text = models.map { TextDiagram($0).render() }.joined(separator: "\n")
    expectGolden(text, "\(name).diagram.txt")
  }

  @Test(arguments: teachingFlows.map(\.name))
  func textDiagramFitsOneHundredColumns(_ name: String) throws {
    let flow = try #require(teachingFlows.first { $0.name == name })
    for model in try tracedRuns(flow.path).map(DiagramModel.init) {
      let text = TextDiagram(model).render()
      let description = model.scenario.description ?? ""
      for line in text.split(separator: "\n") where !description.contains(line.dropFirst(2)) {
        #expect(line.count <= 100, "\(line.count) columns: \(line)")
      }
    }
  }

  /// A long quiet stretch folds into `…N` so the lanes fit.
  @Test func longQuietStretchesFold() throws {
    let yaml = """
      flowrun: 1
      name: a long pause
      signals:
        a: { hot: "-x 300f y|" }
      expect:
        a: "-x 300f y|"
      """
    let file = loadScenarios(yaml, path: "pause.yaml")
    let model = try #require(file.scenarios.map { ScenarioRunner.traced($0) }.map(DiagramModel.init).first)
    let text = TextDiagram(model).render()
    #expect(text.contains("…"))
    #expect(text.contains("…300") || text.contains("…299") || text.contains("…298"))
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= 100 })
  }

  /// The time axis keeps its labels at whole seconds: with a 100 ms tick, frame 10 is "1s"
  /// (the "500ms" of frame 5 gives way to it), frame 20 is "2s".
  @Test func theTimeAxisKeepsWholeSeconds() throws {
    let yaml = """
      flowrun: 1
      name: seconds
      tick: 100ms
      signals:
        s: { hot: "-a------------------b|" }
      """
    let file = ScenarioLoader.load(path: "seconds.yaml", bytes: Array(yaml.utf8))
    let model = try #require(TeachingSession.traced(file).map(DiagramModel.init).first)
    let lines = TextDiagram(model).render().split(separator: "\n").map(String.init)
    let frames = try #require(lines.first { $0.hasPrefix("  frame") || $0.hasPrefix("frame") })
    let times = try #require(lines.first { $0.hasPrefix("  time") || $0.hasPrefix("time") })
    for (frame, time) in [("10", "1s"), ("20", "2s")] {
      let column = try #require(frames.range(of: " " + frame + " ") ?? frames.range(of: " " + frame))
      let at = frames.distance(from: frames.startIndex, to: column.lowerBound) + 1
      let label = times.dropFirst(at).prefix(time.count)
      #expect(label == time, "frame \(frame) should be labelled \(time):\n\(frames)\n\(times)")
    }
  }

  /// A wide character takes two columns: the lanes after it stay in line.
  @Test func wideCharactersKeepTheLanesInLine() throws {
    let yaml = """
      flowrun: 1
      name: wide
      signals:
        s: { hot: "-雨-x" }
        t: { hot: "-a-b" }
      """
    let file = ScenarioLoader.load(path: "wide.yaml", bytes: Array(yaml.utf8))
    let model = try #require(TeachingSession.traced(file).map(DiagramModel.init).first)
    let lines = TextDiagram(model).render().split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("  s      -雨-x") })
    #expect(lines.contains { $0.hasPrefix("  t      -a -b") })
  }

  /// A named signal nobody subscribes to is drawn empty, not subscribed (drawing must not run
  /// its side effects); a shared one with several subscribers has one lane per subscription.
  @Test func lanesNeverSubscribe() throws {
    let yaml = """
      flowrun: 1
      name: lanes
      services:
        api: { cold: "-(r|)" }
      signals:
        taps: { hot: "-x" }
        request:
          - from: taps
          - flatMap: { call: api }
      expect:
        api.calls: "-"
      """
    let file = loadScenarios(yaml, path: "lanes.yaml")
    let run = try #require(file.scenarios.map { ScenarioRunner.traced($0) }.first)
    #expect(run.result.status == .passed)
    let model = DiagramModel(run)
    let request = try #require(model.lanes.first { $0.name == "request" })
    #expect(request.note == "not subscribed" && request.marks.isEmpty)
    let taps = try #require(model.lanes.first { $0.name == "taps" })
    #expect(taps.marks.map(\.frame) == [1])
  }

  @Test(arguments: teachingFlows.map(\.name))
  func svgIsWellFormed(_ name: String) throws {
    let flow = try #require(teachingFlows.first { $0.name == name })
    let svg = SVGDiagram(try tracedRuns(flow.path).map(DiagramModel.init)).render()
    let parser = XMLParser(data: Data(svg.utf8))
    let delegate = ElementCounter()
    parser.delegate = delegate
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(delegate.root == "svg")
    #expect(delegate.counts["circle", default: 0] > 5)
    #expect(delegate.counts["line", default: 0] > 5)
    #expect(
      !svg.contains("http://")
        || !svg.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http://"))
  }

  /// Every kind of mark, a fold, a stack of same-frame events, a failed expectation and a legend
  /// that wraps, drawn byte for byte as `Golden/marks.diagram.svg`.
  @Test func svgOfEveryKindOfMark() throws {
    let yaml = """
      flowrun: 1
      name: marks of every kind
      signals:
        a: { hot: "-x 300f (yz)|" }
        b: { cold: "--x-#" }
        c:
          - from: b
          - map: '$0 + "!"'
      expect:
        a: "-x 300f (yz)|"
        c: "--x-#"
        b.subscriptions: "^---!"
      values:
        x: "a long value that wraps the legend line"
      """
    let file = loadScenarios(yaml, path: "marks.yaml")
    let models = file.scenarios.map { DiagramModel(ScenarioRunner.traced($0)) }
    #expect(models.count == 1)
    expectGolden(SVGDiagram(models).render(), "marks.diagram.svg")
  }

  @Test func svgAndHTMLAreDeterministic() throws {
    let path = "scenarios/login/command.yaml"
    let first = try tracedRuns(path).map(DiagramModel.init)
    let second = try tracedRuns(path).map(DiagramModel.init)
    #expect(SVGDiagram(first).render() == SVGDiagram(second).render())
    #expect(HTMLDiagram(first).render() == HTMLDiagram(second).render())
  }

  /// The page is self-contained: no external script, style, font or image.
  @Test func htmlLoadsNothingFromTheNetwork() throws {
    let html = HTMLDiagram(try tracedRuns("scenarios/hud/two-commands.yaml").map(DiagramModel.init)).render()
    let withoutNamespace = html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
    #expect(!withoutNamespace.contains("http://") && !withoutNamespace.contains("https://"))
    #expect(!html.contains("<script src") && !html.contains("<link") && !html.contains("@import"))
    #expect(html.contains("type=\"range\"") && html.contains("data-step=\"next\""))
    // Every frame has its panel of deliveries, and frame 2's lists the rejected execution.
    #expect(html.contains("data-frame=\"2\" hidden>\n<ol>\n<li class=\"d0\"><b>timeline</b>"))
    #expect(html.contains("execute rejected (disabled)"))
  }
}

private final class ElementCounter: NSObject, XMLParserDelegate {
  var root: String?
  var counts: [String: Int] = [:]

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if root == nil { root = elementName }
    counts[elementName, default: 0] += 1
  }
}
