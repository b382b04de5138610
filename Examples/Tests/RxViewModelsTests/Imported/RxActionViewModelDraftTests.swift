// Checks the code against Imported/RxActionViewModel.yaml
// (made by `flowrun init --swift`): fill in the <#placeholders#>; delete an `observe` to
// let the scenario's own model answer that expectation. The path is relative to the
// package of this file (root: #filePath).
import FlowrunTesting
import Testing
import RxViewModels
import RxSwift

@Test func rxActionViewModelDraftedFromRxActionViewModelSwift() throws {
  try ScenarioCheck.run("Imported/RxActionViewModel.yaml", root: #filePath) { flow in
    let apilogin = flow.service("api.login", returning: String.self)
    let apilogout = flow.service("api.logout", returning: FlowVoid.self)
    struct StubSessionAPI: SessionAPI {
      let apilogin: FlowService<String>
      let apilogout: FlowService<FlowVoid>
      func login(_ password: String) -> Single<String> {
        apilogin(password).asObservable().asSingle()
      }
      func logout() -> Single<Void> {
        apilogout().asObservable().map { _ in }.asSingle()
      }
    }
    let viewModel = RxActionViewModel(api: StubSessionAPI(apilogin: apilogin, apilogout: apilogout))
    flow.drive("vm.account") { (value: String) in viewModel.account.accept(value) }
    flow.drive("vm.password") { (value: String) in viewModel.password.accept(value) }
    flow.drive("loginAction") { (value: String) in _ = viewModel.loginAction.execute(value) }
    flow.drive("logoutAction") { _ = viewModel.logoutAction.execute(()) }
    let userOutput = flow.output("vm.user", as: String?.self)
    _ = viewModel.user.asObservable().subscribe(onNext: { userOutput.send($0) })
    // api.login.calls: the requests the code makes through `apilogin`
    // api.logout.calls: the requests the code makes through `apilogout`
  }
}
