import FlowrunDiagnostics
import FlowrunImport
import FlowrunScenario
import Foundation
import Testing

/// The patterns that broke the importer on code it had never seen, each on the corpus file
/// that has it (docs/import.md §Measured on a corpus).
@Suite struct CorpusPatternTests {
  /// A placeholder that quotes Swift spread over lines stays inside its comment.
  @Test func sourceOverTwoLinesStaysInItsComment() {
    let source = """
      import Combine  // (the view model's library: not an import of this file)
      final class TwoLineViewModel {
        let taps = PassthroughSubject<Int, Never>()
        @Published private(set) var label = ""
        init() {
          taps
            .frobnicate(a: 1,
                        b: 2)
            .map { "\\($0)" }
            .assign(to: &$label)
        }
      }
      """
    let result = SwiftImporter.draft(path: "TwoLine.swift", source: source, scenarioPath: "TwoLine.yaml")
    let loaded = ScenarioLoader.load(path: "TwoLine.yaml", bytes: Array(result.scenario.utf8))
    #expect(!loaded.hasErrors, "\(result.scenario)")
    #expect(result.scenario.contains("<#'taps .frobnicate(a: 1, b: ' after this step#>"), "\(result.scenario)")
    #expect(!result.scenario.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "b: 2)" })
  }

