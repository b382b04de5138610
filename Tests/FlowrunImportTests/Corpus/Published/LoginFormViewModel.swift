// Style: `ObservableObject` + `@Published` for SwiftUI: form fields as `@Published var`s, a
// command method that calls a protocol-typed service declared in another module and sets state
// in `sink`.
// Seen in: SwiftUI login screens of tutorials (Hacking with Swift, Kodeco) and app templates
// whose networking lives in a separate `Networking`/`Core` module.
import Combine
import Foundation

final class LoginFormViewModel: ObservableObject {
  @Published var email = ""
  @Published var password = ""
  @Published private(set) var isSubmitting = false
  @Published private(set) var errorMessage: String?
  @Published private(set) var session: String?

  private let auth: AuthServicing
  private var cancellables = Set<AnyCancellable>()

  init(auth: AuthServicing) {
    self.auth = auth
  }

  var canSubmit: Bool { !email.isEmpty && password.count >= 8 && !isSubmitting }

  func submit() {
    guard canSubmit else { return }
    isSubmitting = true
    errorMessage = nil
    auth.signIn(email: email, password: password)
      .receive(on: DispatchQueue.main)
      .sink(
        receiveCompletion: { [weak self] completion in
          self?.isSubmitting = false
          if case .failure(let error) = completion { self?.errorMessage = error.localizedDescription }
        },
        receiveValue: { [weak self] token in self?.session = token }
      )
      .store(in: &cancellables)
  }

  func signOut() {
    auth.signOut()
      .sink { [weak self] _ in self?.session = nil }
      .store(in: &cancellables)
  }
}
