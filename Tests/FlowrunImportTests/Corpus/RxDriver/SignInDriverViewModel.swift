// Style: RxSwift with RxCocoa `Driver`s: the view model made from the view's `Driver`s and
// `Signal`s (`init(input:dependency:)`), its outputs `Driver`s built in `init`.
// Seen in: RxSwift's own RxExample sign-up screens (Driver version) and apps built after it.
import RxCocoa
import RxSwift

public protocol SignInAPI {
  func signIn(_ username: String, _ password: String) -> Single<Bool>
}

public final class SignInDriverViewModel {
  public let signInEnabled: Driver<Bool>
  public let signedIn: Driver<Bool>
  public let usernameHint: Driver<String>

  public init(
    username: Driver<String>,
    password: Driver<String>,
    signInTaps: Signal<Void>,
    api: SignInAPI
  ) {
    let usernameValid = username.map { $0.count >= 3 }
    let passwordValid = password.map { $0.count >= 6 }
    usernameHint = usernameValid.map { $0 ? "" : "At least 3 characters" }
    signInEnabled = Driver.combineLatest(usernameValid, passwordValid) { $0 && $1 }
      .distinctUntilChanged()
    let credentials = Driver.combineLatest(username, password)
    signedIn = signInTaps.withLatestFrom(credentials)
      .flatMapLatest { pair in
        api.signIn(pair.0, pair.1).asDriver(onErrorJustReturn: false)
      }
  }
}