  /// The last resort: a chain whose drafted steps do not load (here it assigns a subject that
  /// has no current value) is written as a placeholder that loads, its calls listed as not read.
  @Test func aChainThatDoesNotLoadIsAPlaceholder() {
    let source = """
      import Combine  // (the view model's library: not an import of this file)
      final class RelayViewModel {
        let taps = PassthroughSubject<Int, Never>()
        let events = PassthroughSubject<Int, Never>()
        private var cancellables = Set<AnyCancellable>()
        init() {
          taps
            .map { $0 + 1 }
            .sink { [weak self] value in self?.events.send(value) }
            .store(in: &cancellables)
        }
      }
      """
    let result = SwiftImporter.draft(path: "Relay.swift", source: source, scenarioPath: "Relay.yaml")
    let loaded = ScenarioLoader.load(path: "Relay.yaml", bytes: Array(result.scenario.utf8))
    #expect(!loaded.hasErrors, "\(result.scenario)")
    #expect(result.test != nil)
    #expect(
      result.scenario.contains(
        "- never: true  # Relay.swift:7 <#the steps drafted here (from, map, assign) did not load"))
    #expect(result.diagnostics.contains { $0.severity == .warning && $0.message.contains("written as a placeholder") })
    #expect(result.recognised == 0)
    #expect(
      result.summary.joined().contains(
        "<#not read: map at Relay.swift:7, sink at Relay.swift:7, store at Relay.swift:7#>"))
  }

  /// A call the importer has no row for is drafted from the library's own step table when it
  /// makes a step that loads (`collect(2)`, `reduce(0) { … }` of Combine).
  @Test func aStepOfTheDialectIsDrafted() {
    let source = """
      import Combine  // (the view model's library: not an import of this file)
      final class CollectViewModel {
        let taps = PassthroughSubject<Int, Never>()
        @Published private(set) var batches: [[Int]] = []
        @Published private(set) var total = 0
        init() {
          taps.collect(2).scan([]) { $0 + [$1] }.assign(to: &$batches)
          taps.reduce(0) { $0 + $1 }.assign(to: &$total)
        }
      }
      """
    let result = SwiftImporter.draft(path: "Collect.swift", source: source, scenarioPath: "Collect.yaml")
    #expect(result.recognised == result.total, "\(result.summary)")
    #expect(result.scenario.contains("- collect: 2  # Collect.swift:7 collect"))
    #expect(result.scenario.contains("- reduce: '$0 + $1'  # Collect.swift:8 reduce\n      seed: 0"))
    #expect(!ScenarioLoader.load(path: "Collect.yaml", bytes: Array(result.scenario.utf8)).hasErrors)
  }

  /// Two inline inputs of one chain, and two chains of one target, get names of their own.
  @Test func generatedNamesAreUnique() {
    let result = CorpusImportTests.draft("RAC2Combine/SignupCredentialsViewModel.swift")
    let signals = result.scenario.components(separatedBy: "\nsignals:\n").last?.components(separatedBy: "\n\n").first
    let names = (signals ?? "").split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
      .compactMap { $0.split(separator: ":").first.map(String.init) }
    #expect(names.count >= 6)
    #expect(Set(names).count == names.count, "\(names)")
    #expect(names.contains("  chain18Input1") && names.contains("  chain18Input2"), "\(names)")
  }

  /// A method that calls a protocol-typed service of another module and sets state in `sink`:
  /// a command calling the service (its answer's type read from the property it sets).
  @Test func serviceOfAnotherModuleIsACommand() {
    let result = CorpusImportTests.draft("Published/LoginFormViewModel.swift")
    #expect(result.summary.contains { $0.hasPrefix("command submit:") }, "\(result.summary)")
    #expect(result.scenario.contains("  auth.signIn:  # LoginFormViewModel.swift:29: answers String"))
    #expect(result.scenario.contains("- call: auth.signIn"))
    #expect(result.scenario.contains("- call: auth.signOut"))
  }

  /// `Driver`/`Signal` parameters of `init` are inputs, driven through the test's own relays.
  @Test func driverParametersOfInitAreInputs() throws {
    let result = CorpusImportTests.draft("RxDriver/SignInDriverViewModel.swift")
    #expect(result.scenario.contains("  init.username: {}"))
    #expect(result.scenario.contains("send: { init.username: \"username1\" }"))
    let test = try #require(result.test)
    #expect(test.contains("let username = PublishRelay<String>()"))
    #expect(test.contains("username: username.asDriver(onErrorJustReturn: \"\")"))
    #expect(test.contains("signInTaps: signInTaps.asSignal(onErrorJustReturn: ())"))
    #expect(test.contains("flow.drive(\"init.username\") { (value: String) in username.accept(value) }"))
    #expect(result.recognised == result.total, "\(result.summary)")
  }

  /// `handleEvents`/`do` that set members are effects on the chain so far; a side effect the
  /// draft cannot write (a call) is listed as not read, never counted as read.
  @Test func sideEffectsAreEffectsOrListed() {
    let contacts = CorpusImportTests.draft("RAC2Combine/ContactsSearchViewModel.swift")
    #expect(contacts.scenario.contains("set: { vm.isSearching: true }"), "\(contacts.scenario)")
    #expect(contacts.scenario.contains("  - on: vm_resultsEvents1") || contacts.scenario.contains("Events1"))
    let badge = CorpusImportTests.draft("Published/NotificationsBadgeViewModel.swift")
    #expect(badge.summary.joined().contains("handleEvents side effect at NotificationsBadgeViewModel.swift:17"))
    #expect(badge.recognised < badge.total)
  }

  /// An `internal` view model is imported with `@testable`; a `public` one is not.
  @Test func internalTypeIsTestableImported() throws {
    let internalTest = try #require(CorpusImportTests.draft("Published/CartViewModel.swift").test)
    #expect(internalTest.contains("@testable import Corpus\n"))
    let publicTest = try #require(CorpusImportTests.draft("RxDriver/SignInDriverViewModel.swift").test)
    #expect(publicTest.contains("\nimport Corpus\n"))
    #expect(!publicTest.contains("@testable"))
  }

  /// A concrete real-time scheduler type of `init` is a warning at the parameter with the change.
  @Test func concreteSchedulerTypeIsAWarning() {
    let result = CorpusImportTests.draft("Published/ProfileEditorViewModel.swift")
    let warning = result.diagnostics.first { $0.message.contains("is a real-time scheduler type") }
    #expect(warning?.location?.line == 17)
    #expect(warning?.message.contains("'<S: Scheduler>(…, scheduler: S)'") == true)
  }

  /// A `private` subject is driven through the method that sends to it.
  @Test(arguments: [
    (
      "RAC2Combine/LoginInputsOutputsViewModel.swift",
      "flow.drive(\"vm.emailSubject\") { (value: String) in viewModel.emailChanged(value) }"
    ),
    ("RxDriver/FollowButtonViewModel.swift", "flow.drive(\"vm.tapSubject\") { viewModel.followTapped() }"),
  ])
  func privateSubjectIsDrivenThroughItsMethod(_ example: (file: String, line: String)) throws {
    let result = CorpusImportTests.draft(example.file)
    let test = try #require(result.test)
    #expect(test.contains(example.line), "\(test)")
  }

  /// A nested `Action` enum: its cases are their names (`.refresh` is `"refresh"`).
  @Test func nestedActionEnumCasesAreNames() {
    let result = CorpusImportTests.draft("RxDriver/InboxActionViewModel.swift")
    #expect(result.scenario.contains("- filter: '$0 == \"refresh\"'"))
    #expect(result.scenario.contains("send: { vm.actions: \"refresh\" }"))
    // Its second binding of `unread` is an effect (a property is bound to one signal).
    #expect(result.scenario.contains("set: vm.unread"))
  }

  /// The minimum-display-time pattern: `Empty().delay(for:).append(x).prepend(y)` in a template.
  @Test func emptyDelayAppendPrependIsATemplate() {
    let result = CorpusImportTests.draft("RAC2Combine/ActivityHUDViewModel.swift")
    for step in ["- Empty: true", "- delay: 500ms", "- append: false", "- prepend: true"] {
      #expect(result.scenario.contains(step), "\(result.scenario)")
    }
    #expect(result.recognised == result.total)
  }
}
