// Style: `@Observable` + async/await with swift-async-algorithms: the query fed into an
// `AsyncStream` by `didSet`, debounced in a `Task` started in `init`, each search a task that
// cancels the one before.
// Seen in: swift-async-algorithms' debounce examples and "search as you type" posts.
import AsyncAlgorithms
import Observation

@Observable
final class DebouncedSearchModel {
  var query = "" {
    didSet { continuation.yield(query) }
  }
  private(set) var results: [String] = []

  @ObservationIgnored private let continuation: AsyncStream<String>.Continuation
  @ObservationIgnored private var pipeline: Task<Void, Never>?
  @ObservationIgnored private var request: Task<Void, any Error>?

  init<C: Clock>(search: @escaping @Sendable (String) async throws -> [String], clock: C) where C.Duration == Duration {
    let (queries, continuation) = AsyncStream.makeStream(of: String.self)
    self.continuation = continuation
    pipeline = Task { [weak self] in
      for await query in queries.debounce(for: .milliseconds(300), clock: clock).removeDuplicates() {
        self?.request?.cancel()
        self?.request = Task {
          let found = try await search(query)
          self?.results = found
        }
      }
    }
  }
}
