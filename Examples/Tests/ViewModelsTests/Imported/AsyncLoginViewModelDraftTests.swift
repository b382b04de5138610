// Checks the code against Imported/AsyncLoginViewModel.yaml
// (made by `flowrun init --swift`): fill in the <#placeholders#>; delete an `observe` to
// let the scenario's own model answer that expectation. The path is relative to the
// package of this file (root: #filePath).
import FlowrunTesting
import Testing
import ViewModels

@MainActor @Test func asyncLoginViewModelDraftedFromAsyncLoginViewModelSwift() throws {
  try ScenarioCheck.run("Imported/AsyncLoginViewModel.yaml", root: #filePath) { flow in
    let loginAPI = flow.asyncService("loginAPI", returning: User.self)
    let logoutAPI = flow.asyncService("logoutAPI", returning: String.self)
    let viewModel = AsyncLoginViewModel(loginAPI: { try await loginAPI($0) }, logoutAPI: { try await logoutAPI() })
    flow.drive("vm.account") { (value: String?) in viewModel.account = value }
    flow.drive("vm.password") { (value: String?) in viewModel.password = value }
    flow.drive("login") { (value: String) in viewModel.login(password: value) }
    flow.drive("logout") { viewModel.logout() }
    flow.observe("observed.user", of: viewModel, \.user)
    flow.observe("observed.isLoggingIn", of: viewModel, \.isLoggingIn)
    flow.observe("observed.isLoggingOut", of: viewModel, \.isLoggingOut)
    flow.observe("vm.isLoginEnabled", of: viewModel, \.isLoginEnabled)
    flow.observe("vm.iconURL", of: viewModel, \.iconURL)
    // loginAPI.calls: the requests the code makes through `loginAPI`
    // logoutAPI.calls: the requests the code makes through `logoutAPI`
  }
}
