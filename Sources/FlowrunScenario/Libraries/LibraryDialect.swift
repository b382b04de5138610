import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

/// `library: rac2 | rxswift | combine | async | rxjs` (libraries.md): which library's names and meanings
/// the scenario's keys are read with. The steps come from the library's overlay of the step
/// table (`StepTable(library:)`); subjects and properties are read here.
extension ScenarioCompiler {
  /// Other names a user may write for a library.
  private static let libraryAliases: [String: Library] = [
    "rac": .rac2, "reactivecocoa": .rac2, "reactiveobjc": .rac2, "racsignal": .rac2,
    "rx": .rxswift, "rxcocoa": .rxswift, "rxrelay": .rxswift, "opencombine": .combine, "reactivex": .rxjs,
    "asyncalgorithms": .async, "swift-async-algorithms": .async, "asyncsequence": .async, "concurrency": .async,
  ]

  /// Reads `library:` (before anything that depends on it) and chooses the step table.
  func readLibrary(_ root: YAMLNode) {
    if let node = root["library"], let text = context.string(node, "'library'") {
      if let library = Library(rawValue: text) {
        plan.declaredLibrary = library
        plan.declaredLibraryLocation = node.start
      } else {
        let names = Library.allCases.map(\.rawValue)
        let lowered = text.lowercased()
        let suggestion =
          Library(rawValue: lowered)?.rawValue ?? Self.libraryAliases[lowered]?.rawValue
          ?? closestName(to: lowered, among: names, maxDistance: 3)
        context.error(.unknownLibrary(text, suggestion: suggestion, libraries: names), at: node)
      }
    }
    plan.library = forcesLibrary ? requestedLibrary : plan.declaredLibrary ?? requestedLibrary
    steps = StepTable.dialect(plan.library)
  }

  /// The name of the scenario's library for messages (`library 'rac2'`).
  var libraryPhrase: String {
    "library '\((plan.library ?? .rxjs).rawValue)'"
  }

  /// Records that the scenario uses the meaning documented by docs row `id`.
  /// The declaration being compiled uses it; `scenarioWide`: every expectation may (Combine's
  /// `@Published` properties).
  func usesRow(_ id: String, scenarioWide: Bool = false) {
    if !plan.libraryRows.contains(id) { plan.libraryRows.append(id) }
    plan.libraryRowUses.append((id, scenarioWide ? nil : referringName))
  }

  /// Records that the declared name being compiled refers to `name`.
  func refers(to name: String) {
    if let referringName, referringName != name { plan.references.append((referringName, name)) }
  }

  /// The keys a subject declaration may have under the scenario's library.
  var subjectKeys: [String] {
    plan.profile.subjectKeys
  }

  /// The scenario's library's own words for the timeline's and effects' actions
  /// (`LibraryProfile.actionWords`).
  var libraryActionWords: [String: String] { plan.profile.actionWords }

  /// Reads what the library changes in a subject declaration: Combine has no replay subject,
  /// RxSwift has relays, RAC2's subjects keep no terminated state. False when the declaration is
  /// rejected.
  func librarySubject(_ subject: inout SubjectPlan, _ value: YAMLNode, _ pairs: some Collection<YAMLNode.Pair>) -> Bool
  {
    switch plan.profile.subjects {
    case .withoutReplay:
      if let key = pairs.first(where: { $0.key.isScalar("replay") })?.key {
        context.error(.combineHasNoReplaySubject, at: key)
        return false
      }
    case .withRelays:
      if let relay = value["relay"] { return readRelay(&subject, relay, value) }
      if let key = pairs.first(where: { $0.key.isScalar("value") })?.key {
        context.error(.valueWithoutRelay, at: key)
        return false
      }
    case .channelsAndStreams:
      return readAsyncSubject(&subject, value)
    case .keepingNoTerminalState where subject.isRAC:
      if value["replay"] == nil {
        usesRow(
          value["behavior"] == nil ? "rac2-subject-keeps-no-terminal-state" : "rac2-behavior-subject-after-completion")
      }
    default:
      break
    }
    return true
  }

