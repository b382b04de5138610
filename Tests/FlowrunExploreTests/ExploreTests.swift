import FlowrunApp
import FlowrunCore
import FlowrunDiagnostics
import FlowrunReport
import FlowrunScenario
import FlowrunYAML
import Foundation
import Testing

@testable import FlowrunExplore

/// The package root (`<root>/Tests/FlowrunExploreTests/ExploreTests.swift`).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// The only scenario of a file of the package.
func scenario(at path: String) throws -> Scenario {
  let file = ScenarioLoader.load(path: packageRoot.appendingPathComponent(path).path)
  #expect(!file.hasErrors, "\(file.diagnostics.map(\.rendered))")
  return try #require(file.scenarios.first)
}

/// The only scenario of `yaml`.
func scenario(yaml: String) throws -> Scenario {
  let file = ScenarioLoader.load(path: "test.yaml", bytes: Array(yaml.utf8))
  #expect(!file.hasErrors, "\(file.diagnostics.map(\.rendered))")
  return try #require(file.scenarios.first)
}

/// Every event of a counterexample's generated inputs, by input name.
func events(of counterexample: Counterexample, in scenario: Scenario) throws -> [String: [Sample.Event]] {
  let sample = try #require(counterexample.sample)
  let spec = try #require(scenario.explore)
  var result: [String: [Sample.Event]] = [:]
  for (input, drawn) in zip(spec.inputs, sample.inputs) where !drawn.events.isEmpty {
    result[input.name] = drawn.events
  }
  return result
}

@Suite struct PlantedBugTests {
  /// The login button enabled by `||`: whatever the seed, one field event at frame 0 carrying
  /// the shortest text, no tap, and the invariant fails at frame 0.
  @Test(arguments: [0, 1, 2, 3, 42] as [UInt64])
  func loginButtonBugShrinksToOneFieldEvent(seed: UInt64) throws {
    let scenario = try scenario(at: "scenarios/explore/login-button.yaml")
    let exploration = Explorer.explore(scenario, options: ExploreOptions(runs: 1_000, seed: seed))
    let counterexample = try #require(exploration.counterexample)
    #expect(counterexample.failure == .invariant(0))
    guard case .generated = counterexample.origin else {
      Issue.record("not a generated run: \(counterexample.origin)")
      return
    }
    let drawn = try events(of: counterexample, in: scenario)
    #expect(drawn.count == 1, "\(drawn)")
    let (field, fieldEvents) = try #require(drawn.first)
    #expect(["accountText", "passwordText"].contains(field))
    #expect(fieldEvents == [Sample.Event(frame: 0, value: 1)], "one \"1\" at frame 0")
    #expect(counterexample.frame == 0)
    #expect(counterexample.sizeAfter == 1)
    #expect(counterexample.variant?.until == 0)
  }

  /// The HUD hidden by the first request that ends: one execution of each command and one
  /// answer of each service, the earliest possible failure (frame 1: both requests started by
  /// frame 1, one answered a frame before the other), so start frames and delays add up to 3 —
  /// both at frame 0 answered after 1 and 2 frames, or one a frame later, both after 1 frame.
  @Test(arguments: [0, 1, 2, 3, 12, 42] as [UInt64])
  func hudBugShrinksToTwoOverlappingRequests(seed: UInt64) throws {
    let scenario = try scenario(at: "scenarios/explore/hud-two-requests.yaml")
    let exploration = Explorer.explore(scenario, options: ExploreOptions(runs: 1_000, seed: seed))
    let counterexample = try #require(exploration.counterexample)
    #expect(counterexample.failure == .invariant(0))
    let drawn = try events(of: counterexample, in: scenario)
    let summary = try #require(drawn["fetchSummary"])
    let list = try #require(drawn["fetchList"])
    #expect(summary.count == 1 && list.count == 1)
    let sample = try #require(counterexample.sample)
    let delays = sample.inputs.filter { !$0.answers.isEmpty }.map { $0.answers.map(\.delay) }
    #expect(delays.map(\.count) == [1, 1], "one answer each: \(delays)")
    #expect(summary[0].frame + list[0].frame + delays.joined().reduce(0, +) == 3, "\(drawn) \(delays)")
    #expect(counterexample.frame == 1)
    #expect(counterexample.sizeAfter == 4)
    let violation = try #require(counterexample.result.invariants[0].violation)
    #expect(violation.readings.map(\.name) == ["hud.visible", "fetchSummary.executing", "fetchList.executing"])
    #expect(violation.readings[0].value == .bool(false))
    let running: [Value] = violation.readings.dropFirst().map(\.value)
    #expect(running == [.bool(true), .bool(false)] || running == [.bool(false), .bool(true)], "one still runs")
  }

