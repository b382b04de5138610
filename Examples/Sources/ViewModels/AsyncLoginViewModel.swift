import Observation

/// The login screen of ``LoginViewModel`` with async/await and `@Observable`: the button and
/// the icon URL are computed from the fields (scenarios/login/enable-button.yaml); login and
/// logout call `async` APIs while a HUD shows, each allowed only in its state
/// (scenarios/login/logout.yaml). Isolated to the main actor, as an app's view model is.
@MainActor @Observable
public final class AsyncLoginViewModel {
  public var account: String?
  public var password: String?
  public private(set) var user: User?
  /// The HUD: shown while logging in.
  public private(set) var isLoggingIn = false
  public private(set) var isLoggingOut = false

  @ObservationIgnored private let loginAPI: @Sendable (String) async throws -> User
  @ObservationIgnored private let logoutAPI: @Sendable () async throws -> String
  @ObservationIgnored private let plantedBug: Bool
  @ObservationIgnored private var requests: [Task<Void, Never>] = []

  /// `plantedBug` writes `||` for `&&` in the button's rule, to show that the scenario catches
  /// it.
  public init(
    loginAPI: @escaping @Sendable (String) async throws -> User = { _ in throw CancellationError() },
    logoutAPI: @escaping @Sendable () async throws -> String = { throw CancellationError() },
    plantedBug: Bool = false
  ) {
    self.loginAPI = loginAPI
    self.logoutAPI = logoutAPI
    self.plantedBug = plantedBug
  }

  deinit {
    for request in requests { request.cancel() }
  }

  public var isLoginEnabled: Bool {
    let hasAccount = !(account ?? "").isEmpty
    let hasPassword = !(password ?? "").isEmpty
    return plantedBug ? hasAccount || hasPassword : hasAccount && hasPassword
  }

  /// The icon of the account: its URL once typed.
  public var iconURL: String? { account.map { "www:\($0)" } }

  /// Logs in with `password` unless a user is logged in or a login runs.
  public func login(password: String) {
    guard user == nil, !isLoggingIn else { return }
    isLoggingIn = true
    requests.append(
      Task { [self, loginAPI] in
        if let user = try? await loginAPI(password) { self.user = user }
        isLoggingIn = false
      })
  }

  /// Logs out unless nobody is logged in or a logout runs.
  public func logout() {
    guard user != nil, !isLoggingOut else { return }
    isLoggingOut = true
    requests.append(
      Task { [self, logoutAPI] in
        if (try? await logoutAPI()) != nil { user = nil }
        isLoggingOut = false
      })
  }
}
