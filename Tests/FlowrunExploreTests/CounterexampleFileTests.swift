import FlowrunApp
import FlowrunDiagnostics
import FlowrunScenario
import FlowrunYAML
import Foundation
import Testing

@testable import FlowrunExplore

/// A tree with each scalar resolved by the YAML 1.2 core schema, to compare what two texts mean.
private indirect enum Meaning: Equatable {
  case scalar(ScalarValue?, tag: String?)
  case sequence([Meaning])
  case mapping([Meaning])

  init(_ tree: YAMLTree) {
    switch tree {
    case .scalar(let text, let style, let tag):
      self = .scalar(ScalarValue.resolve(text, style: style, tag: tag), tag: tag)
    case .flow(let text):
      let (file, _) = YAMLFile.parse(path: "", text: "x: " + text)
      self = file.documents.first?.root?["x"].map { Meaning(YAMLTree($0)) } ?? .sequence([])
    case .sequence(let items): self = .sequence(items.map(Meaning.init))
    case .mapping(let pairs): self = .mapping(pairs.flatMap { [Meaning($0.key), Meaning($0.value)] })
    }
  }
}

@Suite struct CounterexampleFileTests {
  /// The project's scenarios, but one whose expected values hold the line and column of an
  /// expression (which a file written anew moves).
  static let files: [String] = {
    let root = packageRoot.appendingPathComponent("scenarios").path
    return ScenarioDiscovery.files(in: [root]).files.filter { !$0.hasSuffix("basics/expression-error.yaml") }
  }()

  /// Every scenario of the project written back by `YAMLTree` means the same and runs the same:
  /// the writer is what counterexample files are made with.
  @Test(arguments: files)
  func writtenScenarioMeansAndRunsTheSame(path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let (file, _) = YAMLFile.parse(path: path, text: text)
    for document in file.documents {
      let root = try #require(document.root)
      let written = YAMLTree(root).written()
      let (again, diagnostics) = YAMLFile.parse(path: path, text: written)
      #expect(diagnostics.isEmpty, "\(diagnostics.map(\.rendered))\n\(written)")
      let reread = try #require(again.documents.first?.root)
      #expect(Meaning(YAMLTree(reread)) == Meaning(YAMLTree(root)), "\(written)")
      let rewritten = ScenarioLoader.load(path: path, bytes: Array(written.utf8))
      #expect(!rewritten.hasErrors, "\(rewritten.diagnostics.map(\.rendered))")
      let result = try #require(rewritten.scenarios.first.map { ScenarioRunner.run($0) })
      #expect(result.status == .passed)
    }
  }

  /// Scalars that need quotes get them; plain ones stay plain; multi-line text is a block.
  @Test func scalarsReadBackAsTheyWere() {
    let tree = YAMLTree.mapping([
      .init(key: .key("plain"), value: .scalar("vm.account", style: .plain, tag: nil)),
      .init(key: .key("colon"), value: .scalar("a: b", style: .plain, tag: nil)),
      .init(key: .key("comma"), value: .scalar("a, b", style: .plain, tag: nil)),
      .init(key: .key("number"), value: .scalar("12", style: .plain, tag: nil)),
      .init(key: .key("text"), value: .scalar("12", style: .singleQuoted, tag: nil)),
      .init(key: .key("quote"), value: .scalar("it's", style: .singleQuoted, tag: nil)),
      .init(key: .key("double"), value: .scalar("say \"hi\"", style: .doubleQuoted, tag: nil)),
      .init(key: .key("null"), value: .scalar("", style: .plain, tag: nil)),
      .init(key: .key("legend"), value: .scalar("--a|", style: .doubleQuoted, tag: "!cold")),
      .init(key: .key("story"), value: .scalar("line one\nline two\n", style: .literal, tag: nil)),
      .init(key: .key("list"), value: .sequence([.scalar("a", style: .plain, tag: nil), .flow("{ k: 1 }")])),
    ])
    #expect(
      tree.written() == """
        plain: vm.account
        colon: "a: b"
        comma: "a, b"
        number: 12
        text: '12'
        quote: 'it''s'
        double: "say \\"hi\\""
        null: ~
        legend: !cold "--a|"
        story: |
          line one
          line two
        list: [a, { k: 1 }]

        """)
  }

  /// The counterexample files of both planted bugs load, and `flowrun run` fails on them with
  /// the violated invariant at the frame explore found, every observed lane holding.
  @Test(arguments: ["scenarios/explore/login-button.yaml", "scenarios/explore/hud-two-requests.yaml"])
  func counterexampleFilesFailTheSameWay(path: String) throws {
    let scenario = try scenario(at: path)
    let options = ExploreOptions(runs: 1_000, seed: 1)
    let counterexample = try #require(Explorer.explore(scenario, options: options).counterexample)
    let text = try CounterexampleFile.document(for: counterexample, of: scenario, options: options)
    #expect(ExploreSession.verify(text, path: "out.yaml", counterexample: counterexample) == nil, "\(text)")
    #expect(!text.contains("explore:"))
    #expect(text.contains("until: \(counterexample.frame)"))
  }

  /// A same-frame order is reported, not written.
  @Test func orderCounterexamplesAreNotWritten() throws {
    let race = try scenario(yaml: OrderTests.race)
    let options = ExploreOptions(orders: true)
    let counterexample = try #require(Explorer.explore(race, options: options).counterexample)
    #expect(throws: CounterexampleFile.Unwritable.self) {
      try CounterexampleFile.document(for: counterexample, of: race, options: options)
    }
  }
}