  /// The correct login-command flow: ten thousand generated runs, no counterexample.
  @Test func correctLoginCommandFlowSurvivesTenThousandRuns() throws {
    let scenario = try scenario(at: "scenarios/explore/login-command.yaml")
    let exploration = Explorer.explore(scenario, options: ExploreOptions(runs: 10_000, seed: 0))
    #expect(exploration.counterexample == nil)
    #expect(exploration.runs == 10_000)
  }

  /// Planting the `||` bug into the correct flow is found there too (the runs above can fail).
  @Test func theCorrectFlowWithTheBugPlantedFails() throws {
    let path = packageRoot.appendingPathComponent("scenarios/explore/login-command.yaml").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let broken = text.replacingOccurrences(of: "count > 0 && ($1", with: "count > 0 || ($1")
    #expect(broken != text)
    let exploration = Explorer.explore(try scenario(yaml: broken), options: ExploreOptions(runs: 1_000, seed: 0))
    #expect(exploration.counterexample?.failure == .invariant(0))
  }
}

@Suite struct DeterminismTests {
  private func explore(_ paths: [String], seed: UInt64, json: Bool) throws -> (report: String, file: String) {
    var request = ExploreRequest(paths: paths.map { packageRoot.appendingPathComponent($0).path })
    request.options = ExploreOptions(runs: 300, seed: seed)
    request.output = "counterexamples.yaml"
    request.json = json
    var report = ""
    var file = ""
    let code = try ExploreSession.run(request) { output in
      switch output {
      case .standardOutput(let text): report += text
      case .file(_, let contents): file += contents
      case .standardError: break
      }
    }
    #expect(code == 1)
    return (report, file)
  }

  /// The same seed gives the same report and the same counterexample file, byte for byte; the
  /// report says which seed and run found each counterexample.
  @Test(arguments: [false, true])
  func sameSeedSameBytes(json: Bool) throws {
    let paths = ["scenarios/explore/login-button.yaml", "scenarios/explore/hud-two-requests.yaml"]
    let first = try explore(paths, seed: 7, json: json)
    let second = try explore(paths, seed: 7, json: json)
    #expect(first.report == second.report)
    #expect(first.file == second.file)
    #expect(first.file.contains("--seed 7"))
    #expect(!first.report.isEmpty && !first.file.isEmpty)
  }

  /// A run's inputs depend only on the seed and the run number.
  @Test func runsAreDrawnIndependently() throws {
    let spec = try #require(try scenario(at: "scenarios/explore/login-command.yaml").explore)
    var a = RandomSource(seed: 5, run: 9)
    var b = RandomSource(seed: 5, run: 9)
    var c = RandomSource(seed: 5, run: 10)
    let sample = Sample(spec: spec, random: &a)
    #expect(sample == Sample(spec: spec, random: &b))
    #expect(sample != Sample(spec: spec, random: &c))
  }

