import FlowrunDiagnostics
import Testing

@testable import FlowrunImport

/// A command's method read in detail: its `guard` as `enabled:`, a private helper it calls
/// with its arguments, the `sink`'s assignments computed from the answer, and the timeline
/// that executes it.
@Suite struct CommandImportTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var methods: String
    /// Lines the draft has, and lines it must not have.
    var has: [String]
    var hasNot: [String] = []
    var testDescription: String { name }
  }

  /// A Combine view model (a file without imports is read as Combine).
  static func source(_ methods: String) -> String {
    """
    final class ViewModel {
      @Published private(set) var items: [Int] = []
      @Published private(set) var page = 0
      @Published private(set) var busy = false
      @Published private(set) var user: String?
      @Published private(set) var open = true
      static let size = 3
      private let feed: (Int) -> AnyPublisher<[Int], any Error>
      private var request: AnyCancellable?

      init(feed: @escaping (Int) -> AnyPublisher<[Int], any Error>) {
        self.feed = feed
      }

    \(methods)
    }

    """
  }

  static let load = """
      private func load(page number: Int, reset: Bool) {
        busy = true
        request = feed(number).sink(
          receiveCompletion: { [weak self] _ in self?.busy = false },
          receiveValue: { [weak self] items in
            guard let self else { return }
            self.items = reset ? items : self.items + items
            open = items.count >= Self.size
          })
      }
    """

  @Test(arguments: [
    Case(
      name: "a guard of one property is enabled: that property",
      methods: "  func next() {\n    guard open, !busy else { return }\n    load(page: page + 1, reset: false)\n  }\n"
        + load,
      has: [
        "  next:  # ViewModel.swift:15: 2 of 2 calls read", "    enabled: vm.open", "        with: '(vm.page + 1)'",
        "      - map: 'vm.items + $0'", "      - map: '$0.count >= 3'", "    execute: next",
        // The guard checks the command's own flag: executed again while it runs, and rejected.
        "  - at: 1  # again while it runs",
      ],
      hasNot: ["  load:", "<#enabled"]),
    Case(
      name: "a guard of the command's own flag only is no enabled:",
      methods: "  func refresh() {\n    guard !busy else { return }\n    load(page: 1, reset: true)\n  }\n" + load,
      has: ["        with: '1'", "  - on: refresh.values  # ViewModel.swift:21 sink", "    set: vm.items"],
      hasNot: ["enabled", "vm.items + $0"]),
    Case(
      name: "a guard of one property in an expression is the property mapped",
      methods: "  func next() {\n    guard user == nil else { return }\n    load(page: 1, reset: true)\n  }\n" + load,
      has: ["    enabled: [{ from: vm.user }, { map: '$0 == nil' }]"],
      // Nothing in the guard stops a second execute while it runs: executed once.
      hasNot: ["again while it runs"]),
    Case(
      name: "a guard of two properties is left to fill in",
      methods: "  func next() {\n    guard open, user != nil else { return }\n    load(page: 1, reset: true)\n  }\n"
        + load,
      has: ["  next:  # ViewModel.swift:15: 2 of 2 calls read <#enabled: the guard at ViewModel.swift:16#>"],
      hasNot: ["    enabled:"]),
    Case(
      name: "a method the view can call stays a command of its own",
      methods: """
          func again() {
            reload(page: 1)
          }

          func reload(page: Int) {
            request = feed(page).sink(receiveCompletion: { _ in }, receiveValue: { [weak self] in self?.items = $0 })
          }
        """,
      has: ["  reload:  # ViewModel.swift:19: 2 of 2 calls read", "        with: 'input'"],
      hasNot: ["  again:", "again while it runs"]),
  ])
  func theCommandIsRead(_ test: Case) throws {
    let result = SwiftImporter.draft(
      path: "ViewModel.swift", source: Self.source(test.methods), scenarioPath: "ViewModel.yaml")
    let errors = result.diagnostics.filter { $0.severity == .error }.map(\.rendered)
    #expect(errors == [], "\(result.scenario)")
    let lines = result.scenario.split(separator: "\n").map(String.init)
    for line in test.has {
      #expect(lines.contains(line), "\(line)\n\(result.scenario)")
    }
    for text in test.hasNot {
      #expect(!result.scenario.contains(text), "\(text)\n\(result.scenario)")
    }
  }

  /// An assignment the translator cannot read (a call of the code's) leaves the `sink` unread,
  /// with its warning: nothing is dropped silently.
  @Test func anEffectItCannotTranslateLeavesTheSinkUnread() {
    let methods = """
        func next() {
          request = feed(1).sink(receiveCompletion: { _ in }, receiveValue: { [weak self] in self?.items = sorted($0) })
        }
      """
    let result = SwiftImporter.draft(
      path: "ViewModel.swift", source: Self.source(methods), scenarioPath: "ViewModel.yaml")
    #expect(
      result.summary == ["command next: ViewModel.swift:15: 1 of 2 calls read <#not read: sink at ViewModel.swift:16#>"]
    )
    #expect(
      result.diagnostics.map(\.message).contains(
        "the effects of 'sink' in a command are left to fill in as 'effects:'"),
      "\(result.diagnostics.map(\.rendered))")
    #expect(!result.scenario.contains("effects:"))
  }
}