  /// `channel: true` (`AsyncChannel`) or `stream: policy` (`AsyncStream` with
  /// `unbounded`, `{ bufferingOldest: n }` or `{ bufferingNewest: n }`).
  private func readAsyncSubject(_ subject: inout SubjectPlan, _ value: YAMLNode) -> Bool {
    if value["channel"] != nil, let stream = value["stream"] {
      context.error(.channelAndStream, at: stream)
      return false
    }
    let other = ["replay", "behavior", "rac"].first { value[$0] != nil }
    if let channel = value["channel"] {
      guard let isChannel = context.bool(channel, "'channel'") else { return false }
      if isChannel, let other {
        context.error(.channelHasNo(other), at: value[other]!)
        return false
      }
      if isChannel {
        subject.distribution = .channel
        usesRow("async-channel-one-consumer-per-value")
      }
      return true
    }
    guard let stream = value["stream"] else { return true }
    if let other {
      context.error(.streamHasNo(other), at: value[other]!)
      return false
    }
    let policies = ["unbounded", "bufferingOldest", "bufferingNewest"]
    if stream.scalarValue == "unbounded" {
      subject.distribution = .stream(.unbounded)
    } else if let pairs = stream.mappingPairs, pairs.count == 1, let key = pairs.first?.key.scalarValue,
      key == "bufferingOldest" || key == "bufferingNewest"
    {
      guard let limit = context.count(pairs.first!.value, "'\(key)'") else { return false }
      subject.distribution = .stream(key == "bufferingOldest" ? .bufferingOldest(limit) : .bufferingNewest(limit))
    } else {
      context.error(.streamNeedsPolicy(policies), at: stream)
      return false
    }
    usesRow("async-stream-buffering-policy")
    return true
  }

  /// `relay: publish` or `relay: behavior` (with `value:`): RxRelay's `PublishRelay` and
  /// `BehaviorRelay`.
  private func readRelay(_ subject: inout SubjectPlan, _ relay: YAMLNode, _ value: YAMLNode) -> Bool {
    guard let kind = context.string(relay, "'relay'") else { return false }
    for key in ["replay", "behavior", "rac"] where value[key] != nil {
      context.error(.relayTakesNo(key), at: value[key]!)
      return false
    }
    switch kind {
    case "publish":
      if let initial = value.mappingPairs?.first(where: { $0.key.isScalar("value") }) {
        context.error(.publishRelayHasNoValue, at: initial.key)
        return false
      }
      subject.kind = .publish
    case "behavior":
      guard let initial = value["value"] else {
        context.error(.behaviorRelayNeedsValue, at: relay)
        return false
      }
      subject.kind = .behavior(context.value(initial))
    default:
      let suggestion = closestName(to: kind, among: ["publish", "behavior"])
      context.error(.unknownRelay(kind, suggestion: suggestion), at: relay)
      return false
    }
    subject.isRelay = true
    usesRow("rxswift-publish-relay")
    return true
  }

  /// Why a step name that is not in the scenario's table is not: it belongs to another library.
  func libraryHint(forUnknownStep name: String) -> Diagnostic.Message? {
    let owners = Library.allCases.filter { $0 != plan.library && StepTable.dialect($0).contains(name) }
    guard let owner = owners.first, !steps.contains(name) else { return nil }
    let definition = StepTable.dialect(owner).operator(named: name) ?? StepTable.dialect(owner).source(named: name)
    let nearest =
      definition?.nearest.flatMap { steps.contains($0) ? $0 : nil }
      ?? LibraryWords.word(for: name, in: LibraryWords.steps, library: plan.library, known: steps.contains)?.word
    let place = plan.library.map { _ in libraryPhrase } ?? "the default catalogue"
    return .stepOfAnotherLibrary(name, in: place, owner: owner, nearest: nearest)
  }

