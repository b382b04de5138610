// Style: `@Observable` `@MainActor` + async/await: `load()` awaits two services of a
// protocol (`async let`), a `ViewState` enum, a `retry()` that calls `load()`.
// Seen in: SwiftUI screens with loading/loaded/failed states in Observation-era tutorials.
import Observation

protocol ProfileAPI: Sendable {
  func profile(id: Int) async throws -> String
  func followers(id: Int) async throws -> Int
}

@Observable
@MainActor
final class ProfileLoaderModel {
  private(set) var name = ""
  private(set) var followers = 0
  private(set) var isLoading = false
  private(set) var failed = false
  @ObservationIgnored private let api: ProfileAPI
  @ObservationIgnored private let id: Int

  init(api: ProfileAPI, id: Int) {
    self.api = api
    self.id = id
  }

  func load() {
    isLoading = true
    Task {
      do {
        async let profile = api.profile(id: id)
        async let count = api.followers(id: id)
        name = try await profile
        followers = try await count
      } catch {
        failed = true
      }
      isLoading = false
    }
  }

  func retry() {
    failed = false
    load()
  }
}
