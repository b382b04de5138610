import FlowrunTesting
import Testing
import ViewModels

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

@Suite struct SearchViewModelTests {
  static let scenario = Teaching.path("search/search-as-you-type.yaml")

  private static func bind(_ flow: Flow, plantedBug: SearchViewModel<FlowScheduler>.PlantedBug?) {
    let api = flow.service("searchAPI", returning: [String].self)
    let vm = SearchViewModel(
      scheduler: flow.scheduler, search: { api($0).replaceError(with: []).eraseToAnyPublisher() },
      plantedBug: plantedBug)
    flow.drive("queryText") { vm.query = $0 }
    flow.observe("resultsTable.items", vm.$results)
  }

  @Test func debounceRemoveDuplicatesAndSwitchToLatest() throws {
    try ScenarioCheck.run(Self.scenario, root: #filePath) { Self.bind($0, plantedBug: nil) }
  }

  struct Planted: Sendable, CustomTestStringConvertible {
    var bug: SearchViewModel<FlowScheduler>.PlantedBug
    /// The expectations that fail, in file order, and the first difference of the first.
    var failing: [String]
    var line: Int
    var code: String
    var caret: String
    var testDescription: String { "\(bug)" }
  }

  @Test(arguments: [
    // throttle sends "s" at once and "swift" 300 ms later: two early requests.
    Planted(
      bug: .throttleForDebounce, failing: ["searchAPI.calls", "resultsTable.items"], line: 59,
      code: "code     -a--c---d--c---e---f", caret: "^ frame 1: expected nothing (c at frame 6), got a"),
    // flatMap keeps the stale "swiftui" request: its answer reaches the table.
    Planted(
      bug: .flatMapForSwitchToLatest, failing: ["resultsTable.items"], line: 60,
      code: "code     n----------R-----------g---X",
      caret: "^ frame 23: expected nothing (X at frame 27), got g"),
    // without removeDuplicates the same query "swift" is requested again at 12.
    Planted(
      bug: .missingRemoveDuplicates, failing: ["searchAPI.calls", "resultsTable.items"], line: 59,
      code: "code     ------c-----c-----e---f", caret: "^ frame 12: expected nothing (e at frame 18), got c"),
  ])
  func aPlantedBugIsCaught(_ planted: Planted) throws {
    let failures = try ScenarioCheck.failures(Self.scenario, root: #filePath) { Self.bind($0, plantedBug: planted.bug) }
    #expect(failures.map(\.target) == planted.failing)
    let failure = try #require(failures.first)
    #expect(failure.line == planted.line)
    #expect(failure.lines.contains(planted.code), "\(failure.message)")
    #expect(failure.lines.contains { $0.hasSuffix(planted.caret) }, "\(failure.message)")
  }
}
