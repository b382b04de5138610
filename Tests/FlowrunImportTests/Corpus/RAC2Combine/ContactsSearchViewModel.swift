// Style: RAC2-era MVVM ported to Combine: `throttle:` on the text signal become `debounce`, the
// scheduler hard-coded to the main queue as `deliverOnMainThread` was, the results bound with
// `sink` into a `@Published` array.
// Seen in: RAC2 search tutorials ported to Combine, with `DispatchQueue.main` kept.
import Combine
import Foundation

final class ContactsSearchViewModel {
  @Published var query = ""
  @Published private(set) var results: [String] = []
  @Published private(set) var isSearching = false

  private var cancellables = Set<AnyCancellable>()

  init(search: @escaping (String) -> AnyPublisher<[String], Never>) {
    $query
      .debounce(for: .milliseconds(250), scheduler: DispatchQueue.main)
      .removeDuplicates()
      .filter { $0.count >= 2 }
      .handleEvents(receiveOutput: { [weak self] _ in self?.isSearching = true })
      .map { search($0) }
      .switchToLatest()
      .receive(on: DispatchQueue.main)
      .sink { [weak self] found in
        self?.isSearching = false
        self?.results = found
      }
      .store(in: &cancellables)
  }
}
