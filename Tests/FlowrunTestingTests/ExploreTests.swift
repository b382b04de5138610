import FlowrunScenario
import FlowrunTesting
import Foundation
import OpenCombineShim
import Testing

/// The login fields and button, with the button's rule given by the test.
private final class LoginForm {
  @Published var account: String?
  @Published var password: String?
  @Published private(set) var isLoginEnabled = false
  private let rule: (Bool, Bool) -> Bool

  init(plantedBug: Bool) {
    rule = plantedBug ? { $0 || $1 } : { $0 && $1 }
  }

  func update() {
    isLoginEnabled = rule(!(account ?? "").isEmpty, !(password ?? "").isEmpty)
  }
}

@Suite struct ExploreTests {
  /// The login twin with an invariant and `explore:`; its written timeline fills both fields
  /// in one frame, so a button enabled by `||` passes it.
  static let login = "Examples/scenarios/login-invariant.yaml"

  private static func bind(_ flow: Flow, plantedBug: Bool) {
    let form = LoginForm(plantedBug: plantedBug)
    flow.drive("vm.account") { (text: String?) in
      form.account = text
      form.update()
    }
    flow.drive("vm.password") { (text: String?) in
      form.password = text
      form.update()
    }
    flow.observe("loginButton.enabled", form.$isLoginEnabled)
  }

  /// The invariant holds on the written timeline even with the planted bug (only the written
  /// expectation of the button sees it, as a second `t` at frame 1).
  @Test func theInvariantHoldsOnTheWrittenTimelineEvenWithThePlantedBug() throws {
    let failures = try ScenarioCheck.failures(Self.login, root: #filePath) { Self.bind($0, plantedBug: true) }
    #expect(failures.map(\.target) == ["loginButton.enabled"])
    #expect(try ScenarioCheck.failures(Self.login, root: #filePath) { Self.bind($0, plantedBug: false) }.isEmpty)
  }

  @Test func correctCodeSurvivesTheGeneratedRuns() throws {
    let failures = try ScenarioCheck.exploreFailures(Self.login, root: #filePath, runs: 300, seed: 3) {
      Self.bind($0, plantedBug: false)
    }
    #expect(failures.map(\.message) == [])
  }

  @Test func aPlantedOrIsFoundShrunkAndWrittenAsAScenarioAndATest() throws {
    let failures = try ScenarioCheck.exploreFailures(Self.login, root: #filePath, runs: 300, seed: 3) { flow in
      let form = LoginForm(plantedBug: true)
      flow.drive("vm.account") { (text: String?) in
        form.account = text
        form.update()
      }
      flow.drive("vm.password") { (text: String?) in
        form.password = text
        form.update()
      }
      flow.observe("loginButton.enabled", form.$isLoginEnabled)
    }
    let failure = try #require(failures.first)
    #expect(failures.count == 1)
    #expect(failure.target == "the button is enabled only when both fields have text")
    #expect(failure.line == 33)
    #expect(failure.filePath.hasSuffix("Examples/scenarios/login-invariant.yaml"))
    let found = try #require(failure.counterexample)
    #expect(found.run >= 1)
    #expect(found.shrinkSteps > 0)
    #expect(found.note == nil)
    #expect(found.yamlPath == "Examples/scenarios/login-invariant.counterexample.yaml")
    #expect(failure.message.contains("error: invariant 'the button is enabled only when both fields have text'"))
    #expect(failure.message.contains("counterexample: run \(found.run) of seed 3, shrunk in"))
    // Shrunk to one field typed alone: one event, at frame 0.
    let yaml = try #require(found.yaml)
    #expect(yaml.contains("until: 0"))
    #expect(yaml.contains("A counterexample found by ScenarioCheck.explore against the code (seed 3) (run "))
    #expect(yaml.contains("'ScenarioCheck.run' with the code fails on it until the bug is fixed."))
    #expect(yaml.contains("  loginButton.enabled: \"(ff)\"\n"))
    let test = try #require(found.swiftTest)
    #expect(test.hasPrefix("@Test func loginInvariantCounterexample() throws {\n"))
    #expect(
      test.contains(
        "  try ScenarioCheck.run(\"Examples/scenarios/login-invariant.counterexample.yaml\", root: #filePath) { flow in\n"
      ))
    #expect(test.contains("\n    let form = LoginForm(plantedBug: true)\n"))
    #expect(test.contains("\n    flow.drive(\"vm.account\") { (text: String?) in\n      form.account = text\n"))
    #expect(test.contains("\n    flow.observe(\"loginButton.enabled\", form.$isLoginEnabled)\n  }\n}\n"))
  }

