// Style: RAC2-era MVVM ported to Combine: `RACSignal combineLatest:reduce:` written as
// `Publishers.CombineLatest` of two mapped inputs, each input a `PassthroughSubject`.
// Seen in: ReactiveCocoa 2 sign-up tutorials (the "RWReactivePlayground" era) ported to Combine.
import Combine

final class SignupCredentialsViewModel {
  let emailInput = PassthroughSubject<String, Never>()
  let passwordInput = PassthroughSubject<String, Never>()
  let confirmInput = PassthroughSubject<String, Never>()
  @Published private(set) var emailIsValid = false
  @Published private(set) var canSubmit = false
  @Published private(set) var hint = ""

  private var cancellables = Set<AnyCancellable>()

  init() {
    emailInput.map { $0.contains("@") }.assign(to: &$emailIsValid)
    Publishers.CombineLatest(
      emailInput.map { $0.contains("@") },
      passwordInput.map { $0.count >= 8 }
    )
    .map { $0 && $1 }
    .assign(to: &$canSubmit)
    Publishers.CombineLatest(
      passwordInput.map { $0.count },
      confirmInput.map { $0.count }
    )
    .map { $0 == $1 ? "" : "The passwords differ" }
    .assign(to: &$hint)
  }
}
