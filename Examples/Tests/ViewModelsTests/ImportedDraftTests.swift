import FlowrunTesting
import Testing
import ViewModels

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

/// The drafts of `flowrun-import` (`../Imported`, recorded from the view models as they are)
/// catch a change of the code: `throttle` swapped in for `debounce` in the search view model,
/// `_throttle` for `debounce` in its async twin, `||` for `&&` in the sign-up button's rule and
/// in the paging's `nextPage` guard (the draft executes `nextPage` again while it runs).
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

  @MainActor @Test func aSwappedAsyncOperatorFailsTheDraftedCheckWithTheDiff() throws {
    let failures = try ScenarioCheck.failures("Imported/AsyncSearchViewModel.yaml", root: #filePath) { flow in
      let search = flow.asyncService("search", returning: [String].self)
      let viewModel = AsyncSearchViewModel(
        clock: flow.clock, search: { try await search($0) }, plantedBug: .throttleForDebounce)
      flow.drive("vm.query") { (value: String) in viewModel.query = value }
      flow.observe("observed.results", of: viewModel, \.results)
    }
    #expect(failures.map(\.target) == ["observed.results", "search.calls"])
    let failure = try #require(failures.first)
    #expect(failure.line == 38)
    #expect(failure.lines.contains("expected a----b"), "\(failure.message)")
    #expect(failure.lines.contains("code     a-b"), "\(failure.message)")
    #expect(
      failure.lines.contains { $0.hasSuffix("^ frame 2: expected nothing (b at frame 5), got b") }, "\(failure.message)"
    )
  }

  @Test func aPlantedOrFailsTheDraftedSignUpCheckWithTheDiff() throws {
    let failures = try ScenarioCheck.failures("Imported/SignUpViewModel.yaml", root: #filePath) { flow in
      let viewModel = SignUpViewModel(plantedBug: true)
      flow.drive("vm.username") { (value: String) in viewModel.username.send(value) }
      flow.drive("vm.password") { (value: String) in viewModel.password.send(value) }
      flow.drive("vm.repeatedPassword") { (value: String) in viewModel.repeatedPassword.send(value) }
      flow.observe("vm.isSignUpEnabled", viewModel.isSignUpEnabled)
    }
    #expect(failures.map(\.target) == ["vm.isSignUpEnabled"])
    let failure = try #require(failures.first)
    #expect(failure.line == 46)
    #expect(failure.lines.contains("expected ---------a-b"), "\(failure.message)")
    #expect(failure.lines.contains("code     ---------b-b"), "\(failure.message)")
    #expect(failure.lines.contains { $0.hasSuffix("^ frame 9: expected a, got b") }, "\(failure.message)")
    #expect(failure.lines.contains("legend: a = false, b = true"), "\(failure.message)")
  }

  @Test func aPlantedOrFailsTheDraftedPagingCheckWithTheDiff() throws {
    let failures = try ScenarioCheck.failures("Imported/PagingViewModel.yaml", root: #filePath) { flow in
      let feed = flow.service("feed", returning: [Int].self)
      let viewModel = PagingViewModel(feed: feed.anyError, plantedBug: true)
      flow.drive("refresh") { viewModel.refresh() }
      flow.drive("nextPage") { viewModel.nextPage() }
      flow.observe("vm.items", viewModel.$items)
      flow.observe("vm.currentPage", viewModel.$currentPage)
      flow.observe("vm.hasNextPage", viewModel.$hasNextPage)
      flow.observe("vm.isLoading", viewModel.$isLoading)
    }
    // The second `nextPage` of frame 3 gets through: a second request, and the flag raised again.
    #expect(failures.map(\.target) == ["vm.isLoading", "feed.calls"])
    let failure = try #require(failures.last)
    #expect(failure.line == 72)
    #expect(failure.lines.contains("expected -1-2"), "\(failure.message)")
    #expect(failure.lines.contains("code     -1-(22)"), "\(failure.message)")
    #expect(failure.lines.contains { $0.hasSuffix("^ frame 3: expected nothing, got 2") }, "\(failure.message)")
  }
}
