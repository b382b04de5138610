import FlowrunDiagnostics
import FlowrunYAML
import Testing

@testable import FlowrunScenario

/// The warning of a failed expression hints where a Swift, RAC or JavaScript habit misleads.
@Suite struct RunTimeHintTests {
  /// The warnings of running a one-scenario file.
  static func warnings(_ yaml: String) throws -> [String] {
    let file = ScenarioLoader.load(path: "hint.yaml", bytes: Array(yaml.utf8))
    let scenario = try #require(file.scenarios.first, "\(file.diagnostics.map(\.rendered))")
    return ScenarioRunner.run(scenario).diagnostics.filter { $0.severity == .warning }.map(\.message)
  }

  /// A property is nil until it is set, and RACObserve sends that nil first.
  @Test func aPropertysFirstNilSuggestsReadingItAsEmpty() throws {
    let warnings = try Self.warnings(
      """
      flowrun: 1
      name: nil first
      signals:
        text: { hot: "-a", values: { a: "hi" } }
        greeting: { just: "hi" }
        length:
          - from: vm.name
          - filter: 'true'
          - map: '$0.count'
        both:
          - combineLatest: [vm.name, greeting]
          - map: '$0.lowercased() == $1'
      properties:
        vm.name: text
      expect:
        length: "-2"
        both: "#"
      """)
    #expect(
      warnings == [
        "frame 0: expression failed: cannot read 'count' of nil; a property is nil until it is set: write '($0 ?? \"\").count'",
        "frame 0: expression failed: cannot call 'lowercased' on nil; a property is nil until it is set: write '($0 ?? \"\").lowercased()'",
      ])
  }

  /// A nil that comes from elsewhere gets no word about properties.
  @Test func anotherNilGetsNoPropertyHint() throws {
    let warnings = try Self.warnings(
      """
      flowrun: 1
      name: nil elsewhere
      signals:
        s:
          - { cold: "(n|)", values: { n: null } }   # not known at load time: a run-time error
          - map: '$0.count'
      expect:
        s: "#"
      """)
    #expect(warnings == ["frame 0: expression failed: cannot read 'count' of nil"])
  }

  @Test func lengthSuggestsCount() throws {
    let warnings = try Self.warnings(
      """
      flowrun: 1
      name: length
      signals:
        s:
          - { cold: "(h|)", values: { h: "hi" } }   # not known at load time: a run-time error
          - map: '$0.length'
      expect:
        s: "#"
      """)
    #expect(warnings == ["frame 0: expression failed: cannot read 'length' of String; did you mean 'count'?"])
  }
}
