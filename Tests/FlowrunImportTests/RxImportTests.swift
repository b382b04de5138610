import FlowrunImport
import FlowrunTestSupport
import Foundation
import Testing

/// The RxSwift view models of the Examples package (`Sources/RxViewModels`): what their drafted
/// binding tests say in RxSwift's, Action's and Moya's words. The Examples package compiles and
/// runs those tests against the code (`Tests/RxViewModelsTests/Imported`); the committed drafts
/// are checked by `ExamplesImportTests.theCommittedDraftIsTheImportersOutput`.
@Suite struct RxImportTests {
  /// RxSwift outputs are observed through `flow.output` (not placeholders); Action is a command
  /// enabled by its `enabledIf:` signal, and its `elements` are the command's values.
  @Test func outputsAndActionsAreWrittenOut() throws {
    let login = try #require(ExamplesImportTests.draft("RxLoginViewModel").test)
    #expect(!login.contains("<#provider#>") && !login.contains("<#$"), "\(login)")
    #expect(login.contains("let userOutput = flow.output(\"vm.user\", as: User?.self)"), "\(login)")
    #expect(login.contains("_ = viewModel.user.asObservable().subscribe(onNext: { userOutput.send($0) })"))
    let action = ExamplesImportTests.draft("RxActionViewModel")
    #expect(action.recognised == action.total, "\(action.summary)")
    #expect(
      action.scenario.contains(
        """
          loginAction:  # RxActionViewModel.swift:24: 3 of 3 calls read
            enabled: isValid
            work:
              - call: api.login  # RxActionViewModel.swift:25 api.login(…)
                with: 'input'
        """), "\(action.scenario)")
    #expect(action.scenario.contains("- from: loginAction.values"), "\(action.scenario)")
  }

  /// A view model that makes Drivers is made under `SharingScheduler.mock` with the run's
  /// scheduler, which its scheduler parameter gets too; one without Drivers gets none.
  @Test func driversAreMadeOnTheRunsScheduler() throws {
    let search = try #require(ExamplesImportTests.draft("RxSearchViewModel").test)
    #expect(search.contains("    let scheduler = FlowRxScheduler(flow: flow.scheduler)\n"), "\(search)")
    #expect(
      search.contains(
        "    let viewModel = withSharingScheduler(scheduler) { RxSearchViewModel(service: StubSearchService("
          + "servicesearch: servicesearch), scheduler: scheduler) }\n"), "\(search)")
    let action = try #require(ExamplesImportTests.draft("RxActionViewModel").test)
    #expect(!action.contains("withSharingScheduler"), "\(action)")
  }

  /// A `Void` answer (`logout() -> Single<Void>`) is taken as `FlowVoid`, which decodes, and
  /// mapped to `()`; a `Void` input (`PublishRelay<Void>`) is driven without a value.
  @Test func voidAnswersAndInputsCompile() throws {
    let action = try #require(ExamplesImportTests.draft("RxActionViewModel").test)
    #expect(action.contains("let apilogout = flow.service(\"api.logout\", returning: FlowVoid.self)"), "\(action)")
    #expect(action.contains("  let apilogout: FlowService<FlowVoid>"), "\(action)")
    #expect(action.contains("apilogout().asObservable().map { _ in }.asSingle()"), "\(action)")
    #expect(!action.contains("returning: Void.self"), "\(action)")
    let login = try #require(ExamplesImportTests.draft("RxLoginViewModel").test)
    #expect(login.contains("flow.drive(\"vm.loginTaps\") { viewModel.loginTaps.accept(()) }"), "\(login)")
  }

  /// A `MoyaProvider<Target>` parameter is a provider answered by the scenario's services, one
  /// `if case` per target case the chains request, with the case's associated values as the
  /// request.
  @Test func aMoyaProviderIsAnsweredByTheScenariosServices() throws {
    let login = try #require(ExamplesImportTests.draft("RxLoginViewModel").test)
    #expect(
      login.contains(
        """
            let provider = MoyaProvider<LoginAPI>.answered { target in
              if case .login(let value) = target { return providerlogin(value).json() }
              return nil
            }
        """), "\(login)")
    #expect(login.contains("RxLoginViewModel(provider: provider, scheduler: scheduler)"), "\(login)")
    #expect(login.contains("import Moya\n"), "\(login)")
  }
}
