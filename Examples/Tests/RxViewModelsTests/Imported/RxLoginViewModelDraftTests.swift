// Checks the code against Imported/RxLoginViewModel.yaml
// (made by `flowrun init --swift`): fill in the <#placeholders#>; delete an `observe` to
// let the scenario's own model answer that expectation. The path is relative to the
// package of this file (root: #filePath).
import FlowrunTesting
import Testing
import RxViewModels
import RxSwift
import Moya

@Test func rxLoginViewModelDraftedFromRxLoginViewModelSwift() throws {
  try ScenarioCheck.run("Imported/RxLoginViewModel.yaml", root: #filePath) { flow in
    let providerlogin = flow.service("provider.login", returning: User.self)
    // Each request waits for its service in virtual time; Moya's immediate stub answers with it.
    let provider = MoyaProvider<LoginAPI>.answered { target in
      if case .login(let value) = target { return providerlogin(value).json() }
      return nil
    }
    // Drivers observe on the sharing scheduler taken when they are made: the run's, not the main queue.
    let scheduler = FlowRxScheduler(flow: flow.scheduler)
    let viewModel = withSharingScheduler(scheduler) { RxLoginViewModel(provider: provider, scheduler: scheduler) }
    flow.drive("vm.account") { (value: String) in viewModel.account.accept(value) }
    flow.drive("vm.password") { (value: String) in viewModel.password.accept(value) }
    flow.drive("vm.loginTaps") { viewModel.loginTaps.accept(()) }
    let isLoginEnabledOutput = flow.output("vm.isLoginEnabled", as: Bool.self)
    _ = viewModel.isLoginEnabled.asObservable().subscribe(onNext: { isLoginEnabledOutput.send($0) })
    let userOutput = flow.output("vm.user", as: User?.self)
    _ = viewModel.user.asObservable().subscribe(onNext: { userOutput.send($0) })
    let accountIconOutput = flow.output("vm.accountIcon", as: String.self)
    _ = viewModel.accountIcon.asObservable().subscribe(onNext: { accountIconOutput.send($0) })
    // provider.login.calls: the requests the code makes through `providerlogin`
  }
}
