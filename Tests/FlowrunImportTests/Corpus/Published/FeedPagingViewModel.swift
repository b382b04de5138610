// Style: `ObservableObject` + `@Published`: infinite scrolling with `isLoading` and
// `hasMorePages` guards, each page requested from an injected closure, appended in `sink`.
// Seen in: "infinite list in SwiftUI" articles and feed screens of social apps.
import Combine

final class FeedPagingViewModel: ObservableObject {
  @Published private(set) var posts: [String] = []
  @Published private(set) var isLoading = false
  @Published private(set) var hasMorePages = true
  private var page = 0
  private var cancellables = Set<AnyCancellable>()

  private let loadPage: (Int) -> AnyPublisher<[String], Never>

  init(loadPage: @escaping (Int) -> AnyPublisher<[String], Never>) {
    self.loadPage = loadPage
  }

  func loadMore() {
    guard !isLoading, hasMorePages else { return }
    isLoading = true
    loadPage(page + 1)
      .sink { [weak self] newPosts in
        guard let self else { return }
        self.posts += newPosts
        self.hasMorePages = !newPosts.isEmpty
        self.page += 1
        self.isLoading = false
      }
      .store(in: &cancellables)
  }
}
