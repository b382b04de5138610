import FlowrunDiagnostics
import Testing

@testable import FlowrunImport

/// async/await and `@Observable` view models: what the draft says of each construct.
@Suite struct AsyncImportTests {
  static func draft(_ source: String) -> SwiftImporter.Result {
    SwiftImporter.draft(path: "ViewModel.swift", source: source, scenarioPath: "ViewModel.yaml")
  }

  /// An `@Observable` view model whose `for await` loop over swift-async-algorithms operators
  /// assigns a property, with an async service protocol and an injected clock.
  static let search = """
    import AsyncAlgorithms  // the view model's import (text)
    import Observation  // the view model's import (text)

    protocol SearchAPI { func search(_ query: String) async throws -> [String] }

    @Observable final class ViewModel {
      var first = "" { didSet { typedFirst.yield(first) } }
      var second = "" { didSet { typedSecond.yield(second) } }
      private(set) var results: [String] = []
      private(set) var both = ""
      @ObservationIgnored private var request: Task<Void, Never>?
      @ObservationIgnored private let typedFirst: AsyncStream<String>.Continuation
      @ObservationIgnored private let typedSecond: AsyncStream<String>.Continuation
      @ObservationIgnored let api: SearchAPI

      init(api: SearchAPI, clock: any Clock<Duration>) {
        self.api = api
        let (firsts, typedFirst) = AsyncStream.makeStream(of: String.self)
        let (seconds, typedSecond) = AsyncStream.makeStream(of: String.self)
        self.typedFirst = typedFirst
        self.typedSecond = typedSecond
        Task {
          for await query in firsts.debounce(for: .milliseconds(200), clock: clock) {
            request?.cancel()
            request = Task {
              let answer = try? await api.search(query)
              self.results = answer ?? []
            }
          }
        }
        Task {
          for await pair in combineLatest(firsts, seconds) { both = "\\(pair.0) \\(pair.1)" }
        }
      }
    }
    """

  @Test func asyncChainsBecomeAsyncSteps() throws {
    let result = Self.draft(Self.search)
    #expect(result.diagnostics.map(\.rendered) == [])
    #expect(result.recognised == result.total, "\(result.summary)")
    for line in [
      "library: async",
      "  firsts:  # ViewModel.swift:18: 2 of 2 calls read\n    - from: vm.first",
      "    - debounce: 200ms",
      "    - flatMapLatest:  # ViewModel.swift:25 Task\n        - call: api.search",
      "    - map: '$0 ?? []'",
      "    - combineLatest: [firsts, seconds]",
      "    - map: '\"\\($0) \\($1)\"'",
      "  vm.results: { from: results, initial: [] }",
      "  vm.both: { from: both, initial: \"\" }",
      "  observed.results: { observed: [vm.results] }",
      "services:\n  api.search:",
    ] {
      #expect(result.scenario.contains(line), "\(line)\n\(result.scenario)")
    }
    let test = try #require(result.test)
    // The protocol's one method is read: a stub of it answers with the scenario's service.
    let stub = """
          struct StubSearchAPI: SearchAPI {
            let apisearch: AsyncFlowService<[String]>
            func search(_ query: String) async throws -> [String] {
              try await apisearch(query)
            }
          }
          let viewModel = ViewModel(api: StubSearchAPI(apisearch: apisearch), clock: flow.clock)
      """
    #expect(test.contains(stub), "\(test)")
    #expect(!test.contains("<#api#>"), "\(test)")
    #expect(test.contains("flow.observe(\"observed.results\", of: viewModel, \\.results)"), "\(test)")
  }