  /// The generator's numbers are fixed by its algorithm (xoshiro256** seeded by SplitMix64), not
  /// by the platform: these are its first outputs for seed 0, run 1.
  @Test func randomNumbersAreThoseOfTheAlgorithm() {
    var mixer = SplitMix64(state: 0)
    #expect(mixer.next() == 0xE220_A839_7B1D_CDAF)
    var random = RandomSource(seed: 0, run: 1)
    let draws = (0..<1_000).map { _ in random.below(6) }
    #expect(Set(draws) == Set(0..<6))
    var again = RandomSource(seed: 0, run: 1)
    #expect(draws == (0..<1_000).map { _ in again.below(6) })
    var bounded = RandomSource(seed: 3, run: 3)
    for _ in 0..<1_000 { #expect((2...4).contains(bounded.number(in: 2...4))) }
  }
}

@Suite struct OrderTests {
  static let race = """
    flowrun: 1
    name: Profile screen shows once the profile and the settings have loaded
    tick: 100ms
    signals:
      profile:  { hot: "--p" }
      settings: { hot: "--s" }
      screen:
        - from: settings
        - withLatestFrom: profile
    properties:
      vm.screen: screen
    invariants:
      - name: once both have loaded, the screen shows them
        that: 'profile == nil || settings == nil || vm.screen != nil'
    """

  /// Two answers in the same frame: the written order (profile first) holds; the other fails,
  /// and both orders are reported.
  @Test func ordersFindAPlantedSameFrameRace() throws {
    let race = try scenario(yaml: Self.race)
    #expect(ScenarioRunner.run(race).status == .passed)
    #expect(Explorer.explore(race, options: ExploreOptions()).skipped)
    let exploration = Explorer.explore(race, options: ExploreOptions(orders: true))
    let counterexample = try #require(exploration.counterexample)
    #expect(
      counterexample.origin
        == .order([
          OrderChoice(
            frame: 2, written: ["profile (line 5)", "settings (line 6)"],
            failing: ["settings (line 6)", "profile (line 5)"])
        ]))
    #expect(counterexample.frame == 2)
    #expect(exploration.orderRuns == 2)
  }

  /// A flow whose result does not depend on the order: every order is tried, none fails.
  @Test func orderIndependentFlowHoldsInEveryOrder() throws {
    let yaml = Self.race.replacingOccurrences(of: "withLatestFrom: profile", with: "combineLatestWith: profile")
    let exploration = Explorer.explore(try scenario(yaml: yaml), options: ExploreOptions(orders: true))
    #expect(exploration.counterexample == nil)
    #expect(exploration.orderRuns == 2)
  }