  /// Why a step that did not compile may be another library's form of it: a mapping of labels
  /// where this library's step takes none (RxSwift's `share: { replay, scope }` in another
  /// library), or a key beside the step that only another library's step has (`latest:` beside
  /// a RAC2 `throttle`). A note for the step's diagnostics; nil when no library has that form.
  func libraryHint(forFailed step: StepNode, _ definition: StepDefinition) -> Diagnostic.Note? {
    let labelled = step.argument?.mappingPairs != nil && definition.argument != .labels
    let keys = Set(definition.extras.map(\.name))
    let foreignKey = step.extras.lazy.compactMap(\.key.scalarValue).first { !keys.contains($0) }
    // A key beside the step that is a library's own word for it (`latest:` beside `throttle`
    // is RxSwift's and Combine's), named with those libraries.
    if let key = foreignKey, let owners = LibraryWords.keys[step.name]?[key]?.filter({ $0 != plan.library }),
      !owners.isEmpty
    {
      let names = owners.map { "\($0.title)'s" }
      let whose = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
      let asks = owners.map { "'library: \($0.rawValue)'" }.joined(separator: ", ")
      return Diagnostic.Note(
        location: step.nameNode.start,
        message:
          "'\(key)' is a key of \(whose) '\(step.name)' (\(asks)); \(libraryPhrase) reads '\(step.name)' without it")
    }
    // The default catalogue first: a library that keeps the default form of a key keeps its keys.
    let libraries: [Library] = [.rxjs, .rac2, .rxswift, .combine, .async]
    for library in libraries where library != (plan.library ?? .rxjs) {
      guard let other = StepTable.dialect(library).operator(named: step.name), other !== definition else { continue }
      let owner = other.library.map { "\($0.title)'s" } ?? "the default catalogue's"
      let asks = "('library: \((other.library ?? .rxjs).rawValue)')"
      if labelled && other.argument == .labels {
        return Diagnostic.Note(
          location: step.nameNode.start,
          message: "'\(step.name): { … }' is \(owner) form \(asks); \(libraryPhrase) has no such form")
      }
      if let key = foreignKey, other.extras.contains(where: { $0.name == key }) {
        return Diagnostic.Note(
          location: step.nameNode.start,
          message:
            "'\(key)' is a key of \(owner) '\(step.name)' \(asks); \(libraryPhrase) reads '\(step.name)' without it")
      }
    }
    return nil
  }

  /// A relay under another library than RxSwift: RxRelay's, not a subject key to misspell.
  func rejectRelay(_ pairs: some Collection<YAMLNode.Pair>) -> Bool {
    guard plan.profile.subjects != .withRelays, let relay = pairs.first(where: { $0.key.isScalar("relay") }) else {
      return false
    }
    context.error(.relayOutsideRxSwift(libraryPhrase), at: relay.key)
    return true
  }

  /// Combine's `assign: property`: binds the property to `plan` (the signal before the step),
  /// once the properties are read (`bindAssignments`). False, with a diagnostic, when it cannot.
  func assign(_ plan: SignalPlan, to name: String, at node: YAMLNode) -> Bool {
    guard declarations[name]?.kind == .property else {
      let candidates = declarations.filter { $0.value.kind == .property }.map(\.key)
      context.error(.assignNeedsProperty(name).didYouMean(closestName(to: name, among: candidates)), at: node)
      return false
    }
    guard templateNames.isEmpty else {
      context.error(.assignInTemplate, at: node)
      return false
    }
    assignments.append((name, plan, node))
    return true
  }

