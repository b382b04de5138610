import FlowrunCore
import FlowrunTesting
import Foundation
import OpenCombineShim
import Testing

/// A view model of the login teaching flow, written the Combine way.
private final class LoginViewModel {
  @Published var account: String?
  @Published var password: String?
  @Published private(set) var isLoginEnabled = false

  init(plantedBug: Bool = false) {
    enabled = { account, password in
      plantedBug
        ? !(account ?? "").isEmpty || !(password ?? "").isEmpty
        : !(account ?? "").isEmpty && !(password ?? "").isEmpty
    }
  }

  private var enabled: (String?, String?) -> Bool = { _, _ in false }

  func update() { isLoginEnabled = enabled(account, password) }
}

private struct User: Codable, Equatable {
  var name: String
  var id: Int
  var tags: [String]
}

@Suite struct BindingTests {
  static let login = "scenarios/login/enable-button.yaml"

  /// Binds the login flow: the fields' sets recompute the button (combineLatest by hand, which
  /// OpenCombine lacks).
  private static func bind(_ flow: Flow, plantedBug: Bool) {
    let vm = LoginViewModel(plantedBug: plantedBug)
    flow.drive("vm.account") { (text: String?) in
      vm.account = text
      vm.update()
    }
    flow.drive("vm.password") { (text: String?) in
      vm.password = text
      vm.update()
    }
    flow.observe("loginButton.enabled", vm.$isLoginEnabled)
  }

  @Test func theCodeAnswersTheBoundExpectationAndTheModelTheOthers() throws {
    let failures = try ScenarioCheck.failures(Self.login, root: #filePath) { Self.bind($0, plantedBug: false) }
    #expect(failures.map(\.message) == [])
  }

  @Test func aPlantedOrIsCaughtAtTheYAMLLine() throws {
    let failures = try ScenarioCheck.failures(Self.login, root: #filePath) { Self.bind($0, plantedBug: true) }
    let failure = try #require(failures.first)
    #expect(failures.count == 1)
    #expect(failure.target == "loginButton.enabled")
    #expect(failure.line == 42)
    #expect(failure.column == 3)
    let lines = failure.message.split(separator: "\n").map(String.init)
    #expect(lines.contains("  expected ff-t-t-t"))
    #expect(lines.contains("  model    ff-t-t-t"))
    #expect(lines.contains("  code     ft-t-t-t"))
    #expect(lines.contains { $0.contains("^ frame 1: expected f, got t") })
    #expect(lines.contains { $0.contains("^ frame 1: the code parts from the model: model f, code t") })
  }

  @Test func anUnknownNameFailsAtTheSwiftLineWithTheClosestName() throws {
    let line = #line + 2
    let failures = try ScenarioCheck.failures(Self.login, root: #filePath) { flow in
      flow.drive("vm.acount") { (_: String?) in }
      flow.observe("loginButon.enabled", Just(true))
      _ = flow.service("api", returning: String.self)
    }
    #expect(failures.count == 3)
    #expect(failures.map(\.line) == [line, line + 1, line + 2])
    #expect(failures.allSatisfy { $0.filePath == #filePath })
    #expect(
      failures[0].message.hasSuffix(
        "has no input (signal, subject, property or command) 'vm.acount'; did you mean 'vm.account'?"))
    #expect(
      failures[1].message.hasSuffix("has no expectation 'loginButon.enabled'; did you mean 'loginButton.enabled'?"))
    #expect(failures[2].message.contains("has no service 'api'"))
  }

  @Test func aValueThatDoesNotConvertNamesTheNodeTheFrameAndTheType() throws {
    let failures = try ScenarioCheck.failures(Self.login, root: #filePath) { flow in
      flow.drive("accountText") { (_: Int) in }
    }
    let failure = try #require(failures.first)
    #expect(failure.message.contains("frame 1: 'accountText' sent \"1\", which does not convert to Swift type Int"))
    #expect(failure.line == 24)
  }

