import FlowrunTesting
import Testing
import ViewModels

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

@Suite struct SignUpViewModelTests {
  static let scenario = Teaching.path("signup/enabled-by-combine-latest.yaml")

  private static func bind(_ flow: Flow, plantedBug: Bool) {
    let vm = SignUpViewModel(plantedBug: plantedBug)
    flow.drive("usernameText") { vm.username.send($0) }
    flow.drive("passwordText") { vm.password.send($0) }
    flow.drive("repeatText") { vm.repeatedPassword.send($0) }
    flow.observe("signupEnabled", vm.isSignUpEnabled)
  }

  @Test func threeValidationsEnableTheButton() throws {
    try ScenarioCheck.run(Self.scenario, root: #filePath) { Self.bind($0, plantedBug: false) }
  }

  /// `||` for `&&`: the username alone enables the button. The declared signal
  /// `signupEnabled` is replaced by the code wherever it is read, so the scenario's commands,
  /// which follow it, execute on the tap at 7 too.
  @Test func aPlantedOrIsCaught() throws {
    let failures = try ScenarioCheck.failures(Self.scenario, root: #filePath) { Self.bind($0, plantedBug: true) }
    #expect(failures.map(\.target) == ["signupEnabled", "signUpEager.executing", "signUp.executing"])
    let failure = try #require(failures.first)
    #expect(failure.lines.contains("expected ----t--f-t"), "\(failure.message)")
    #expect(failure.lines.contains("code     ----t--t-t"), "\(failure.message)")
  }
}
