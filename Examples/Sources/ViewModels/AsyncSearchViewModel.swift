import AsyncAlgorithms
import Observation

/// Search as you type (scenarios/search/search-as-you-type.yaml) with async/await and
/// swift-async-algorithms: the typed queries are an `AsyncStream`, debounced by 300 ms on
/// `clock`, without repeats; each query's request cancels the one before (flatMapLatest by
/// hand), and `results` is an `@Observable` property.
///
/// It is isolated to the main actor, as an app's view model is; in a test, the run's
/// `AsyncRuntime` runs its main-actor jobs among the run's others (docs/testing-real-code.md,
/// "Async code").
@MainActor @Observable
public final class AsyncSearchViewModel<C: Clock> where C.Duration == Duration {
  /// A bug planted to show that the scenario catches it.
  public enum PlantedBug: Sendable, CaseIterable {
    /// `_throttle` for `debounce`.
    case throttleForDebounce
    /// A new query does not cancel the request before it (a stale answer gets through).
    case noCancellation
    /// No `removeDuplicates` (the same query is requested twice).
    case missingRemoveDuplicates
  }

  /// The search field: each set is a typed query.
  public var query = "" {
    didSet { typed.yield(query) }
  }
  public private(set) var results: [String]?

  @ObservationIgnored private let typed: AsyncStream<String>.Continuation
  @ObservationIgnored private var pipeline: Task<Void, Never>?
  @ObservationIgnored private var request: Task<Void, Never>?
  @ObservationIgnored private let search: @Sendable (String) async throws -> [String]
  @ObservationIgnored private let plantedBug: PlantedBug?

  public init(
    clock: C, search: @escaping @Sendable (String) async throws -> [String], plantedBug: PlantedBug? = nil
  ) {
    let (queries, typed) = AsyncStream.makeStream(of: String.self)
    self.typed = typed
    self.search = search
    self.plantedBug = plantedBug
    pipeline = Task { [weak self] in
      let interval = Duration.milliseconds(300)
      switch plantedBug {
      case .throttleForDebounce:
        await self?.run(queries._throttle(for: interval, clock: clock, latest: true).removeDuplicates())
      case .missingRemoveDuplicates:
        await self?.run(queries.debounce(for: interval, clock: clock))
      case .noCancellation, nil:
        await self?.run(queries.debounce(for: interval, clock: clock).removeDuplicates())
      }
    }
  }

  deinit {
    pipeline?.cancel()
    request?.cancel()
  }

  private func run<S: AsyncSequence>(_ queries: S) async where S.Element == String {
    do {
      for try await query in queries {
        if plantedBug != .noCancellation { request?.cancel() }
        request = Task { [weak self, search] in
          do {
            let answer = try await search(query)
            self?.results = answer
          } catch {}
        }
      }
    } catch {}
  }
}
