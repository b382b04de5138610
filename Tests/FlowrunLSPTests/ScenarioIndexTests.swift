import FlowrunDiagnostics
import FlowrunScenario
import FlowrunYAML
import Foundation
import Testing

@testable import FlowrunLSP

/// The names, marbles and steps read from a scenario's YAML tree.
@Suite struct ScenarioIndexTests {
  static let text = """
    flowrun: 1
    name: Index
    values: { a: 1, s: !cold "-a|" }
    signals:
      field: { hot: "-a-", values: { a: 2 } }
      shown:
        - combineLatest: [field, vm.count]
        - map: 'vm.count + $0[0]'
    subjects:
      status: {}
    properties:
      vm.count: { initial: 0 }
    commands:
      save: { work: { call: api, with: 'outer' } }
    services:
      api: { cold: "-r|" }
    effects:
      - on: save.values
        send: { status: 1 }
        execute: save
    expect:
      field.subscriptions: "^--"
      api.calls: "-"
      shown: { marble: "-x", values: { x: [1, 0] } }
    """

  let index = ScenarioIndex(path: "x.yaml", bytes: Array(Self.text.utf8))

  func uses(of name: String) -> [String] {
    let lines = index.lines
    return index.uses.filter { $0.name == name }.map { use in
      let line = lines.lineText(lines.position(ofByte: use.start).line)
      return "\(use.isDeclaration ? "decl" : "use") \(use.member ?? "-") \(line.trimmingCharacters(in: .whitespaces))"
    }
  }

  @Test func namesAreFoundWhereverTheyAreWritten() {
    #expect(index.parsed)
    #expect(
      uses(of: "field") == [
        "decl - field: { hot: \"-a-\", values: { a: 2 } }", "use - - combineLatest: [field, vm.count]",
        "use subscriptions field.subscriptions: \"^--\"",
      ])
    #expect(
      uses(of: "vm.count") == [
        "decl - vm.count: { initial: 0 }", "use - - combineLatest: [field, vm.count]",
        "use - - map: 'vm.count + $0[0]'",
      ])
    #expect(
      uses(of: "save") == [
        "decl - save: { work: { call: api, with: 'outer' } }", "use values - on: save.values", "use - execute: save",
      ])
    #expect(uses(of: "status") == ["decl - status: {}", "use - send: { status: 1 }"])
    #expect(uses(of: "api").count == 3)  // declaration, call, api.calls
  }

  @Test func aNameInsideAnExpressionIsPlacedAtItsColumn() throws {
    let use = try #require(index.uses.first { $0.name == "vm.count" && !$0.isDeclaration && $0.start > 150 })
    let text = String(decoding: index.lines.bytes[use.start..<use.end], as: UTF8.self)
    #expect(text == "vm.count")
  }

  @Test func marblesKnowTheirKindAndLegend() {
    let marbles = index.marbles.map { ($0.node.scalarValue ?? "", $0.kind, $0.localLegend != nil) }
    #expect(marbles.map(\.0) == ["-a|", "-a-", "-r|", "^--", "-", "-x"])
    #expect(marbles.map(\.1) == [.cold, .hot, .cold, .subscription, .expectation, .expectation])
    #expect(marbles.map(\.2) == [true, true, false, false, false, true])
  }

  @Test func stepsKnowTheirRole() {
    #expect(index.steps.map(\.name) == ["hot", "combineLatest", "map", "call", "cold"])
    #expect(index.steps.map(\.role) == [.source, .source, .operator, .source, .source])
  }

  @Test func diagnosticsSpanTheScalarTheyPointAt() {
    // Line 7 `    - map: 'vm.count + $0[0]'`: the quoted scalar starts at column 12.
    let range = DiagnosticsProvider.range(
      at: SourceLocation(line: 8, column: 12, offset: 0), index: index, scalarEnds: index.scalarEnds())
    #expect(range.start == Position(line: 7, character: 11))
    #expect(range.end == Position(line: 7, character: 11 + "'vm.count + $0[0]'".count))
    // Inside it, on a name: the name.
    let word = DiagnosticsProvider.range(
      at: SourceLocation(line: 8, column: 13, offset: 0), index: index, scalarEnds: index.scalarEnds())
    #expect(word.end == Position(line: 7, character: 12 + "vm.count".count))
  }

  /// Each document's `library:` decides which steps its keys are and what hover says of them,
  /// from the loader's step table for that library.
  @Test func stepsFollowTheirDocumentsLibrary() throws {
    let text = """
      flowrun: 1
      name: rac2
      library: rac2
      signals:
        out: [{ hot: "-a" }, { throttle: 3 }, { mapReplace: 1 }, { reduceEach: '$0' }]
      ---
      flowrun: 1
      name: combine
      library: combine
      signals:
        out: [{ hot: "-a" }, removeDuplicates, { prefix: 1 }, { throttle: { for: 1, latest: true } }]
      ---
      flowrun: 1
      name: default
      signals:
        out: [{ hot: "-a" }, { throttle: 3 }, { mapReplace: 1 }]
      """
    let index = ScenarioIndex(path: "x.yaml", bytes: Array(text.utf8))
    #expect(
      index.steps.map { "\($0.library?.rawValue ?? "-") \($0.name)" } == [
        "rac2 hot", "rac2 throttle", "rac2 mapReplace", "rac2 reduceEach", "combine hot", "combine removeDuplicates",
        "combine prefix", "combine throttle", "- hot", "- throttle",
      ])
    let hover = index.steps.map { Hover.stepText($0, base: nil) }
    #expect(hover[1].contains("RAC2 -throttle:: a trailing debounce") && hover[1].contains("docs/libraries.md"))
    #expect(hover[2].contains("RAC2 -mapReplace::"))
    #expect(hover[5].contains("Combine removeDuplicates"))
    #expect(hover[9].contains("ReactiveX throttle") && hover[9].contains("docs/reference/operators.md#throttle"))
    // `reduceEach` holds an expression under RAC2: the names in it are indexed.
    #expect(StepArgument.kind(of: "reduceEach", role: .operator, library: .rac2) == .expression)
    #expect(StepArgument.kind(of: "reduceEach", role: .operator, library: nil) == .literal)
    // The keys that take an expression come from the step table (its argument shapes).
    let keys: Set<String> = [
      "map", "filter", "scan", "reduce", "takeWhile", "skipWhile", "distinctUntilChanged", "first", "last", "when",
      "with",
    ]
    #expect(ScenarioVocabulary.expressionKeys.isSuperset(of: keys))
    #expect(ScenarioVocabulary.expressionKeys(library: .rac2).isSuperset(of: ["takeUntilBlock", "skipWhileBlock"]))
  }
}

/// An `observed:` property reads the names it lists.
@Suite struct ObservedPropertyIndexTests {
  @Test func theNamesAnObservedPropertyReadsAreUses() {
    let text = """
      flowrun: 1
      name: Observed
      properties:
        first: { initial: "Ada" }
        last: { initial: "Lovelace" }
        names: { observed: [first, last] }
        one: { observed: first }
      """
    let index = ScenarioIndex(path: "x.yaml", bytes: Array(text.utf8))
    let lines = index.lines
    let uses = index.uses.filter { $0.name == "first" && !$0.isDeclaration }.map {
      lines.lineText(lines.position(ofByte: $0.start).line).trimmingCharacters(in: .whitespaces)
    }
    #expect(uses == ["names: { observed: [first, last] }", "one: { observed: first }"])
  }
}
