import FlowrunDiagnostics
import FlowrunScenario
import Testing

@testable import FlowrunImport

/// Findings at their place: the `1️⃣` in the Swift input is where the whole message points.
@Suite struct SwiftImporterTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var swift: String
    /// The message after `path:line:column: `.
    var message: String
    var testDescription: String { name }
  }

  /// A Combine view model (a file without imports is read as Combine).
  static let header = """
    final class ViewModel {
      @Published var query = ""
      @Published private(set) var results: [String] = []

      init(search: @escaping (String) -> AnyPublisher<[String], Never>) {

    """

  @Test(arguments: [
    Case(
      name: "DispatchQueue.main",
      swift: header
        + "    $query.debounce(for: .milliseconds(300), scheduler: 1️⃣DispatchQueue.main).assign(to: &$results)\n  }\n}\n",
      message:
        "warning: 'DispatchQueue.main' runs on real time, which stops virtual time: take a 'scheduler: S' (S: Scheduler) in the initializer and pass flow.scheduler in the test"
    ),
    Case(
      name: "RunLoop.main",
      swift: header + "    $query.receive(on: 1️⃣RunLoop.main).map { [$0] }.assign(to: &$results)\n  }\n}\n",
      message:
        "warning: 'RunLoop.main' runs on real time, which stops virtual time: take a 'scheduler: S' (S: Scheduler) in the initializer and pass flow.scheduler in the test"
    ),
    Case(
      name: "MainScheduler.instance",
      swift: header
        + "    $query.debounce(.milliseconds(300), scheduler: 1️⃣MainScheduler.instance).assign(to: &$results)\n  }\n}\n",
      message:
        "warning: 'MainScheduler.instance' runs on real time, which stops virtual time: take a 'scheduler: SchedulerType' in the initializer and pass a virtual-time scheduler in the test"
    ),
    Case(
      name: "ContinuousClock()",
      swift: header
        + "    $query.debounce(for: .seconds(1), clock: 1️⃣ContinuousClock()).assign(to: &$results)\n  }\n}\n",
      message:
        "warning: 'ContinuousClock()' runs on real time, which stops virtual time: take a 'clock: some Clock<Duration>' in the initializer and pass a virtual-time clock in the test"
    ),
    Case(
      name: "an operator no row reads",
      swift: header + "    $query.1️⃣frobnicate().map { [$0] }.assign(to: &$results)\n  }\n}\n",
      message: "warning: the draft cannot read 'frobnicate': left to fill in"
    ),
    Case(
      name: "an opaque closure",
      swift: header + "    $query.map { q in 1️⃣lookup(q) }.assign(to: &$results)\n  }\n}\n",
      message:
        "warning: the draft cannot write this closure as an expression (the function 'lookup'): left to fill in"
    ),
    Case(
      name: "a parse error",
      swift: "final class ViewModel {\n  @Published var query = \"\"\n  init() { $query.map 1️⃣) }\n}\n",
      message: "error: the Swift parser cannot read ')'"
    ),
  ])
  func findingsAreAtTheirPlace(_ test: Case) throws {
    let marked = MarkedText(test.swift)
    let result = SwiftImporter.draft(path: "ViewModel.swift", source: marked.text, scenarioPath: "ViewModel.yaml")
    let headlines = result.diagnostics.map(\.headline)
    #expect(headlines.contains("ViewModel.swift:\(marked.line):\(marked.column): \(test.message)"), "\(headlines)")
  }

  @Test func everyCallIsCountedAndTheUnreadOnesAreNamed() throws {
    let source = Self.header + "    $query.frobnicate().removeDuplicates().map { [$0] }.assign(to: &$results)\n  }\n}\n"
    let result = SwiftImporter.draft(path: "ViewModel.swift", source: source, scenarioPath: "ViewModel.yaml")
    #expect(result.recognised == 3)
    #expect(result.total == 4)
    #expect(
      result.summary == [
        "signal results: ViewModel.swift:6: 3 of 4 calls read <#not read: frobnicate at ViewModel.swift:6#>"
      ])
  }

  @Test func closuresBecomeExpressions() throws {
    let source = """
      final class FormViewModel {
        @Published var name: String?
        @Published var password = ""
        @Published private(set) var isValid = false
        @Published private(set) var greeting = ""

        init(strict: Bool = false) {
          $name.combineLatest($password)
            .map { name, password in
              let hasName = !(name ?? "").isEmpty
              return strict ? hasName && password.count >= 8 : hasName && password.count >= 6
            }
            .removeDuplicates()
            .assign(to: &$isValid)
          $name.map { name in name.map { "Hello \\($0)" } ?? "Hello" }.assign(to: &$greeting)
        }
      }
      """
    let result = SwiftImporter.draft(path: "FormViewModel.swift", source: source, scenarioPath: "Form.yaml")
    #expect(result.diagnostics.map(\.rendered) == [])
    #expect(
      result.scenario.contains(
        "- map: 'false ? (!($0 ?? \"\").isEmpty) && $1.count >= 8 : (!($0 ?? \"\").isEmpty) && $1.count >= 6'"
      ), "\(result.scenario)")
    #expect(
      result.scenario.contains("- map: '($0 == nil ? nil : \"Hello \\(($0))\") ?? \"Hello\"'"), "\(result.scenario)")
  }

  /// A protocol-typed service whose methods the chains all call gets a conforming stub in the
  /// test; a protocol with a method no chain calls stays a placeholder.
  @Test(arguments: [true, false])
  func aProtocolServiceGetsAStub(allRead: Bool) throws {
    let source = """
      import Combine  // the view model's import (text)

      protocol SearchAPI {
        func search(_ query: String) -> AnyPublisher<[String], Never>
      \(allRead ? "" : "  func suggest(_ query: String) -> AnyPublisher<[String], Never>\n")}

      final class SearchViewModel {
        @Published var query = ""
        @Published private(set) var results: [String] = []

        init(api: any SearchAPI) {
          $query.map { api.search($0) }.switchToLatest().assign(to: &$results)
        }
      }
      """
    let result = SwiftImporter.draft(path: "SearchViewModel.swift", source: source, scenarioPath: "Search.yaml")
    #expect(result.diagnostics.map(\.rendered) == [])
    let test = try #require(result.test)
    let stub = """
          struct StubSearchAPI: SearchAPI {
            let apisearch: FlowService<[String]>
            func search(_ query: String) -> AnyPublisher<[String], Never> {
              apisearch(query).replaceError(with: []).eraseToAnyPublisher()
            }
          }
          let viewModel = SearchViewModel(api: StubSearchAPI(apisearch: apisearch))
      """
    #expect(test.contains(stub) == allRead, "\(test)")
    #expect(test.contains("let viewModel = SearchViewModel(api: <#api#>)") == !allRead, "\(test)")
  }

  /// Two inputs a condition compares for equality get equal samples at the second set of the
  /// later one (and different ones before), so that the recording shows both values.
  @Test(arguments: ["$0 == $1", "password, repeated in password == repeated", "$1 != $0"])
  func comparedInputsGetEqualSamplesOnce(closure: String) throws {
    let source = """
      final class FormViewModel {
        @Published var password = ""
        @Published var repeated = ""
        @Published var name = ""
        @Published private(set) var matches = false

        init() {
          $password.combineLatest($repeated).map { \(closure) }.assign(to: &$matches)
        }
      }
      """
    let result = SwiftImporter.draft(path: "FormViewModel.swift", source: source, scenarioPath: "Form.yaml")
    #expect(result.diagnostics.map(\.rendered) == [])
    for line in [
      "set: { vm.password: \"password1\" }", "set: { vm.password: \"password2\" }",
      "set: { vm.repeated: \"repeated1\" }", "set: { vm.repeated: \"password2\" }",
      "set: { vm.name: \"name1\" }", "set: { vm.name: \"name2\" }",
    ] {
      #expect(result.scenario.contains(line), "\(line)\n\(result.scenario)")
    }
  }
}
