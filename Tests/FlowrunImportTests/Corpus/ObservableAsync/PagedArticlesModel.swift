// Style: `@Observable` + async/await: `loadFirstPage()` and `loadNextPage()` as async methods
// guarded by `isLoading`, the articles appended after each await.
// Seen in: SwiftUI list + pagination articles written for the Observation framework.
import Observation

@Observable
@MainActor
final class PagedArticlesModel {
  private(set) var articles: [String] = []
  private(set) var isLoading = false
  private var nextPage = 1

  @ObservationIgnored private let fetch: @Sendable (Int) async throws -> [String]

  init(fetch: @escaping @Sendable (Int) async throws -> [String]) {
    self.fetch = fetch
  }

  func loadNextPage() {
    guard !isLoading else { return }
    isLoading = true
    Task {
      if let page = try? await fetch(nextPage) {
        articles = articles + page
      }
      isLoading = false
    }
  }
}
