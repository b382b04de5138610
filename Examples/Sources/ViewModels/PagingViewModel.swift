#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

/// A paged list (scenarios/paging/refresh-and-next-page.yaml): `refresh` loads page 1 and
/// resets the list; `nextPage` appends the next page, only while none is loading and the last
/// page was full (3 items); a failed page changes nothing.
public final class PagingViewModel {
  @Published public private(set) var items: [Int] = []
  @Published public private(set) var currentPage = 0
  @Published public private(set) var hasNextPage = true
  @Published public private(set) var isLoading = false

  private let feed: (Int) -> AnyPublisher<[Int], any Error>
  private let plantedBug: Bool
  private var request: AnyCancellable?
  public static var pageSize: Int { 3 }

  /// `plantedBug` writes `||` for `&&` in the rule of `nextPage`, to show that the scenario
  /// catches it.
  public init(feed: @escaping (Int) -> AnyPublisher<[Int], any Error>, plantedBug: Bool = false) {
    self.feed = feed
    self.plantedBug = plantedBug
  }

  public func refresh() {
    guard !isLoading else { return }
    load(page: 1, reset: true)
  }

  public func nextPage() {
    let allowed = plantedBug ? hasNextPage || !isLoading : hasNextPage && !isLoading
    guard allowed else { return }
    load(page: currentPage + 1, reset: false)
  }

  private func load(page: Int, reset: Bool) {
    isLoading = true
    request = feed(page)
      .sink(
        receiveCompletion: { [weak self] _ in self?.isLoading = false },
        receiveValue: { [weak self] page in
          guard let self else { return }
          items = reset ? page : items + page
          currentPage = reset ? 1 : currentPage + 1
          hasNextPage = page.count >= Self.pageSize
        })
  }
}
