import FlowrunTesting
import Testing
import ViewModels

/// A view model that takes no clock: its `Task.sleep(for:)` runs on the scenario's frames.
@MainActor @Suite struct ClocklessSearchViewModelTests {
  static let scenario = Teaching.path("search/search-as-you-type.yaml")

  private static func bind(_ flow: Flow, plantedBug: ClocklessSearchViewModel.PlantedBug?) {
    let api = flow.asyncService("searchAPI", returning: [String].self)
    let vm = ClocklessSearchViewModel(search: { try await api($0) }, plantedBug: plantedBug)
    flow.drive("queryText") { vm.query = $0 }
    flow.observe("resultsTable.items", of: vm, \.results)
  }

  @Test func plainTaskSleepDebouncesOnTheScenariosFrames() throws {
    try ScenarioCheck.run(Self.scenario, root: #filePath) { Self.bind($0, plantedBug: nil) }
  }

  @Test(arguments: [
    // every keystroke's wait goes on: "s" at 4, "sw" at 5.
    (ClocklessSearchViewModel.PlantedBug.keystrokeDoesNotCancel, "code     ----abc----dc-----e---f"),
    // 200 ms: "swift" is requested at 5, one frame early.
    (.shortWait, "code     -----c-----------e---f"),
  ])
  func aPlantedBugIsCaught(_ bug: ClocklessSearchViewModel.PlantedBug, code: String) throws {
    let failures = try ScenarioCheck.failures(Self.scenario, root: #filePath) { Self.bind($0, plantedBug: bug) }
    let failure = try #require(failures.first)
    #expect(failure.target == "searchAPI.calls")
    #expect(failure.line == 59)
    #expect(failure.lines.contains(code), "\(failure.message)")
  }

  /// swift-async-algorithms' `debounce` given `ContinuousClock()`, not `flow.clock`: its sleeps
  /// go to the frames, but it compares its deadline with `clock.now`, which stays real time
  /// during a run, so it sleeps again and again until the real clock catches up (thousands of
  /// virtual seconds later). A known limit: give such operators `flow.clock`
  /// (docs/testing-real-code.md, "What no hook changes").
  @Test func asyncAlgorithmsDebounceOnContinuousClockNeedsFlowClock() throws {
    let failures = try ScenarioCheck.failures(Self.scenario, exhaustivity: .off) { flow in
      let api = flow.asyncService("searchAPI", returning: [String].self)
      let vm = AsyncSearchViewModel(clock: ContinuousClock(), search: { try await api($0) })
      flow.drive("queryText") { vm.query = $0 }
      flow.observe("resultsTable.items", of: vm, \.results)
    }
    // Where its lanes end depends on the real time the run takes; that they fail does not.
    #expect(failures.map(\.target) == ["searchAPI.calls", "resultsTable.items"])
  }
}
