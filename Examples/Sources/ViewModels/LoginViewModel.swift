#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

/// The signed-in user, as the login API answers it.
public struct User: Codable, Equatable, Sendable {
  public var userName: String

  public init(userName: String) {
    self.userName = userName
  }
}

/// A login screen: two fields enable the button (scenarios/login/enable-button.yaml); the
/// login and logout commands call the API while a HUD shows, each allowed only in its state
/// (scenarios/login/logout.yaml).
public final class LoginViewModel {
  @Published public var account: String?
  @Published public var password: String?
  @Published public private(set) var isLoginEnabled = false
  /// The icon of the account: its URL once typed, each new one once.
  @Published public private(set) var iconURL: String?
  @Published public private(set) var user: User?
  /// The HUD: shown while logging in.
  @Published public private(set) var isLoggingIn = false
  @Published public private(set) var isLoggingOut = false

  private let loginAPI: (String) -> AnyPublisher<User, any Error>
  private let logoutAPI: () -> AnyPublisher<String, any Error>
  private var requests: Set<AnyCancellable> = []

  /// `plantedBug` writes `||` for `&&` in the button's rule, to show that the scenario catches
  /// it.
  public init(
    loginAPI: @escaping (String) -> AnyPublisher<User, any Error> = { _ in Empty().eraseToAnyPublisher() },
    logoutAPI: @escaping () -> AnyPublisher<String, any Error> = { Empty().eraseToAnyPublisher() },
    plantedBug: Bool = false
  ) {
    self.loginAPI = loginAPI
    self.logoutAPI = logoutAPI
    $account.combineLatest($password)
      .map { account, password in
        let hasAccount = !(account ?? "").isEmpty
        let hasPassword = !(password ?? "").isEmpty
        return plantedBug ? hasAccount || hasPassword : hasAccount && hasPassword
      }
      .assign(to: &$isLoginEnabled)
    $account.dropFirst()
      .map { account in account.map { "www:\($0)" } }
      .removeDuplicates()
      .assign(to: &$iconURL)
  }

  /// Logs in with `password` unless a user is logged in or a login runs.
  public func login(password: String) {
    guard user == nil, !isLoggingIn else { return }
    isLoggingIn = true
    loginAPI(password)
      .sink(
        receiveCompletion: { [weak self] _ in self?.isLoggingIn = false },
        receiveValue: { [weak self] user in self?.user = user }
      )
      .store(in: &requests)
  }

  /// Logs out unless nobody is logged in or a logout runs.
  public func logout() {
    guard user != nil, !isLoggingOut else { return }
    isLoggingOut = true
    logoutAPI()
      .sink(
        receiveCompletion: { [weak self] _ in self?.isLoggingOut = false },
        receiveValue: { [weak self] _ in self?.user = nil }
      )
      .store(in: &requests)
  }
}
