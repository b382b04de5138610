import FlowrunTesting
import Testing
import ViewModels

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

@Suite struct PagingViewModelTests {
  static let scenario = Teaching.path("paging/refresh-and-next-page.yaml")

  /// The list, its page and its end from the code; the commands' `enabled` and `executing`
  /// stay checked by the scenario's model.
  private static func bind(_ flow: Flow, plantedBug: Bool) {
    let feed = flow.service("feed", returning: [Int].self)
    let vm = PagingViewModel(feed: feed.anyError, plantedBug: plantedBug)
    flow.drive("refresh") { vm.refresh() }
    flow.drive("nextPage") { vm.nextPage() }
    flow.observe("vm.items", vm.$items)
    flow.observe("vm.currentPage", vm.$currentPage)
    flow.observe("vm.hasNextPage", vm.$hasNextPage)
  }

  @Test func refreshNextPagesAFailedPageAndTheEnd() throws {
    try ScenarioCheck.run(Self.scenario, root: #filePath) { Self.bind($0, plantedBug: false) }
  }

  /// `||` for `&&`: a tap while page 2 loads requests it again.
  @Test func aPlantedOrIsCaught() throws {
    let failures = try ScenarioCheck.failures(Self.scenario, root: #filePath) { Self.bind($0, plantedBug: true) }
    let failure = try #require(failures.first)
    #expect(failure.target == "feed.calls")
    #expect(failure.lines.contains("expected -1---2---2---3-----1"), "\(failure.message)")
    #expect(
      failure.lines.contains { $0.hasSuffix("^ frame 6: expected nothing (2 at frame 9), got 2") }, "\(failure.message)"
    )
  }
}
