import FlowrunTesting
import Testing
import ViewModels

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

/// The drafts of `flowrun-import` (`../Imported`, recorded from the view models as they are)
/// catch a change of the code: `throttle` swapped in for `debounce` in the search view model.
@Suite struct ImportedDraftTests {
  @Test func aSwappedOperatorFailsTheDraftedCheckWithTheDiff() throws {
    let failures = try ScenarioCheck.failures("Imported/SearchViewModel.yaml", root: #filePath) { flow in
      let search = flow.service("search", returning: [String].self)
      let viewModel = SearchViewModel(
        scheduler: flow.scheduler, search: { search($0).replaceError(with: []).eraseToAnyPublisher() },
        plantedBug: .throttleForDebounce)
      flow.drive("vm.query") { (value: String) in viewModel.query = value }
      flow.observe("vm.results", viewModel.$results)
    }
    #expect(failures.map(\.target) == ["vm.results", "search.calls"])
    let failure = try #require(failures.first)
    #expect(failure.line == 48)
    #expect(failure.lines.contains("expected a----b----b"), "\(failure.message)")
    #expect(failure.lines.contains("code     a-b----b"), "\(failure.message)")
    #expect(
      failure.lines.contains { $0.hasSuffix("^ frame 2: expected nothing (b at frame 5), got b") }, "\(failure.message)"
    )
  }
}