  /// The written file fails against the buggy code on the invariant (and on the model's lane of
  /// the button), passes against the fixed code, and its own declared graph (what `flowrun run`
  /// runs) passes it: its expectations are the model's.
  @Test func theWrittenScenarioReproducesTheFailureUntilTheCodeIsFixed() throws {
    let failures = try ScenarioCheck.exploreFailures(Self.login, root: #filePath, runs: 300, seed: 3) {
      Self.bind($0, plantedBug: true)
    }
    let yaml = try #require(failures.first?.counterexample?.yaml)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("login-\(UUID().uuidString).yaml").path
    try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }

    let buggy = try ScenarioCheck.failures(path, root: #filePath) { Self.bind($0, plantedBug: true) }
    #expect(
      buggy.map(\.target) == ["the button is enabled only when both fields have text", "loginButton.enabled"])
    let diff = try #require(buggy.last).message
    #expect(diff.contains("  model    (ff)"))
    #expect(diff.contains("  code     (ft)"))
    #expect(try ScenarioCheck.failures(path, root: #filePath) { Self.bind($0, plantedBug: false) }.isEmpty)

    let loaded = ScenarioLoader.load(path: path)
    let scenario = try #require(loaded.scenarios.first)
    #expect(ScenarioRunner.run(scenario).status == .passed)
  }

  @Test func theSameSeedGivesTheSameCounterexample() throws {
    func yaml() throws -> String? {
      try ScenarioCheck.exploreFailures(Self.login, root: #filePath, runs: 100, seed: 9) {
        Self.bind($0, plantedBug: true)
      }.first?.counterexample?.yaml
    }
    let first = try #require(try yaml())
    #expect(try yaml() == first)
  }

  @Test func aScenarioWithoutExploreIsAFailure() throws {
    let failures = try ScenarioCheck.exploreFailures("scenarios/login/enable-button.yaml", root: #filePath) {
      Self.bind($0, plantedBug: false)
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("has no 'explore:'") == true)
  }

  @Test func outputWritesTheFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("login-\(UUID().uuidString).yaml").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let failures = try ScenarioCheck.exploreFailures(Self.login, root: #filePath, runs: 100, output: path) {
      Self.bind($0, plantedBug: true)
    }
    let found = try #require(failures.first?.counterexample)
    #expect(found.yamlPath == path)
    #expect(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } == found.yaml)
  }

  /// A name bound by hand (`flow.output`) is read by the invariant as by the expectation: what
  /// the code sent at setup, before either subscribed, reaches both.
  @Test func anOutputSentAtSetupReachesTheExpectationAndTheInvariant() throws {
    let failures = try ScenarioCheck.exploreFailures(Self.login, root: #filePath, runs: 100, seed: 3) { flow in
      let enabled = flow.output("loginButton.enabled", as: Bool.self)
      var account: String?
      var password: String?
      func update() { enabled.send(!(account ?? "").isEmpty && !(password ?? "").isEmpty) }
      update()
      flow.drive("vm.account") { (text: String?) in
        account = text
        update()
      }
      flow.drive("vm.password") { (text: String?) in
        password = text
        update()
      }
    }
    #expect(failures.map(\.message) == [])
  }

  /// Code that fails the invariant on the written timeline: that timeline is the
  /// counterexample, not shrunk.
  @Test func aWrittenTimelineThatFailsIsTheCounterexample() throws {
    let failures = try ScenarioCheck.exploreFailures(Self.login, root: #filePath, runs: 100) { flow in
      flow.observe("loginButton.enabled", Just(true))
    }
    let failure = try #require(failures.first)
    #expect(failures.count == 1)
    #expect(failure.message.contains("the written timeline fails ('ScenarioCheck.run' with the code fails too):"))
    #expect(failure.counterexample?.run == 0)
    #expect(failure.counterexample?.shrinkSteps == 0)
    #expect(failure.counterexample?.note == nil)
  }

  /// The binding given to `run` observes every expectation; exploring with it is fine when the
  /// invariant reads only some of them (an explored run, and the counterexample file, check
  /// only what the invariant reads), and no message says a name the file has is missing.
  @Test func theBindingOfRunExploresToo() throws {
    let path = "Tests/FlowrunTestingTests/Scenarios/explore-extra.yaml"
    for plantedBug in [false, true] {  // with the bug: one counterexample per document
      let bind: (Flow) -> Void = { flow in
        Self.bind(flow, plantedBug: plantedBug)
        flow.observe("isLoading", Just(false))
      }
      let explored = try ScenarioCheck.exploreFailures(path, runs: 50, seed: 1, bind)
      #expect(explored.count == (plantedBug ? 2 : 0), "\(explored.map(\.message))")
      #expect(!explored.contains { $0.message.contains("has no") }, "\(explored.map(\.message))")
      #expect(explored.first?.counterexample?.note == nil, "\(explored.map(\.message))")
    }
  }
}
