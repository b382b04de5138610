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
        var message = "unknown library '\(text)'"
        let lowered = text.lowercased()
        let suggestion =
          Library(rawValue: lowered)?.rawValue ?? Self.libraryAliases[lowered]?.rawValue
          ?? closestName(to: lowered, among: names, maxDistance: 3)
        if let suggestion { message += "; did you mean '\(suggestion)'?" }
        message += " (the libraries are \(names.map { "'\($0)'" }.joined(separator: ", ")))"
        context.error(Diagnostic.Message(message), at: node)
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
    let keys = ["rac", "replay", "behavior", "subscribeTo"]
    switch plan.library {
    case .rxswift: return keys + ["relay", "value"]
    case .async: return keys + ["channel", "stream"]
    case .rac2, .combine, .rxjs, nil: return keys
    }
  }

  /// The scenario's library's own words for the timeline's and effects' actions
  /// (`Library.actionWords`).
  var libraryActionWords: [String: String] { plan.library?.actionWords ?? [:] }

  /// Reads what the library changes in a subject declaration: Combine has no replay subject,
  /// RxSwift has relays, RAC2's subjects keep no terminated state. False when the declaration is
  /// rejected.
  func librarySubject(_ subject: inout SubjectPlan, _ value: YAMLNode, _ pairs: some Collection<YAMLNode.Pair>) -> Bool
  {
    switch plan.library {
    case .combine:
      if let key = pairs.first(where: { $0.key.isScalar("replay") })?.key {
        context.error(
          Diagnostic.Message(
            "library 'combine' has no replay subject (only PassthroughSubject and CurrentValueSubject); "
              + "the nearest is '{ behavior: v }', a CurrentValueSubject, which replays its one current value"),
          at: key)
        return false
      }
    case .rxswift:
      if let relay = value["relay"] { return readRelay(&subject, relay, value) }
      if let key = pairs.first(where: { $0.key.isScalar("value") })?.key {
        context.error("'value' goes with 'relay: behavior' (a BehaviorRelay's initial value)", at: key)
        return false
      }
    case .async:
      return readAsyncSubject(&subject, value)
    case .rac2 where subject.isRAC:
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
      context.error("a subject is either 'channel' or 'stream', not both", at: stream)
      return false
    }
    let other = ["replay", "behavior", "rac"].first { value[$0] != nil }
    if let channel = value["channel"] {
      guard let isChannel = context.bool(channel, "'channel'") else { return false }
      if isChannel, let other {
        context.error("an AsyncChannel has no '\(other)'", at: value[other]!)
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
      context.error("an AsyncStream has no '\(other)'", at: value[other]!)
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
      let names = policies.map { "'\($0)'" }.joined(separator: ", ")
      context.error(
        Diagnostic.Message(
          "'stream' takes a buffering policy: \(names) (AsyncStream.Continuation.BufferingPolicy), "
            + "e.g. 'stream: { bufferingNewest: 1 }'"),
        at: stream)
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
      context.error(
        "a relay takes no '\(key)'; write 'relay: behavior' with 'value:' for a BehaviorRelay", at: value[key]!)
      return false
    }
    switch kind {
    case "publish":
      if let initial = value.mappingPairs?.first(where: { $0.key.isScalar("value") }) {
        context.error("a PublishRelay has no 'value'; write 'relay: behavior' for a BehaviorRelay", at: initial.key)
        return false
      }
      subject.kind = .publish
    case "behavior":
      guard let initial = value["value"] else {
        context.error("a BehaviorRelay needs its initial 'value'", at: relay)
        return false
      }
      subject.kind = .behavior(context.value(initial))
    default:
      var message = "unknown relay '\(kind)'"
      if let suggestion = closestName(to: kind, among: ["publish", "behavior"]) {
        message += "; did you mean '\(suggestion)'?"
      }
      context.error(
        "\(message) (flowrun models RxRelay's PublishRelay and BehaviorRelay: 'publish' and 'behavior')", at: relay)
      return false
    }
    subject.isRelay = true
    usesRow("rxswift-publish-relay")
    return true
  }

  /// Why a step name that is not in the scenario's table is not: it belongs to another library.
  func libraryHint(forUnknownStep name: String) -> String? {
    let owners = Library.allCases.filter { $0 != plan.library && StepTable.dialect($0).contains(name) }
    guard let owner = owners.first, !steps.contains(name) else { return nil }
    let definition = StepTable.dialect(owner).operator(named: name) ?? StepTable.dialect(owner).source(named: name)
    var hint = "unknown operator '\(name)' in "
    hint += plan.library == nil ? "the default catalogue" : libraryPhrase
    hint += ": it is \(owner.title)'s ('library: \(owner.rawValue)')"
    let nearest =
      definition?.nearest.flatMap { steps.contains($0) ? $0 : nil }
      ?? LibraryWords.word(for: name, in: LibraryWords.steps, library: plan.library, known: steps.contains)?.word
    if let nearest { hint += "; the nearest here is '\(nearest)'" }
    return hint
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
    guard plan.library != .rxswift, let relay = pairs.first(where: { $0.key.isScalar("relay") }) else { return false }
    context.error(
      Diagnostic.Message(
        "a relay is RxSwift's (RxRelay's PublishRelay and BehaviorRelay: 'library: rxswift'); "
          + "\(libraryPhrase) has no relay, the nearest is a subject {}"),
      at: relay.key)
    return true
  }

  /// Combine's `assign: property`: binds the property to `plan` (the signal before the step),
  /// once the properties are read (`bindAssignments`). False, with a diagnostic, when it cannot.
  func assign(_ plan: SignalPlan, to name: String, at node: YAMLNode) -> Bool {
    guard declarations[name]?.kind == .property else {
      var message = "'assign' needs a property declared under 'properties:'; '\(name)' is not one"
      let candidates = declarations.filter { $0.value.kind == .property }.map(\.key)
      if let suggestion = closestName(to: name, among: candidates) { message += "; did you mean '\(suggestion)'?" }
      context.error(Diagnostic.Message(message), at: node)
      return false
    }
    guard templateNames.isEmpty else {
      context.error("'assign' binds a property for the whole run; it cannot stand inside a template", at: node)
      return false
    }
    assignments.append((name, plan, node))
    return true
  }

  /// Applies the `assign` steps to the properties they name; a property bound twice is an error
  /// with a note at the other binding (`boundAt`: where each declaration binds its property).
  func bindAssignments(boundAt: [String: SourceLocation]) {
    var boundAt = boundAt
    if plan.library == .combine, !plan.properties.isEmpty {
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
        context.error(
          "property '\(assignment.property)' is bound twice (by its declaration or another 'assign')",
          at: assignment.node, notes: notes ?? [])
        continue
      }
      plan.properties[index].binding = assignment.plan
      boundAt[assignment.property] = assignment.node.start
    }
  }
}

extension Library {
  /// The library's own words for the timeline's and effects' actions, each mapped to the action
  /// it is: under `library: async` `finish: s` is `complete: s` (`AsyncChannel.finish()`,
  /// `AsyncThrowingChannel.finish()`, `AsyncStream.Continuation.finish()`). The loader and the
  /// language server read them here.
  public var actionWords: [String: String] {
    switch self {
    case .async: ["finish": "complete"]
    case .rac2, .rxswift, .combine, .rxjs: [:]
    }
  }
}
