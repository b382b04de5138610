#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

/// Search as you type (scenarios/search/search-as-you-type.yaml): waits for a 300 ms pause,
/// skips a query equal to the last one, and cancels a stale request when a new query goes on.
public final class SearchViewModel<S: Scheduler> {
  /// A bug planted to show that the scenario catches it.
  public enum PlantedBug: Sendable, CaseIterable {
    /// `throttle` for `debounce`.
    case throttleForDebounce
    /// `flatMap` for `switchToLatest` (a stale answer is not cancelled).
    case flatMapForSwitchToLatest
    /// No `removeDuplicates` (the same query is requested twice).
    case missingRemoveDuplicates
  }

  @Published public var query = ""
  @Published public private(set) var results: [String]?

  public init(
    scheduler: S, search: @escaping (String) -> AnyPublisher<[String], Never>, plantedBug: PlantedBug? = nil
  ) {
    let typed = $query.dropFirst()
    let settled: AnyPublisher<String, Never> =
      plantedBug == .throttleForDebounce
      ? typed.throttle(for: .milliseconds(300), scheduler: scheduler, latest: true).eraseToAnyPublisher()
      : typed.debounce(for: .milliseconds(300), scheduler: scheduler).eraseToAnyPublisher()
    let queries =
      plantedBug == .missingRemoveDuplicates ? settled : settled.removeDuplicates().eraseToAnyPublisher()
    let answers: AnyPublisher<[String], Never> =
      plantedBug == .flatMapForSwitchToLatest
      ? queries.flatMap { search($0) }.eraseToAnyPublisher()
      : queries.map { search($0) }.switchToLatest().eraseToAnyPublisher()
    answers.map { Optional($0) }.assign(to: &$results)
  }
}
