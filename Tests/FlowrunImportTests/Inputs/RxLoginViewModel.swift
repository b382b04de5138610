// Test input for flowrun-import (read as text, never compiled): an RxSwift + Moya login view
// model in the style of the common "RxSwift + Moya login" tutorials — two text fields
// validated with combineLatest, a login tap that calls the Moya provider with the latest
// fields, and outputs as Drivers bound to the UI.
import Moya
import RxCocoa
import RxRelay
import RxSwift

struct User: Codable {
  var userName: String
  var region: String
}

final class RxLoginViewModel {
  let account = BehaviorRelay<String>(value: "")
  let password = BehaviorRelay<String>(value: "")
  let loginTaps = PublishRelay<Void>()
  let isLoginEnabled = BehaviorRelay<Bool>(value: false)
  let user = BehaviorRelay<User?>(value: nil)
  let accountIcon: Driver<String>

  private let provider: MoyaProvider<LoginAPI>
  private let disposeBag = DisposeBag()

  init(provider: MoyaProvider<LoginAPI>, scheduler: SchedulerType) {
    self.provider = provider
    let accountValid = account.map { $0.count > 0 }
    let passwordValid = password.map { $0.count >= 6 }
    Observable.combineLatest(accountValid, passwordValid) { $0 && $1 }
      .distinctUntilChanged()
      .bind(to: isLoginEnabled)
      .disposed(by: disposeBag)
    accountIcon =
      account
      .skip(1)
      .debounce(.milliseconds(300), scheduler: scheduler)
      .map { "www:\($0)" }
      .asDriver(onErrorJustReturn: "")
    loginTaps
      .withLatestFrom(password)
      .flatMapLatest { [unowned self] password in
        self.provider.rx.request(.login(password))
          .filterSuccessfulStatusCodes()
          .map(User.self)
          .asObservable()
      }
      .subscribe(onNext: { [weak self] user in self?.user.accept(user) })
      .disposed(by: disposeBag)
  }
}
