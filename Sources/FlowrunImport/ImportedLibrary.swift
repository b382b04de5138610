import FlowrunScenario

/// The library a file is written with, read from its imports.
enum ImportedLibrary: Equatable {
  case combine, rxswift, async

  /// The scenario's `library:`.
  var scenarioName: String? {
    switch self {
    case .combine: "combine"
    case .rxswift: "rxswift"
    case .async: "async"
    }
  }

  var library: Library? {
    switch self {
    case .combine: .combine
    case .rxswift: .rxswift
    case .async: .async
    }
  }

  static func of(imports: Set<String>) -> ImportedLibrary {
    if !imports.isDisjoint(with: ["RxSwift", "RxCocoa", "RxRelay"]) { return .rxswift }
    if !imports.isDisjoint(with: ["Combine", "OpenCombine", "OpenCombineShim"]) { return .combine }
    // swift-async-algorithms, or Observation without Combine: async/await and `@Observable`.
    if imports.contains("AsyncAlgorithms") || imports.contains("Observation") { return .async }
    return .combine
  }

  // MARK: - What the drafts write for the library
  //
  // Every question the readers and the test writer ask of the file's library is answered here,
  // by name, so no other place compares libraries.

  /// The step that binds a chain to a view model's member (`assign(to:)`; RxSwift's `bind(to:)`).
  var bindingStep: String { self == .rxswift ? "bind" : "assign" }

  /// The step of a one-value source (`Just`; RxSwift's `just`).
  var justStep: String { self == .rxswift ? "just" : "Just" }

  /// Whether `Empty()` is a source of the library (Combine's `Empty` publisher).
  var hasEmptyPublisher: Bool { self == .combine }

  /// The imports the drafted test adds for the library's own types: Combine's, or OpenCombine's
  /// shim where Combine is not (Linux).
  var testImports: [String] {
    self == .combine
      ? ["", "#if canImport(Combine)", "  import Combine", "#else", "  import OpenCombineShim", "#endif"] : []
  }

  /// Whether the code's services are `async` functions (`flow.asyncService`, `AsyncFlowService`).
  var servicesAreAsync: Bool { self == .async }

  /// What the test observes the code's outputs as: publishers (`flow.observe`), the view model's
  /// async sequences, or RxSwift observables written as `flow.output`s (RxSwift's helpers,
  /// schedulers, Moya providers and Drivers made under `SharingScheduler.mock`).
  var outputs: Outputs {
    switch self {
    case .combine: .publishers
    case .async: .asyncSequences
    case .rxswift: .observables
    }
  }

  enum Outputs: Equatable {
    case publishers, asyncSequences, observables
  }

  /// Whether a subject that is not a relay sends with `onNext` (RxSwift's subjects) rather than
  /// `send` (Combine's).
  var subjectsSendWithOnNext: Bool { self == .rxswift }

  /// The verb of the subject the test makes for a publisher parameter of `init`: a
  /// `PublishRelay`'s `accept`, a `PassthroughSubject`'s `send`.
  var testSubjectVerb: String { self == .rxswift ? "accept" : "send" }

  /// Whether publisher, observable and `Driver` parameters of `init` are the scenario's inputs
  /// (an async view model takes its inputs by method or stream).
  var initPublishersAreInputs: Bool { self != .async }

  /// Whether a view that sets a relay of the view model drives it (RxCocoa's `bind(to:)` of a
  /// text field to a `BehaviorRelay`), so a relay the view sets and an effect resets stays an input.
  var viewSetsRelays: Bool { self == .rxswift }
}
