import FlowrunImport
import FlowrunTestSupport
import Foundation
import Testing

/// The RxSwift view models of `Inputs/` (RxSwift is not in the package mirror, so their drafted
/// binding tests cannot be compiled here): their drafts and binding tests checked as text
/// against golden files (`Inputs/Drafts/`). `FLOWRUN_RECORD=1` rewrites them.
@Suite struct RxImportTests {
  static let inputs = ["RxLoginViewModel", "RxSearchViewModel", "RxActionViewModel"]

  @Test(arguments: inputs)
  func theDraftAndItsBindingTestAreTheGoldenOnes(_ name: String) throws {
    let result = ExamplesImportTests.draft(name)
    let test = try #require(result.test)
    let folder = packageRoot.appendingPathComponent("Tests/FlowrunImportTests/Inputs/Drafts")
    let files = [("\(name).yaml.golden", result.scenario), ("\(name)Tests.swift.golden", test)]
    for (file, text) in files {
      let url = folder.appendingPathComponent(file)
      if ProcessInfo.processInfo.environment["FLOWRUN_RECORD"] != nil {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        Issue.record("recorded \(url.path)")
        continue
      }
      #expect(try String(contentsOf: url, encoding: .utf8) == text, "FLOWRUN_RECORD=1 rewrites \(file)")
    }
  }

  /// RxSwift outputs are observed through `flow.output` (not placeholders); Action is a command
  /// enabled by its `enabledIf:` signal, and its `elements` are the command's values.
  @Test func outputsAndActionsAreWrittenOut() throws {
    let login = try #require(ExamplesImportTests.draft("RxLoginViewModel").test)
    #expect(!login.contains("<#$"), "\(login)")
    #expect(login.contains("let userOutput = flow.output(\"vm.user\", as: User?.self)"), "\(login)")
    #expect(login.contains("_ = viewModel.user.asObservable().subscribe(onNext: { userOutput.send($0) })"))
    #expect(login.contains("scheduler: FlowRxScheduler(flow: flow.scheduler)"), "\(login)")
    let action = ExamplesImportTests.draft("RxActionViewModel")
    #expect(action.recognised == action.total, "\(action.summary)")
    #expect(
      action.scenario.contains(
        """
          loginAction:  # RxActionViewModel.swift:25: 3 of 3 calls read
            enabled: isValid
            work:
              - call: api.login  # RxActionViewModel.swift:26 api.login(…)
                with: 'input'
        """), "\(action.scenario)")
    #expect(action.scenario.contains("- from: loginAction.values"), "\(action.scenario)")
  }
}
