// Test input for flowrun-import (read as text, never compiled): an RxSwift login with
// RxSwift's Action library — the login button's Action enabled while both fields are valid,
// a logout CocoaAction, and the user published by the actions' elements.
import Action
import RxCocoa
import RxRelay
import RxSwift

protocol SessionAPI {
  func login(_ password: String) -> Single<String>
  func logout() -> Single<Void>
}

final class RxActionViewModel {
  let account = BehaviorRelay<String>(value: "")
  let password = BehaviorRelay<String>(value: "")
  let user = BehaviorRelay<String?>(value: nil)
  let loginAction: Action<String, String>
  let logoutAction: CocoaAction

  private let disposeBag = DisposeBag()

  init(api: SessionAPI) {
    let isValid = Observable.combineLatest(account, password) { $0.count > 0 && $1.count >= 6 }
    loginAction = Action(enabledIf: isValid) { password in
      api.login(password).asObservable()
    }
    logoutAction = CocoaAction {
      api.logout().asObservable()
    }
    loginAction.elements
      .bind(to: user)
      .disposed(by: disposeBag)
  }
}
