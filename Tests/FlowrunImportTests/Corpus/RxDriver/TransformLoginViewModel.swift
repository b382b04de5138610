// Style: RxSwift with `Driver`s in the "Input/Output + transform" shape: a `transform(input:)`
// method builds the outputs from the input `Driver`s.
// Seen in: sergdort's CleanArchitectureRxSwift and the many apps that copied its ViewModelType.
import RxCocoa
import RxSwift

protocol ViewModelType {
  associatedtype Input
  associatedtype Output
  func transform(input: Input) -> Output
}

final class TransformLoginViewModel: ViewModelType {
  struct Input {
    let email: Driver<String>
    let password: Driver<String>
    let loginTrigger: Driver<Void>
  }

  struct Output {
    let isEnabled: Driver<Bool>
    let loggedIn: Driver<String>
  }

  private let useCase: LoginUseCase

  init(useCase: LoginUseCase) {
    self.useCase = useCase
  }

  func transform(input: Input) -> Output {
    let form = Driver.combineLatest(input.email, input.password)
    let isEnabled = form.map { !$0.isEmpty && $1.count >= 6 }
    let loggedIn = input.loginTrigger.withLatestFrom(form)
      .flatMapLatest { [unowned self] email, password in
        self.useCase.login(email: email, password: password).asDriver(onErrorJustReturn: "")
      }
    return Output(isEnabled: isEnabled, loggedIn: loggedIn)
  }
}
