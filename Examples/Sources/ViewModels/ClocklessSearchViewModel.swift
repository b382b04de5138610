import Observation

/// Search as you type (scenarios/search/search-as-you-type.yaml) written as apps write it,
/// with no clock to inject: each keystroke cancels the task of the keystroke before, which
/// waits 300 ms with a plain `Task.sleep(for:)` (the debounce by hand); a settled query equal
/// to the last one requested is skipped, and a new request cancels the one before.
///
/// In a test, `ScenarioCheck` runs its sleeps on the scenario's frames with no change to the
/// code (docs/testing-real-code.md, "Sleeps on the default clocks").
@MainActor @Observable
public final class ClocklessSearchViewModel {
  /// A bug planted to show that the scenario catches it.
  public enum PlantedBug: Sendable, CaseIterable {
    /// A keystroke does not cancel the wait of the one before: every query goes on.
    case keystrokeDoesNotCancel
    /// The wait is 200 ms instead of 300.
    case shortWait
  }

  /// The search field: each set is a keystroke.
  public var query = "" {
    didSet { typed(query) }
  }
  public private(set) var results: [String]?

  @ObservationIgnored private var waiting: Task<Void, Never>?
  @ObservationIgnored private var request: Task<Void, Never>?
  @ObservationIgnored private var lastRequested: String?
  @ObservationIgnored private let search: @Sendable (String) async throws -> [String]
  @ObservationIgnored private let plantedBug: PlantedBug?

  public init(search: @escaping @Sendable (String) async throws -> [String], plantedBug: PlantedBug? = nil) {
    self.search = search
    self.plantedBug = plantedBug
  }

  deinit {
    waiting?.cancel()
    request?.cancel()
  }

  private func typed(_ query: String) {
    if plantedBug != .keystrokeDoesNotCancel { waiting?.cancel() }
    let wait = Duration.milliseconds(plantedBug == .shortWait ? 200 : 300)
    waiting = Task { [weak self] in
      do {
        try await Task.sleep(for: wait)
      } catch {
        return
      }
      self?.settled(query)
    }
  }

  private func settled(_ query: String) {
    guard query != lastRequested else { return }
    lastRequested = query
    request?.cancel()
    request = Task { [weak self, search] in
      guard let answer = try? await search(query), !Task.isCancelled else { return }
      self?.results = answer
    }
  }
}
