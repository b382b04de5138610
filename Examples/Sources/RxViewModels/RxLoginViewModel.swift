// An RxSwift + Moya login view model in the style of the common "RxSwift + Moya login"
// tutorials: two text fields validated with combineLatest, a login tap that calls the Moya
// provider with the latest password, and outputs as relays and a Driver bound to the UI.
import Moya
import RxCocoa
import RxMoya
import RxRelay
import RxSwift

public struct User: Codable, Equatable, Sendable {
  public var userName: String
  public var region: String

  public init(userName: String, region: String) {
    self.userName = userName
    self.region = region
  }
}

public final class RxLoginViewModel {
  public let account = BehaviorRelay<String>(value: "")
  public let password = BehaviorRelay<String>(value: "")
  public let loginTaps = PublishRelay<Void>()
  public let isLoginEnabled = BehaviorRelay<Bool>(value: false)
  public let user = BehaviorRelay<User?>(value: nil)
  public let accountIcon: Driver<String>

  private let provider: MoyaProvider<LoginAPI>
  private let disposeBag = DisposeBag()

  /// `plantedBug` writes `||` for `&&` in the rule of the login button, to show that the
  /// drafted scenario catches it.
  public init(provider: MoyaProvider<LoginAPI>, scheduler: any SchedulerType, plantedBug: Bool = false) {
    self.provider = provider
    let accountValid = account.map { $0.count > 0 }
    let passwordValid = password.map { $0.count >= 6 }
    Observable.combineLatest(accountValid, passwordValid) { plantedBug ? $0 || $1 : $0 && $1 }
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
