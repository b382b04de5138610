#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

/// A sign-up form (scenarios/signup/enabled-by-combine-latest.yaml): the button is enabled by
/// the latest of three validations — a username of 3 characters or more, a password of 6 or
/// more, and a repeat equal to the password. The fields send only when the user types, as a
/// text field's change notifications do.
public final class SignUpViewModel {
  public let username = PassthroughSubject<String, Never>()
  public let password = PassthroughSubject<String, Never>()
  public let repeatedPassword = PassthroughSubject<String, Never>()
  public let isSignUpEnabled: AnyPublisher<Bool, Never>

  /// `plantedBug` writes `||` for `&&` in the rule of the button, to show that the scenario
  /// catches it.
  public init(plantedBug: Bool = false) {
    let usernameValid = username.map { $0.count >= 3 }
    let passwordValid = password.map { $0.count >= 6 }
    let repeatValid = password.combineLatest(repeatedPassword).map { $0 == $1 }
    isSignUpEnabled = usernameValid.combineLatest(passwordValid, repeatValid)
      .map { plantedBug ? $0 || $1 || $2 : $0 && $1 && $2 }
      .eraseToAnyPublisher()
  }
}
