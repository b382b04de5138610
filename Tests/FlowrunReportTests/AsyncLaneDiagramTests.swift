import FlowrunReport
import FlowrunScenario
import FlowrunTestSupport
import Testing

/// `library: async` lanes in the three diagram formats: a paced consumer's pulls drawn on a
/// small `pulls` lane, a cancelled iteration's `;` (docs/libraries.md "The consumer",
/// "Cancellation").
@Suite struct AsyncLaneDiagramTests {
  static let yaml = """
    flowrun: 1
    name: A slow consumer, a busy one and a cancelled one
    library: async
    signals:
      burst: { hot: "xxx---|" }
      updates:
        - hot: "-1234|"
        - buffer: { policy: { bufferingNewest: 1 } }
      ticks:
        - interval: 2
        - map: '"t"'
    expect:
      burst: "x,,,,(xx)|"
      updates: { marble: "-1--4--|", consumer: { busy: 3 } }
      ticks: "--t-t-t-(;|)"
    ---
    flowrun: 1
    name: A cancellation the sequence never reaches
    library: async
    signals:
      short: { hot: "a|" }
    expect:
      short: "a-(;|)"
    ---
    flowrun: 1
    name: A subscribe window's end cancels the iterating task
    library: async
    signals:
      updates: { hot: "a-b-c-d|" }
    expect:
      updates: { subscribe: "-^--!", marble: "-ab-(;|)" }
    """

  static func models() -> [DiagramModel] {
    loadScenarios(yaml, path: "async-lanes.yaml").scenarios.map { DiagramModel(ScenarioRunner.traced($0)) }
  }

  @Test func textDrawsPullsAndTheCancellation() {
    let models = Self.models()
    let text = models.map { TextDiagram($0).render() }.joined(separator: "\n")
    #expect(text.contains("• the consumer calls next()"))
    #expect(text.contains("; task cancelled"))
    expectGolden(text, "async-lanes.diagram.txt")
  }

  @Test func svgDrawsPullsAndTheCancellation() {
    let svg = SVGDiagram(Self.models()).render()
    #expect(svg.contains("the consumer calls next()"))
    #expect(svg.contains("the iterating task is cancelled"))
    expectGolden(svg, "async-lanes.diagram.svg")
  }

  @Test func htmlDrawsPullsAndTheCancellation() {
    let html = HTMLDiagram(Self.models()).render()
    #expect(html.contains("the consumer calls next()"))
    expectGolden(html, "async-lanes.diagram.html")
  }

  /// The three formats draw the same pulls, from one model; a marble's `,` is drawn through the
  /// pulls it moves, never on the expectation's row (the package's printed diagrams show none).
  @Test func everyFormatDrawsTheSamePullsAndNoComma() throws {
    let models = Self.models()
    let first = try #require(models.first)
    let pulls = first.lanes(in: .expectations).filter { $0.name == "pulls" }.flatMap { $0.marks.map(\.frame) }
    #expect(pulls == [0, 5, 5, 5, 0, 4, 7])
    let svg = SVGDiagram([first]).render()
    let html = HTMLDiagram([first]).render()
    for drawn in [svg, html] {
      let frames = drawn.matches(of: /data-frame="(\d+)"><title>[^<]*the consumer calls next\(\)/).compactMap {
        Int($0.1)
      }
      #expect(frames == pulls)
    }
    let text = TextDiagram(first).render()
    let burst = try #require(text.split(separator: "\n").first { $0.contains("✓ burst") })
    #expect(!burst.contains(","))
    #expect(burst.contains("x----(xx)"))
  }

  /// The model: the pulls lane sits under its expectation; an expected `;` the run never
  /// reached is drawn on the expected row only.
  @Test func theModelPlacesPullsAndCancellations() throws {
    let models = Self.models()
    let lanes = try #require(models.first).lanes(in: .expectations)
    #expect(lanes.map(\.name) == ["burst", "pulls", "updates", "pulls", "ticks"])
    #expect(lanes[1].depth == 1)
    #expect(lanes[1].marks.map(\.frame) == [0, 5, 5, 5])
    // Busy 3 frames after each value: 2 and 3 are replaced by 4 (bufferingNewest(1)).
    #expect(lanes[3].marks.map(\.frame) == [0, 4, 7])
    let ticks = lanes[4].marks.filter { $0.frame == 8 }.map(\.token)
    #expect(ticks == [";", "|"])
    let windowed = try #require(models.last).lanes(in: .expectations)
    #expect(windowed.first?.marks.filter { $0.frame == 4 }.map(\.token) == [";", "|"])
    let failed = try #require(models.dropLast().last).lanes(in: .expectations)
    #expect(failed.map(\.role) == ["expected", "actual"])
    #expect(failed[0].marks.contains { $0.kind == .cancelled })
    #expect(!failed[1].marks.contains { $0.kind == .cancelled })
  }
}
