import FlowrunTesting
import Moya
import RxSwift
import RxViewModels
import Testing

/// The drafts of `flowrun-import` for the RxSwift view models (`../../Imported`, recorded from
/// the code as it is) catch a change of the code: `debounce` swapped in for `throttle` in the
/// search, and `||` for `&&` in the login button's rule. The bindings are the drafted tests'.
@Suite struct RxImportedDraftTests {
  @Test func aSwappedOperatorFailsTheDraftedSearchCheckWithTheDiff() throws {
    let failures = try ScenarioCheck.failures("Imported/RxSearchViewModel.yaml", root: #filePath) { flow in
      let servicesearch = flow.service("service.search", returning: [String].self)
      let scheduler = FlowRxScheduler(flow: flow.scheduler)
      let viewModel = withSharingScheduler(scheduler) {
        RxSearchViewModel(service: Search(answer: servicesearch), scheduler: scheduler, plantedBug: true)
      }
      flow.drive("vm.query") { (value: String) in viewModel.query.accept(value) }
      let resultsOutput = flow.output("vm.results", as: [String].self)
      _ = viewModel.results.asObservable().subscribe(onNext: { resultsOutput.send($0) })
    }
    #expect(failures.map(\.target) == ["vm.results", "service.search.calls"])
    let failure = try #require(failures.first)
    #expect(failure.lines.contains("expected --a------a"), "\(failure.message)")
    #expect(failure.lines.contains("code     -------a------a"), "\(failure.message)")
    #expect(
      failure.lines.contains { $0.hasSuffix("^ frame 2: expected a, got nothing (a at frame 7)") }, "\(failure.message)"
    )
  }

  @Test func aPlantedOrFailsTheDraftedLoginCheckWithTheDiff() throws {
    let failures = try ScenarioCheck.failures("Imported/RxLoginViewModel.yaml", root: #filePath) { flow in
      let providerlogin = flow.service("provider.login", returning: User.self)
      let provider = MoyaProvider<LoginAPI>.answered { target in
        if case .login(let value) = target { return providerlogin(value).json() }
        return nil
      }
      let scheduler = FlowRxScheduler(flow: flow.scheduler)
      let viewModel = withSharingScheduler(scheduler) {
        RxLoginViewModel(provider: provider, scheduler: scheduler, plantedBug: true)
      }
      flow.drive("vm.account") { (value: String) in viewModel.account.accept(value) }
      flow.drive("vm.password") { (value: String) in viewModel.password.accept(value) }
      flow.drive("vm.loginTaps") { viewModel.loginTaps.accept(()) }
      let enabled = flow.output("vm.isLoginEnabled", as: Bool.self)
      _ = viewModel.isLoginEnabled.asObservable().subscribe(onNext: { enabled.send($0) })
    }
    #expect(failures.map(\.target) == ["vm.isLoginEnabled"])
    let failure = try #require(failures.first)
    #expect(failure.lines.contains("expected a----------b"), "\(failure.message)")
    #expect(failure.lines.contains("code     ab"), "\(failure.message)")
    #expect(
      failure.lines.contains { $0.hasSuffix("^ frame 1: expected nothing (b at frame 11), got b") },
      "\(failure.message)")
    #expect(failure.lines.contains("legend: a = false, b = true"), "\(failure.message)")
  }
}

/// The search service answered by the scenario's `service.search`, as the drafted test's stub.
private struct Search: SearchService {
  let answer: FlowService<[String]>

  func search(_ query: String) -> Single<[String]> {
    answer(query).asObservable().asSingle()
  }
}

extension ScenarioCheck.Failure {
  /// The diff's lines, without their indentation.
  var lines: [String] {
    message.split(separator: "\n").map { $0.trimmingPrefix("  ") }.map(String.init)
  }
}
