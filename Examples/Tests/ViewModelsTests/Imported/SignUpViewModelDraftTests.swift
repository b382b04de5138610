// Checks the code against Imported/SignUpViewModel.yaml
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

@Test func signUpViewModelDraftedFromSignUpViewModelSwift() throws {
  try ScenarioCheck.run("Imported/SignUpViewModel.yaml", root: #filePath) { flow in
    let viewModel = SignUpViewModel()
    flow.drive("vm.username") { (value: String) in viewModel.username.send(value) }
    flow.drive("vm.password") { (value: String) in viewModel.password.send(value) }
    flow.drive("vm.repeatedPassword") { (value: String) in viewModel.repeatedPassword.send(value) }
    flow.observe("vm.isSignUpEnabled", viewModel.isSignUpEnabled)
  }
}