  @Test func codableModelsCompareWithTheLegendsMapsAndSubjectsDrive() throws {
    let failures = try ScenarioCheck.failures(
      "Tests/FlowrunTestingTests/Scenarios/clock.yaml", root: #filePath, scenario: "A model of every kind of value"
    ) { flow in
      let users = PassthroughSubject<User, Never>()
      flow.drive("users") { users.send($0) }
      flow.observe("echoed", users)
      let flagged = flow.output("flagged", as: Bool.self)
      flow.drive("flags") { flagged($0) }
    }
    #expect(failures.map(\.message) == [])
  }

  @Test func throwingFromTheBindingRethrows() {
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try ScenarioCheck.failures(Self.login, root: #filePath) { _ in throw Stop() }
    }
  }

  /// With `artifacts`, a failing check writes the HTML diagram of the code run (expected, model
  /// and code lanes, the caret where the code parts from the model) and says where.
  @Test func artifactsHoldTheHTMLDiagramOfAFailingCodeRun() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let failures = try ScenarioCheck.failures(Self.login, root: #filePath, artifacts: directory) {
      Self.bind($0, plantedBug: true)
    }
    let failure = try #require(failures.first)
    let line = try #require(failure.message.split(separator: "\n").last)
    #expect(line.hasPrefix("  diagram: \(directory)/enable-button-"))
    let path = String(line.dropFirst("  diagram: ".count))
    let html = try #require(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) })
    #expect(html.contains("✗ loginButton.enabled (model)"))
    #expect(html.contains("<b>model</b> (the scenario's declared graph run alone on the same inputs)"))
    #expect(html.contains("✗ loginButton.enabled (code)"))
    #expect(html.contains("<g class=\"parting\" data-frame=\"1\">"))
    // Without artifacts (and without FLOWRUN_ARTIFACTS), nothing is written.
    let plain = try ScenarioCheck.failures(Self.login, root: #filePath) { Self.bind($0, plantedBug: true) }
    #expect(ProcessInfo.processInfo.environment["FLOWRUN_ARTIFACTS"] != nil || !plain[0].message.contains("diagram:"))
  }

  /// A failure carries its kind, scenario, frame and lanes, to assert on without parsing.
  @Test func aFailureCarriesItsLanesAndTheFrameWhereTheCodeParts() throws {
    let failures = try ScenarioCheck.failures(Self.login) { Self.bind($0, plantedBug: true) }
    let failure = try #require(failures.first)
    #expect(failure.kind == .expectation)
    #expect(failure.scenario == "Login button enables once both fields have text; the icon URL follows the account")
    #expect(failure.frame == 1)
    #expect(failure.expected == "ff-t-t-t")
    #expect(failure.model == "ff-t-t-t")
    #expect(failure.actual == "ft-t-t-t")
    #expect(failure.difference == "frame 1: expected f, got t")
    #expect(failure.legend == ["f": "false", "t": "true"])
  }

  /// `run` on a failing check records its issue and attaches the HTML diagram and the diff
  /// (`swift test --attachments-path DIR` writes them).
  @Test func aFailingRunRecordsItsIssueWithItsAttachments() throws {
    try withKnownIssue {
      try ScenarioCheck.run(Self.login) { Self.bind($0, plantedBug: true) }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("expectation 'loginButton.enabled' (bound to the code) failed") }
    }
  }

  /// A publisher of the wrong type: the failure names the Swift type the code sent.
  @Test func aPublisherOfTheWrongTypeIsNamed() throws {
    let failures = try ScenarioCheck.failures(Self.login) { flow in
      flow.observe("loginButton.enabled", Just(0))
    }
    let failure = try #require(failures.first)
    #expect(
      failure.message.hasSuffix(
        "the code sent values of Swift type Int (number); the scenario expects Bool values"), "\(failure.message)")
  }
}
