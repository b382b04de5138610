import FlowrunTesting
import Foundation
import Testing
import ViewModels

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

@Suite struct LoginViewModelTests {
  static let fields = Teaching.path("login/enable-button.yaml")
  static let commands = Teaching.path("login/logout.yaml")
  /// A twin of login/enable-button.yaml with an invariant and `explore:`.
  static let invariant = "scenarios/login-invariant.yaml"

  private static func bindFields(_ flow: Flow, plantedBug: Bool) {
    let vm = LoginViewModel(plantedBug: plantedBug)
    flow.drive("vm.account") { vm.account = $0 }
    flow.drive("vm.password") { vm.password = $0 }
    flow.observe("loginButton.enabled", vm.$isLoginEnabled)
    flow.observe("vm.iconUrl", vm.$iconURL)
  }

  @Test func theButtonFollowsBothFields() throws {
    try ScenarioCheck.run(Self.fields, root: #filePath) { Self.bindFields($0, plantedBug: false) }
  }

  /// `||` for `&&`: the button is enabled as soon as the account is typed.
  @Test func aPlantedOrIsCaught() throws {
    let failures = try ScenarioCheck.failures(Self.fields, root: #filePath) { Self.bindFields($0, plantedBug: true) }
    #expect(failures.map(\.target) == ["loginButton.enabled"])
    let failure = try #require(failures.first)
    #expect(failure.line == 42)
    #expect(failure.lines.contains("expected ff-t-t-t"))
    #expect(failure.lines.contains("model    ff-t-t-t"))
    #expect(failure.lines.contains("code     ft-t-t-t"))
    #expect(failure.lines.contains { $0.hasSuffix("^ frame 1: expected f, got t") })
  }

  /// Exploring the view model against the invariant of a twin of the teaching file: the
  /// written timeline fills both fields in one frame, so `||` passes its invariant; a generated
  /// timeline typing one field alone breaks it, shrunk to one event, written as a scenario and
  /// a Swift test. The written scenario fails against the buggy code and passes the fixed one.
  @Test func exploringFindsThePlantedOr() throws {
    let failures = try ScenarioCheck.exploreFailures(Self.invariant, root: #filePath, runs: 200, seed: 1) { flow in
      let vm = LoginViewModel(plantedBug: true)
      flow.drive("vm.account") { vm.account = $0 }
      flow.drive("vm.password") { vm.password = $0 }
      flow.observe("loginButton.enabled", vm.$isLoginEnabled)
    }
    #expect(failures.count == 1)
    let failure = try #require(failures.first)
    #expect(failure.target == "the button is enabled only when both fields have text")
    #expect(failure.lines.contains { $0.hasSuffix("loginButton.enabled  (ft)") })
    let found = try #require(failure.counterexample)
    #expect(found.note == nil)
    let test = try #require(found.swiftTest)
    #expect(test.contains(#"flow.drive("vm.account") { vm.account = $0 }"#))
    #expect(test.contains(#"flow.observe("loginButton.enabled", vm.$isLoginEnabled)"#))

    let yaml = try #require(found.yaml)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("login-\(UUID().uuidString).yaml").path
    try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    func check(plantedBug: Bool) throws -> [ScenarioCheck.Failure] {
      try ScenarioCheck.failures(path, root: #filePath) { flow in
        let vm = LoginViewModel(plantedBug: plantedBug)
        flow.drive("vm.account") { vm.account = $0 }
        flow.drive("vm.password") { vm.password = $0 }
        flow.observe("loginButton.enabled", vm.$isLoginEnabled)
      }
    }
    #expect(
      try check(plantedBug: true).map(\.target) == [
        "the button is enabled only when both fields have text", "loginButton.enabled",
      ])
    #expect(try check(plantedBug: false).isEmpty)
  }

  @Test func theFixedViewModelSurvivesExploring() throws {
    try ScenarioCheck.explore(Self.invariant, root: #filePath, runs: 500, seed: 1) { flow in
      let vm = LoginViewModel()
      flow.drive("vm.account") { vm.account = $0 }
      flow.drive("vm.password") { vm.password = $0 }
      flow.observe("loginButton.enabled", vm.$isLoginEnabled)
    }
  }

  /// The login and logout commands against the scenario's APIs; the commands' `enabled`
  /// signals stay checked by the scenario's own model.
  @Test func loginAndLogoutGuardEachOther() throws {
    try ScenarioCheck.run(Self.commands, root: #filePath) { flow in
      let loginAPI = flow.service("loginAPI", returning: User.self)
      let logoutAPI = flow.service("logoutAPI", returning: String.self)
      let vm = LoginViewModel(
        loginAPI: { loginAPI($0).mapError { $0 as any Error }.eraseToAnyPublisher() },
        logoutAPI: { logoutAPI().mapError { $0 as any Error }.eraseToAnyPublisher() })
      flow.drive("login") { (password: String) in vm.login(password: password) }
      flow.drive("logout") { vm.logout() }
      flow.observe("vm.user", vm.$user)
      flow.observe("login.executing", vm.$isLoggingIn)
      flow.observe("logout.executing", vm.$isLoggingOut)
    }
  }
}
