// Checks the code against Imported/RxActionViewModel.yaml
// (made by `flowrun init --swift`): fill in the <#placeholders#>; delete an `observe` to
// let the scenario's own model answer that expectation. The path is relative to the
// package of this file (root: #filePath).
import FlowrunTesting
import Testing
import RxViewModels
import RxSwift

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

@Test func rxActionViewModelDraftedFromRxActionViewModelSwift() throws {
  try ScenarioCheck.run("Imported/RxActionViewModel.yaml", root: #filePath) { flow in
    let apilogin = flow.service("api.login", returning: String.self)
    let apilogout = flow.service("api.logout", returning: FlowVoid.self)
    struct StubSessionAPI: SessionAPI {
      let apilogin: FlowService<String>
      let apilogout: FlowService<FlowVoid>
      func login(_ password: String) -> Single<String> {
        observable(apilogin(password)).asSingle()
      }
      func logout() -> Single<Void> {
        observable(apilogout()).map { _ in }.asSingle()
      }
      func observable<Response: Decodable>(_ answer: ServicePublisher<Response>) -> Observable<Response> {
        Observable.create { observer in
          let subscription = answer.sink(
            receiveCompletion: {
              if case .failure(let error) = $0 { observer.onError(error) } else { observer.onCompleted() }
            },
            receiveValue: { observer.onNext($0) })
          return Disposables.create { subscription.cancel() }
        }
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
