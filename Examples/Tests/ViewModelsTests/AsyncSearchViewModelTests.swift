import FlowrunTesting
import Testing
import ViewModels

@MainActor @Suite struct AsyncSearchViewModelTests {
  static let scenario = Teaching.path("search/search-as-you-type.yaml")
  typealias ViewModel = AsyncSearchViewModel<FrameClock>

  private static func bind(_ flow: Flow, plantedBug: ViewModel.PlantedBug?) {
    let api = flow.asyncService("searchAPI", returning: [String].self)
    let vm = ViewModel(clock: flow.clock, search: { try await api($0) }, plantedBug: plantedBug)
    flow.drive("queryText") { vm.query = $0 }
    flow.observe("resultsTable.items", of: vm, \.results)
  }

  @Test func debounceRemoveDuplicatesAndCancelledRequests() throws {
    try ScenarioCheck.run(Self.scenario, root: #filePath) { Self.bind($0, plantedBug: nil) }
  }

  /// The runtime runs the code's tasks one at a time in a defined order: a thousand runs of a
  /// failing check (so that the report has lanes to compare) write the same bytes.
  @Test func aThousandRunsGiveByteIdenticalReports() throws {
    let first = try Self.report(plantedBug: .noCancellation)
    #expect(!first.isEmpty)
    for _ in 1..<1_000 {
      let report = try Self.report(plantedBug: .noCancellation)
      guard report == first else {
        Issue.record("a run differs:\n\(report)\nfrom the first:\n\(first)")
        return
      }
    }
  }

  private static func report(plantedBug: ViewModel.PlantedBug?) throws -> [UInt8] {
    let failures = try ScenarioCheck.failures(scenario, root: #filePath) { bind($0, plantedBug: plantedBug) }
    return Array(failures.map(\.message).joined(separator: "\n").utf8)
  }
}

extension AsyncSearchViewModelTests {
  struct Planted: Sendable, CustomTestStringConvertible {
    var bug: ViewModel.PlantedBug
    /// The expectations that fail, in file order, and the first difference of the first.
    var failing: [String]
    var line: Int
    var code: String
    var caret: String
    var testDescription: String { "\(bug)" }
  }

  @Test(arguments: [
    // _throttle is pull-based: "s" goes on at once, then the latest query after each 300 ms.
    Planted(
      bug: .throttleForDebounce, failing: ["searchAPI.calls", "resultsTable.items"], line: 59,
      code: "code     -a------d------e---f", caret: "^ frame 1: expected nothing (c at frame 6), got a"),
    // the stale "swiftui" request is not cancelled: its answer reaches the table.
    Planted(
      bug: .noCancellation, failing: ["resultsTable.items"], line: 60,
      code: "code     n----------R-----------g---X",
      caret: "^ frame 23: expected nothing (X at frame 27), got g"),
    // without removeDuplicates the same query "swift" is requested again at 12.
    Planted(
      bug: .missingRemoveDuplicates, failing: ["searchAPI.calls"], line: 59,
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
