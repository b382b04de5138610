import FlowrunCore

/// What a scenario's library means outside its step table (libraries.md): one value per library
/// answers every question that the loader, the graph and the runner ask of the library, so that
/// no other place compares libraries.
///
/// Adding a library is a folder (`Libraries/<Library>/`, in `FlowrunScenario` and, for observers
/// of its own, in `FlowrunCore`), a profile here, a table (`LibraryTable`) and its docs.
public struct LibraryProfile: Sendable {
  /// What a subject declaration may say, and what the subject keeps.
  enum Subjects: Sendable, Equatable {
    /// The default subjects: `rac`, `replay`, `behavior`, `subscribeTo`.
    case standard
    /// RAC2's `RACSubject` and its kin, the default subject of `subjects:`: a subscriber after
    /// the end gets the values sent later, not the end (no terminal state is kept).
    case keepingNoTerminalState
    /// Combine's `PassthroughSubject` and `CurrentValueSubject`: no replay subject.
    case withoutReplay
    /// RxSwift's, and RxRelay's `PublishRelay` and `BehaviorRelay` (`relay:`, `value:`).
    case withRelays
    /// `AsyncChannel` and `AsyncStream` (`channel:`, `stream:`), each value to one consumer.
    case channelsAndStreams
  }

  public let library: Library
  /// What `commands:` declares: a `RACCommand`, or an RxSwift `Action`.
  let commandKind: Command.Kind
  let subjects: Subjects
  /// Combine's `@Published`: a property sends its new value before it stores it, so a sink that
  /// reads the property sees the old one.
  let propertiesSendBeforeStoring: Bool
  /// An `AsyncSequence`'s consumer pulls its values: marbles take consumer marks, an expectation
  /// may declare the consumer's pace (`consumer:`), a hot input keeps what it sent for an
  /// iterator that starts later, and a subscription window's end cancels the iterating task.
  public let consumersPull: Bool
  /// The library's own words for the timeline's and effects' actions, each mapped to the action
  /// it is: under `library: async` `finish: s` is `complete: s` (`AsyncChannel.finish()`,
  /// `AsyncThrowingChannel.finish()`, `AsyncStream.Continuation.finish()`). The loader and the
  /// language server read them here.
  public let actionWords: [String: String]

  /// The profile of `library`; nil is the default catalogue's (`rxjs`).
  public static func of(_ library: Library?) -> LibraryProfile {
    switch library {
    case nil, .rxjs?: rxjs
    case .rac2?: rac2
    case .rxswift?: rxswift
    case .combine?: combine
    case .async?: async
    }
  }

  static let rxjs = LibraryProfile(
    library: .rxjs, commandKind: .racCommand, subjects: .standard, propertiesSendBeforeStoring: false,
    consumersPull: false, actionWords: [:])
  static let rac2 = LibraryProfile(
    library: .rac2, commandKind: .racCommand, subjects: .keepingNoTerminalState, propertiesSendBeforeStoring: false,
    consumersPull: false, actionWords: [:])
  static let rxswift = LibraryProfile(
    library: .rxswift, commandKind: .action, subjects: .withRelays, propertiesSendBeforeStoring: false,
    consumersPull: false, actionWords: [:])
  static let combine = LibraryProfile(
    library: .combine, commandKind: .racCommand, subjects: .withoutReplay, propertiesSendBeforeStoring: true,
    consumersPull: false, actionWords: [:])
  static let async = LibraryProfile(
    library: .async, commandKind: .racCommand, subjects: .channelsAndStreams, propertiesSendBeforeStoring: false,
    consumersPull: true, actionWords: ["finish": "complete"])

  /// The keys a subject declaration may have.
  var subjectKeys: [String] {
    let keys = ["rac", "replay", "behavior", "subscribeTo"]
    switch subjects {
    case .withRelays: return keys + ["relay", "value"]
    case .channelsAndStreams: return keys + ["channel", "stream"]
    case .standard, .keepingNoTerminalState, .withoutReplay: return keys
    }
  }
}

extension ScenarioPlan {
  /// The profile of the library the scenario is read in.
  var profile: LibraryProfile { LibraryProfile.of(library) }
}
