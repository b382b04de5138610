// Checks the code against Imported/LoginViewModel.yaml
// (made by `flowrun init --swift`): fill in the <#placeholders#>; delete an `observe` to
// let the scenario's own model answer that expectation. The path is relative to the
// package of this file (root: #filePath).
import FlowrunTesting
import Testing
import ViewModels

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

@Test func loginViewModelDraftedFromLoginViewModelSwift() throws {
  try ScenarioCheck.run("Imported/LoginViewModel.yaml", root: #filePath) { flow in
    let loginAPI = flow.service("loginAPI", returning: User.self)
    let logoutAPI = flow.service("logoutAPI", returning: String.self)
    let viewModel = LoginViewModel(loginAPI: { loginAPI($0).mapError { $0 as any Error }.eraseToAnyPublisher() }, logoutAPI: { logoutAPI().mapError { $0 as any Error }.eraseToAnyPublisher() })
    flow.drive("vm.account") { (value: String?) in viewModel.account = value }
    flow.drive("vm.password") { (value: String?) in viewModel.password = value }
    flow.drive("login") { (value: String) in viewModel.login(password: value) }
    flow.drive("logout") { viewModel.logout() }
    flow.observe("vm.isLoginEnabled", viewModel.$isLoginEnabled)
    flow.observe("vm.iconURL", viewModel.$iconURL)
    flow.observe("vm.user", viewModel.$user)
    flow.observe("vm.isLoggingIn", viewModel.$isLoggingIn)
    flow.observe("vm.isLoggingOut", viewModel.$isLoggingOut)
    // loginAPI.calls: the requests the code makes through `loginAPI`
    // logoutAPI.calls: the requests the code makes through `logoutAPI`
  }
}
