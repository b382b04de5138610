import FlowrunTesting
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
