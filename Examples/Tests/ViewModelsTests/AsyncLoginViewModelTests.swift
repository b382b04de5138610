import FlowrunTesting
import Testing
import ViewModels

@MainActor @Suite struct AsyncLoginViewModelTests {
  /// The fields' twin: Observation does not notify a set to an equal value (the file says why).
  static let fields = Teaching.path("login/enable-button-observation.yaml")
  static let publishedFields = Teaching.path("login/enable-button.yaml")
  static let commands = Teaching.path("login/logout.yaml")

  private static func bindFields(_ flow: Flow, plantedBug: Bool) {
    let vm = AsyncLoginViewModel(plantedBug: plantedBug)
    flow.drive("vm.account") { vm.account = $0 }
    flow.drive("vm.password") { vm.password = $0 }
    flow.observe("loginButton.enabled", of: vm, \.isLoginEnabled)
    flow.observe("vm.iconUrl", of: vm, \.iconURL)
  }

  @Test func theButtonFollowsBothFields() throws {
    try ScenarioCheck.run(Self.fields, root: #filePath) { Self.bindFields($0, plantedBug: false) }
  }

  /// Against the `@Published` file, only the account typed twice differs: the reason for the
  /// twin.
  @Test func thePublishedFileDiffersOnlyWhereAnEqualValueIsSet() throws {
    let failures = try ScenarioCheck.failures(Self.publishedFields, root: #filePath) {
      Self.bindFields($0, plantedBug: false)
    }
    #expect(failures.map(\.target) == ["loginButton.enabled"])
    let failure = try #require(failures.first)
    #expect(failure.lines.contains("code     ff-t-t"))
    #expect(failure.lines.contains { $0.hasSuffix("^ frame 7: expected t, got nothing") })
  }

  /// `||` for `&&`: the button is enabled as soon as the account is typed.
  @Test func aPlantedOrIsCaught() throws {
    let failures = try ScenarioCheck.failures(Self.fields, root: #filePath) { Self.bindFields($0, plantedBug: true) }
    #expect(failures.map(\.target) == ["loginButton.enabled"])
    let failure = try #require(failures.first)
    #expect(failure.line == 43)
    #expect(failure.lines.contains("expected ff-t-t"))
    #expect(failure.lines.contains("code     ft-t-t"))
    #expect(failure.lines.contains { $0.hasSuffix("^ frame 1: expected f, got t") })
  }

  @Test func loginAndLogoutGuardEachOther() throws {
    try ScenarioCheck.run(Self.commands, root: #filePath) { flow in
      let loginAPI = flow.asyncService("loginAPI", returning: User.self)
      let logoutAPI = flow.asyncService("logoutAPI", returning: String.self)
      let vm = AsyncLoginViewModel(loginAPI: { try await loginAPI($0) }, logoutAPI: { try await logoutAPI() })
      flow.drive("login") { (password: String) in vm.login(password: password) }
      flow.drive("logout") { vm.logout() }
      flow.observe("vm.user", of: vm, \.user)
      flow.observe("login.executing", of: vm, \.isLoggingIn)
      flow.observe("logout.executing", of: vm, \.isLoggingOut)
    }
  }
}
