// An RxSwift login with RxSwift's Action library: the login button's Action enabled while both
// fields are valid, a logout CocoaAction, and the user published by the login's elements.
import Action
import RxCocoa
import RxRelay
import RxSwift

public protocol SessionAPI {
  func login(_ password: String) -> Single<String>
  func logout() -> Single<Void>
}

public final class RxActionViewModel {
  public let account = BehaviorRelay<String>(value: "")
  public let password = BehaviorRelay<String>(value: "")
  public let user = BehaviorRelay<String?>(value: nil)
  public let loginAction: Action<String, String>
  public let logoutAction: CocoaAction

  private let disposeBag = DisposeBag()

  public init(api: any SessionAPI) {
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