  /// `library: async`: two inputs of a `merge` delivered in the same frame. The package's
  /// validation harness runs them top to bottom (`Validation.md`), a real app gives no such
  /// promise: `--orders` tries the other order, where the older query's results arrive last.
  @Test func ordersVaryTheSameFrameInputsOfAnAsyncScenario() throws {
    let yaml = """
      flowrun: 1
      name: results of two queries answered in the same frame
      library: async
      signals:
        staleResults: { hot: "--s" }
        freshResults: { hot: "--f" }
        shown: { merge: [staleResults, freshResults] }
      invariants:
        - name: the fresh results are shown last
          that: 'shown == nil || shown == "f"'
      """
    let merged = try scenario(yaml: yaml)
    #expect(ScenarioRunner.run(merged).status == .passed)
    let exploration = Explorer.explore(merged, options: ExploreOptions(orders: true))
    let counterexample = try #require(exploration.counterexample)
    #expect(
      counterexample.origin
        == .order([
          OrderChoice(
            frame: 2, written: ["staleResults (line 5)", "freshResults (line 6)"],
            failing: ["freshResults (line 6)", "staleResults (line 5)"])
        ]))
    #expect(exploration.orderRuns == 2)
  }

  /// `library: async`: the bases of a `combineLatest` that one pull of a slow consumer resumes
  /// together, each with an event waiting, are a choice point of `--orders` too (no two inputs
  /// share a frame here): at frame 9 (a's 2 and b's z) and at frame 17 (both ends), so four
  /// orders. Without the slow consumer no base waits, and there is no choice.
  @Test func ordersVaryWhichResumedBaseOfAnAsyncCombineLatestRunsFirst() throws {
    let yaml = """
      flowrun: 1
      name: a pull resumes two bases
      library: async
      signals:
        a: { hot: "-1----2-----|" }
        b: { hot: "x---y--z-----|" }
        both: { combineLatest: [a, b] }
      expect:
        both: { marble: "-", consumer: { busy: 4 } }
      invariants:
        - 'true'
      """
    let exploration = Explorer.explore(try scenario(yaml: yaml), options: ExploreOptions(orders: true))
    #expect(exploration.counterexample == nil)
    #expect(exploration.orderRuns == 4)
    let atOnce = yaml.replacingOccurrences(of: ", consumer: { busy: 4 }", with: "")
    #expect(Explorer.explore(try scenario(yaml: atOnce), options: ExploreOptions(orders: true)).orderRuns == 1)
  }

  /// A `merge` paced by a slow consumer resumes its suspended bases together after each pause:
  /// which of those with a value waiting runs first is the runtime's choice. Without a slow
  /// consumer each value is forwarded as it comes and there is no choice.
  @Test func ordersVaryWhichResumedBaseOfAnAsyncMergeRunsFirst() throws {
    let yaml = """
      flowrun: 1
      name: a pull resumes two bases
      library: async
      signals:
        a: { hot: "-123|" }
        b: { hot: "x----y|" }
        both: { merge: [a, b] }
      expect:
        both: { marble: "-", consumer: { busy: 3 } }
      invariants:
        - 'true'
      """
    let exploration = Explorer.explore(try scenario(yaml: yaml), options: ExploreOptions(orders: true))
    #expect(exploration.counterexample == nil)
    // The pulls at 6 (b's y, a's 2) and at 12 (b's end, a's 3) each resume both bases.
    #expect(exploration.orderRuns == 4)
    let atOnce = yaml.replacingOccurrences(of: ", consumer: { busy: 3 }", with: "")
    #expect(Explorer.explore(try scenario(yaml: atOnce), options: ExploreOptions(orders: true)).orderRuns == 1)
  }

  /// A run with generated inputs keeps the expectations that declare a slow consumer (its pace
  /// changes what the graph does) and drops the others (explore checks invariants only).
  @Test func generatedRunsKeepOnlySlowConsumers() throws {
    let yaml = """
      flowrun: 1
      name: a slow and a prompt consumer
      library: async
      signals:
        a: { hot: "-1-2-3-|" }
        doubled: [a, { map: '$0 * 2' }]
      expect:
        a: { marble: "-", consumer: { busy: 4 } }
        doubled: "-"
      explore:
        frames: 8
        inputs: { a: { values: [1, 2] } }
      invariants:
        - 'true'
      """
    let written = try scenario(yaml: yaml)
    #expect(written.expectations.count == 2)
    let generated = written.with(ScenarioVariant())
    #expect(generated.expectations.map(\.target) == ["a"])
  }

  /// Three inputs due together have six orders; a timeline action and a cold answer take part.
  @Test func everyOrderOfThreeInputsIsTried() throws {
    let yaml = """
      flowrun: 1
      name: three inputs at frame 2
      signals:
        tap: { hot: "--x" }
        answer: { cold: "--a" }
      subjects:
        log: {}
      properties:
        vm.answer: answer
      timeline:
        - at: 2
          send: { log: 1 }
      invariants:
        - 'true'
      """
    let exploration = Explorer.explore(try scenario(yaml: yaml), options: ExploreOptions(orders: true))
    #expect(exploration.counterexample == nil)
    #expect(exploration.orderRuns == 6)
    #expect(OrderScript.orders(count: 3).count == 6)
    #expect(OrderScript.orders(count: 6).count == 6)
  }
}

