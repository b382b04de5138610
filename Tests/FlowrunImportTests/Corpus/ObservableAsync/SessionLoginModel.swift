// Style: `@Observable` + async/await: fields as stored `var`s, a computed `canLogin`, an async
// `login()` that awaits a protocol-typed service declared in another module.
// Seen in: Apple's "Migrating from ObservableObject to Observable" guide and SwiftUI apps
// written since iOS 17.
import Foundation
import Observation

@Observable
final class SessionLoginModel {
  var username = ""
  var password = ""
  private(set) var isLoggingIn = false
  private(set) var token: String?

  @ObservationIgnored private let session: SessionService

  init(session: SessionService) {
    self.session = session
  }

  var canLogin: Bool { !username.isEmpty && password.count >= 8 && !isLoggingIn }

  func login() {
    guard canLogin else { return }
    isLoggingIn = true
    Task {
      if let token = try? await session.login(username: username, password: password) {
        self.token = token
      }
      isLoggingIn = false
    }
  }
}
