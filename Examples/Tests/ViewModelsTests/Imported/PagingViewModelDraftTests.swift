// Checks the code against Imported/PagingViewModel.yaml
// (made by `flowrun init --swift`): fill in the <#placeholders#>; delete an `observe` to
// let the scenario's own model answer that expectation. The path is relative to the
// package of this file (root: #filePath).
import FlowrunTesting
import Testing
import ViewModels

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

@Test func pagingViewModelDraftedFromPagingViewModelSwift() throws {
  try ScenarioCheck.run("Imported/PagingViewModel.yaml", root: #filePath) { flow in
    let feed = flow.service("feed", returning: [Int].self)
    let viewModel = PagingViewModel(feed: { feed($0).mapError { $0 as any Error }.eraseToAnyPublisher() })
    flow.drive("refresh") { viewModel.refresh() }
    flow.drive("nextPage") { viewModel.nextPage() }
    flow.observe("vm.items", viewModel.$items)
    flow.observe("vm.currentPage", viewModel.$currentPage)
    flow.observe("vm.hasNextPage", viewModel.$hasNextPage)
    flow.observe("vm.isLoading", viewModel.$isLoading)
    // feed.calls: the requests the code makes through `feed`
  }
}
