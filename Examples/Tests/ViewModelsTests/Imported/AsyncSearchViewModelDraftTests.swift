// Checks the code against Imported/AsyncSearchViewModel.yaml
// (made by `flowrun init --swift`): fill in the <#placeholders#>; delete an `observe` to
// let the scenario's own model answer that expectation. The path is relative to the
// package of this file (root: #filePath).
import FlowrunTesting
import Testing
import ViewModels

@MainActor @Test func asyncSearchViewModelDraftedFromAsyncSearchViewModelSwift() throws {
  try ScenarioCheck.run("Imported/AsyncSearchViewModel.yaml", root: #filePath) { flow in
    let search = flow.asyncService("search", returning: [String].self)
    let viewModel = AsyncSearchViewModel(clock: flow.clock, search: { try await search($0) })
    flow.drive("vm.query") { (value: String) in viewModel.query = value }
    flow.observe("observed.results", of: viewModel, \.results)
    // search.calls: the requests the code makes through `search`
  }
}