@Suite struct InputKindTests {
  /// A property, a subject and a command explored through timeline actions; the written
  /// actions on them are replaced, and the counterexample file holds the generated ones.
  @Test func timelineInputsAreGeneratedAndWritten() throws {
    let yaml = """
      flowrun: 1
      name: a filter that must not be 'bad' while saving
      subjects:
        log: {}
        notes: {}
      properties:
        vm.filter: { initial: all }
      commands:
        save:
          work: { cold: "--(d|)" }
      timeline:
        - at: 1
          set: { vm.filter: open }
          send: { log: dropped, notes: kept }
      invariants:
        - 'vm.filter != "bad" || !save.executing'
      explore:
        frames: 6
        inputs:
          vm.filter: { values: [open, bad], events: 0..3 }
          log: { values: [hi], events: 0..2, end: [completed] }
          save: { events: 0..2 }
      """
    let scenario = try scenario(yaml: yaml)
    let options = ExploreOptions(runs: 500, seed: 3)
    let counterexample = try #require(Explorer.explore(scenario, options: options).counterexample)
    let drawn = try events(of: counterexample, in: scenario)
    #expect(drawn["vm.filter"] == [Sample.Event(frame: 0, value: 1)])
    #expect(drawn["save"] == [Sample.Event(frame: 0, value: 0)])
    #expect(drawn["log"] == nil)
    let actions = try #require(counterexample.variant?.actions)
    #expect(actions.map(\.kind) == [.execute, .set] || actions.map(\.kind) == [.set, .execute])
    let text = try CounterexampleFile.document(for: counterexample, of: scenario, options: options)
    #expect(text.contains("set: { vm.filter: \"bad\" }"))
    #expect(!text.contains("open"), "the written set of the explored property is dropped")
    #expect(text.contains("send: { notes: kept }"), "the written send to the unexplored subject stays")
    #expect(!text.contains("dropped"), "the written send to the explored subject is dropped")
    #expect(ExploreSession.verify(text, path: "out.yaml", counterexample: counterexample) == nil, "\(text)")
  }

  /// A run that fails with a run-time error (a binding that receives a generated error) is a
  /// counterexample too, shrunk to the error alone; its file fails `flowrun run` with it.
  @Test func runTimeErrorsAreCounterexamples() throws {
    let yaml = """
      flowrun: 1
      name: a binding that receives an error
      signals:
        answers: { hot: "-a" }
      properties:
        vm.answer: answers
      explore:
        frames: 8
        inputs:
          answers: { values: [a, b], events: 0..3, end: [completed, error] }
      """
    let scenario = try scenario(yaml: yaml)
    let options = ExploreOptions(runs: 500, seed: 1)
    let counterexample = try #require(Explorer.explore(scenario, options: options).counterexample)
    #expect(counterexample.failure == .runError)
    let sample = try #require(counterexample.sample)
    #expect(sample.inputs[0].events.isEmpty)
    #expect(sample.inputs[0].end == Sample.End(frame: 0, kind: .error))
    let text = try CounterexampleFile.document(for: counterexample, of: scenario, options: options)
    #expect(text.contains("answers: { hot: \"#\" }"), "\(text)")
    #expect(ExploreSession.verify(text, path: "out.yaml", counterexample: counterexample) == nil, "\(text)")
  }

  /// A scenario whose written timeline already fails is its own counterexample.
  @Test func aFailingWrittenTimelineIsReportedAsWritten() throws {
    let yaml = OrderTests.race.replacingOccurrences(of: "hot: \"--s\"", with: "hot: \"-s\"")
    let exploration = Explorer.explore(try scenario(yaml: yaml), options: ExploreOptions(orders: true))
    let counterexample = try #require(exploration.counterexample)
    #expect(counterexample.origin == .written)
    #expect(counterexample.frame == 2)
  }
}
