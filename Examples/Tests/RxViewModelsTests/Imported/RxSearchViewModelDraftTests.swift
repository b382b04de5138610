// Checks the code against Imported/RxSearchViewModel.yaml
// (made by `flowrun init --swift`): fill in the <#placeholders#>; delete an `observe` to
// let the scenario's own model answer that expectation. The path is relative to the
// package of this file (root: #filePath).
import FlowrunTesting
import Testing
import RxViewModels
import RxSwift

@Test func rxSearchViewModelDraftedFromRxSearchViewModelSwift() throws {
  try ScenarioCheck.run("Imported/RxSearchViewModel.yaml", root: #filePath) { flow in
    let servicesearch = flow.service("service.search", returning: [String].self)
    struct StubSearchService: SearchService {
      let servicesearch: FlowService<[String]>
      func search(_ query: String) -> Single<[String]> {
        servicesearch(query).asObservable().asSingle()
      }
    }
    // Drivers observe on the sharing scheduler taken when they are made: the run's, not the main queue.
    let scheduler = FlowRxScheduler(flow: flow.scheduler)
    let viewModel = withSharingScheduler(scheduler) { RxSearchViewModel(service: StubSearchService(servicesearch: servicesearch), scheduler: scheduler) }
    flow.drive("vm.query") { (value: String) in viewModel.query.accept(value) }
    let resultsOutput = flow.output("vm.results", as: [String].self)
    _ = viewModel.results.asObservable().subscribe(onNext: { resultsOutput.send($0) })
    // service.search.calls: the requests the code makes through `servicesearch`
  }
}
