// Checks the code against Imported/SearchViewModel.yaml
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

@Test func searchViewModelDraftedFromSearchViewModelSwift() throws {
  try ScenarioCheck.run("Imported/SearchViewModel.yaml", root: #filePath) { flow in
    let search = flow.service("search", returning: [String].self)
    let viewModel = SearchViewModel(scheduler: flow.scheduler, search: { search($0).replaceError(with: []).eraseToAnyPublisher() })
    flow.drive("vm.query") { (value: String) in viewModel.query = value }
    flow.observe("vm.results", viewModel.$results)
    // search.calls: the requests the code makes through `search`
  }
}
