// Style: RAC2-era MVVM ported to Combine: `Inputs`/`Outputs` protocols, every input a
// subject fed by a method, every output an `AnyPublisher` built in `init`.
// Seen in: the Inputs/Outputs view models of open-source ReactiveSwift apps (Kickstarter's
// ios-oss) and the "ReactiveCocoa to Combine" migration write-ups that keep their shape.
import Combine
import Foundation

protocol LoginInputsOutputsViewModelInputs {
  func emailChanged(_ email: String)
  func passwordChanged(_ password: String)
  func loginTapped()
}

final class LoginInputsOutputsViewModel: LoginInputsOutputsViewModelInputs {
  private let emailSubject = PassthroughSubject<String, Never>()
  private let passwordSubject = PassthroughSubject<String, Never>()
  private let loginTappedSubject = PassthroughSubject<Void, Never>()

  let isLoginEnabled: AnyPublisher<Bool, Never>
  let showsSpinner: AnyPublisher<Bool, Never>
  @Published private(set) var loggedIn = false

  private var cancellables = Set<AnyCancellable>()

  init(login: @escaping (String, String) -> AnyPublisher<Bool, Never>) {
    let form = emailSubject.combineLatest(passwordSubject)
    isLoginEnabled =
      form
      .map { email, password in email.contains("@") && password.count >= 8 }
      .removeDuplicates()
      .eraseToAnyPublisher()
    let spinner = CurrentValueSubject<Bool, Never>(false)
    showsSpinner = spinner.eraseToAnyPublisher()
    loginTappedSubject
      .map { _ in form }
      .switchToLatest()
      .handleEvents(receiveOutput: { _ in spinner.send(true) })
      .map { pair in login(pair.0, pair.1) }
      .switchToLatest()
      .handleEvents(receiveOutput: { _ in spinner.send(false) })
      .assign(to: &$loggedIn)
  }

  func emailChanged(_ email: String) { emailSubject.send(email) }
  func passwordChanged(_ password: String) { passwordSubject.send(password) }
  func loginTapped() { loginTappedSubject.send(()) }
}
