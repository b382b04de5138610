import FlowrunCore
import FlowrunReport
import FlowrunScenario
import Testing

/// A failing expectation answered by code bound into the run is drawn as three lanes —
/// expected, model, code — with a caret where the code parts from the model.
@Suite struct ModelLaneDiagramTests {
  static let yaml = """
    flowrun: 1
    name: bound
    values: { a: 1, b: 2 }
    signals:
      taps: { hot: "-a-b" }
      doubled:
        - from: taps
        - map: '$0 * 2'
    expect:
      doubled: "-2-4"
    """

  /// The code sends 2 at frame 1 like the model, then 5 at frame 2 where the model sends 4 at 3.
  static func tracedCodeRun() throws -> TracedRun {
    let file = ScenarioLoader.load(path: "bound.yaml", bytes: Array(yaml.utf8))
    let scenario = try #require(file.scenarios.first)
    let binding = CodeBinding { run in
      let code = ColdSource(
        events: [Recorded(frame: 1, event: .next(.int(2))), Recorded(frame: 2, event: .next(.int(5)))],
        owner: NodeLabel("code"), runtime: run.runtime)
      run.bind("doubled", to: code)
    }
    return ScenarioRunner.traced(scenario, boundTo: binding)
  }

  @Test func theModelHasExpectedModelAndCodeLanesWithTheParting() throws {
    let model = DiagramModel(try Self.tracedCodeRun())
    let lanes = model.lanes(in: .expectations).filter { $0.name == "doubled" }
    #expect(lanes.map(\.role) == ["expected", "model", "code"])
    #expect(lanes.map { $0.marks.map(\.frame) } == [[1, 3], [1, 3], [1, 2]])
    #expect(lanes.map(\.parting) == [nil, nil, 2])
  }

  @Test func theHTMLDrawsTheThreeLanesAndTheCaret() throws {
    let html = HTMLDiagram([DiagramModel(try Self.tracedCodeRun())]).render()
    #expect(html.contains("✗ doubled (expected)"))
    #expect(html.contains("✗ doubled (model)"))
    #expect(html.contains("✗ doubled (code)"))
    #expect(
      html.contains("<g class=\"parting\" data-frame=\"2\"><title>frame 2: the code parts from the model</title>"))
    #expect(html.ranges(of: "class=\"parting\"").count == 1)
  }

  @Test func aRunWithoutCodeHasNoModelLane() throws {
    let file = ScenarioLoader.load(path: "bound.yaml", bytes: Array(Self.yaml.utf8))
    let model = DiagramModel(ScenarioRunner.traced(try #require(file.scenarios.first)))
    #expect(model.lanes(in: .expectations).map(\.role) == [nil])
    #expect(!HTMLDiagram([model]).render().contains("class=\"parting\""))
  }
}