  @Test func computedPropertiesAreObservedOutputs() throws {
    let source = """
      import Observation  // the view model's import (text)

      @Observable final class FormViewModel {
        var name: String?
        var password = ""
        var isValid: Bool { !(name ?? "").isEmpty && password.count >= 6 }
        var greeting: String { "Hello \\(name ?? "")" }
      }
      """
    let result = Self.draft(source)
    #expect(result.diagnostics.filter { $0.severity == .error }.map(\.rendered) == [])
    #expect(
      result.scenario.contains("observed.isValid: { observed: [vm.name, vm.password] }"), "\(result.scenario)")
    #expect(
      result.scenario.contains("- map: '!($0[0] ?? \"\").isEmpty && $0[1].count >= 6'"), "\(result.scenario)")
    #expect(result.scenario.contains("- map: '\"Hello \\($0 ?? \"\")\"'"), "\(result.scenario)")
    let test = try #require(result.test)
    #expect(test.contains("flow.observe(\"vm.isValid\", of: viewModel, \\.isValid)"), "\(test)")
  }

  /// A hard-coded clock stops virtual time: a warning at it with how to inject one.
  @Test func aHardCodedClockIsAWarningAtItsPlace() throws {
    let source = """
      import AsyncAlgorithms  // the view model's import (text)
      import Observation  // the view model's import (text)

      @Observable final class ViewModel {
        var query = "" { didSet { typed.yield(query) } }
        private(set) var settled = ""
        @ObservationIgnored private let typed: AsyncStream<String>.Continuation

        init() {
          let (queries, typed) = AsyncStream.makeStream(of: String.self)
          self.typed = typed
          Task {
            for await query in queries.debounce(for: .seconds(1), clock: 1️⃣ContinuousClock()) {
              settled = query
            }
          }
        }
      }
      """
    let marked = MarkedText(source)
    let result = Self.draft(marked.text)
    let headlines = result.diagnostics.map(\.headline)
    #expect(
      headlines.contains(
        "ViewModel.swift:\(marked.line):\(marked.column): warning: 'ContinuousClock()' runs on real time, which stops virtual time: take a 'clock: some Clock<Duration>' in the initializer and pass a virtual-time clock in the test"
      ), "\(headlines)")
    #expect(result.scenario.contains("  vm.settled: { from: settled, initial: \"\" }"), "\(result.scenario)")
    #expect(result.summary.contains { $0.hasPrefix("signal settled:") && $0.hasSuffix("3 of 3 calls read") })
  }

  /// A command's effects: `sink`'s assignments become `effects:` (the value, a literal, and a
  /// flag raised before the call as the command's `executing`).
  @Test func sinkAssignmentsBecomeEffects() throws {
    let source = """
      import Combine  // the view model's import (text)

      final class HUDViewModel {
        @Published private(set) var user: String?
        @Published private(set) var hud = false
        @Published private(set) var saved = false
        private let save: (String) -> AnyPublisher<String, Never>
        private var requests = Set<AnyCancellable>()

        init(save: @escaping (String) -> AnyPublisher<String, Never>) { self.save = save }

        func submit(name: String) {
          hud = true
          save(name)
            .sink(receiveCompletion: { _ in self.hud = false }, receiveValue: { [weak self] in self?.user = $0 })
            .store(in: &requests)
        }

        func mark(name: String) {
          save(name).sink { _ in self.saved = true }.store(in: &requests)
        }
      }
      """
    let result = Self.draft(source)
    #expect(result.diagnostics.filter { $0.severity == .error }.map(\.rendered) == [])
    #expect(
      result.scenario.contains(
        """
        effects:
          - on: submit.values  # ViewModel.swift:15 sink
            set: vm.user
          - on: submit.executing  # ViewModel.swift:15 sink
            set: vm.hud
          - on: mark.values  # ViewModel.swift:20 sink
            set: { vm.saved: true }
        """), "\(result.scenario)")
    #expect(result.recognised == result.total, "\(result.summary)")
  }

  /// An `AsyncChannel` member is an input subject `{ channel: true }`, driven by a task that
  /// awaits its `send`.
  @Test func anAsyncChannelIsAnInput() throws {
    let source = """
      import AsyncAlgorithms  // the view model's import (text)
      import Observation  // the view model's import (text)

      @Observable final class ViewModel {
        private(set) var last = ""
        @ObservationIgnored let taps = AsyncChannel<String>()

        init() {
          Task {
            for await tap in taps.removeDuplicates() { last = tap.uppercased() }
          }
        }
      }
      """
    let result = Self.draft(source)
    #expect(result.diagnostics.map(\.rendered) == [])
    for line in [
      "subjects:\n  vm.taps: { channel: true }",
      "    - from: vm.taps",
      "    - removeDuplicates",
      "    - map: '$0.uppercased()'",
      "    send: { vm.taps: \"taps1\" }",
      "  observed.last: \"-\"",
    ] {
      #expect(result.scenario.contains(line), "\(line)\n\(result.scenario)")
    }
    let test = try #require(result.test)
    #expect(
      test.contains("flow.drive(\"vm.taps\") { (value: String) in Task { await viewModel.taps.send(value) } }"),
      "\(test)")
  }

  /// An `@Observable` getter that compares two stored properties: equal samples once.
  @Test func aGetterComparingTwoInputsGetsEqualSamplesOnce() throws {
    let result = Self.draft(
      """
      import Observation  // the view model's import (text)

      @Observable final class FormViewModel {
        var password = ""
        var repeated = ""
        var matches: Bool { !password.isEmpty && password == repeated }
      }
      """)
    #expect(result.diagnostics.map(\.rendered) == [])
    for line in [
      "set: { vm.password: \"password2\" }", "set: { vm.repeated: \"repeated1\" }",
      "set: { vm.repeated: \"password2\" }",
    ] {
      #expect(result.scenario.contains(line), "\(line)\n\(result.scenario)")
    }
  }
}