  /// Applies the `assign` steps to the properties they name; a property bound twice is an error
  /// with a note at the other binding (`boundAt`: where each declaration binds its property).
  func bindAssignments(boundAt: [String: SourceLocation]) {
    var boundAt = boundAt
    if plan.profile.propertiesSendBeforeStoring, !plan.properties.isEmpty {
      usesRow("combine-published-sends-before-store", scenarioWide: true)
    }
    for assignment in assignments {
      guard let index = plan.properties.firstIndex(where: { $0.name == assignment.property }) else { continue }
      guard plan.properties[index].binding == nil else {
        let other = boundAt[assignment.property]
        let notes = other.map { location in
          [
            Diagnostic.Note(
              location: location,
              message:
                "'\(assignment.property)' is bound here first (line \(location.line)); a property has one binding")
          ]
        }
        context.error(.propertyBoundTwice(assignment.property), at: assignment.node, notes: notes ?? [])
        continue
      }
      plan.properties[index].binding = assignment.plan
      boundAt[assignment.property] = assignment.node.start
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func unknownLibrary(_ text: String, suggestion: String?, libraries: [String]) -> Self {
    let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
    let known = libraries.map { "'\($0)'" }.joined(separator: ", ")
    return "unknown library '\(text)'\(hint) (the libraries are \(known))"
  }
  fileprivate static let combineHasNoReplaySubject = Self(
    "library 'combine' has no replay subject (only PassthroughSubject and CurrentValueSubject); "
      + "the nearest is '{ behavior: v }', a CurrentValueSubject, which replays its one current value")
  fileprivate static let valueWithoutRelay: Self =
    "'value' goes with 'relay: behavior' (a BehaviorRelay's initial value)"
  fileprivate static let channelAndStream: Self = "a subject is either 'channel' or 'stream', not both"
  fileprivate static func channelHasNo(_ key: String) -> Self { "an AsyncChannel has no '\(key)'" }
  fileprivate static func streamHasNo(_ key: String) -> Self { "an AsyncStream has no '\(key)'" }
  fileprivate static func streamNeedsPolicy(_ policies: [String]) -> Self {
    let names = policies.map { "'\($0)'" }.joined(separator: ", ")
    return Self(
      "'stream' takes a buffering policy: \(names) (AsyncStream.Continuation.BufferingPolicy), "
        + "e.g. 'stream: { bufferingNewest: 1 }'")
  }
  fileprivate static func relayTakesNo(_ key: String) -> Self {
    "a relay takes no '\(key)'; write 'relay: behavior' with 'value:' for a BehaviorRelay"
  }
  fileprivate static let publishRelayHasNoValue: Self =
    "a PublishRelay has no 'value'; write 'relay: behavior' for a BehaviorRelay"
  fileprivate static let behaviorRelayNeedsValue: Self = "a BehaviorRelay needs its initial 'value'"
  fileprivate static func unknownRelay(_ kind: String, suggestion: String?) -> Self {
    let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
    return Self(
      "unknown relay '\(kind)'\(hint) "
        + "(flowrun models RxRelay's PublishRelay and BehaviorRelay: 'publish' and 'behavior')")
  }
  /// Step `name`, unknown in `place` (the scenario's library or the default catalogue), is
  /// `owner`'s.
  fileprivate static func stepOfAnotherLibrary(_ name: String, in place: String, owner: Library, nearest: String?)
    -> Self
  {
    let hint = nearest.map { "; the nearest here is '\($0)'" } ?? ""
    return "unknown operator '\(name)' in \(place): it is \(owner.title)'s ('library: \(owner.rawValue)')\(hint)"
  }
  fileprivate static func relayOutsideRxSwift(_ libraryPhrase: String) -> Self {
    Self(
      "a relay is RxSwift's (RxRelay's PublishRelay and BehaviorRelay: 'library: rxswift'); "
        + "\(libraryPhrase) has no relay, the nearest is a subject {}")
  }
  fileprivate static func assignNeedsProperty(_ name: String) -> Self {
    "'assign' needs a property declared under 'properties:'; '\(name)' is not one"
  }
  fileprivate static let assignInTemplate: Self =
    "'assign' binds a property for the whole run; it cannot stand inside a template"
  fileprivate static func propertyBoundTwice(_ name: String) -> Self {
    "property '\(name)' is bound twice (by its declaration or another 'assign')"
  }
}
