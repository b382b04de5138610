import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunYAML
import OrderedCollections

extension ScenarioCompiler {
  static let actionKeys = ["send", "set", "execute", "input", "complete", "fail"]

  /// The action keys under the scenario's library: the default ones and the library's own words
  /// for them (`libraryActionWords`).
  var actionKeys: [String] { Self.actionKeys + libraryActionWords.keys.sorted() }

  // MARK: - Effects

  func compileEffects(_ node: YAMLNode) {
    guard let items = context.sequence(node, "'effects'") else { return }
    for item in items {
      guard let pairs = context.mapping(item, "an effect") else { continue }
      context.checkKeys(
        pairs, allowed: ["on", "when", "at", "onError", "onCompleted"] + actionKeys, in: "an effect")
      guard let onNode = item["on"] else {
        context.error(.effectNeedsOn, at: item)
        continue
      }
      guard let on = compileSignal(onNode, "'on'") else { continue }
      var effect = EffectPlan(
        on: on.0, when: nil, actions: compileActions(pairs, valueAvailable: true), onError: nil,
        onCompleted: nil, at: nil, location: item.start)
      if let when = item["when"] {
        effect.when = expression(when, shape: on.1, index: false)
      }
      if let at = item["at"] { effect.at = frames(at, "'at'", minimum: 0) }
      if let onError = item["onError"], let errorPairs = context.mapping(onError, "'onError'") {
        context.checkKeys(errorPairs, allowed: actionKeys, in: "'onError'")
        effect.onError = compileActions(errorPairs, valueAvailable: true)
      }
      if let onCompleted = item["onCompleted"],
        let completedPairs = context.mapping(onCompleted, "'onCompleted'")
      {
        context.checkKeys(completedPairs, allowed: actionKeys, in: "'onCompleted'")
        effect.onCompleted = compileActions(completedPairs, valueAvailable: true)
      }
      plan.effects.append(effect)
    }
  }

  // MARK: - Timeline

  func compileTimeline(_ node: YAMLNode) {
    guard let items = context.sequence(node, "'timeline'") else { return }
    for item in items {
      guard let pairs = context.mapping(item, "a timeline action") else { continue }
      context.checkKeys(pairs, allowed: ["at"] + actionKeys, in: "a timeline action")
      guard let atNode = item["at"] else {
        context.error(.timelineActionNeedsAt, at: item)
        continue
      }
      guard let at = frames(atNode, "'at'", minimum: 0) else { continue }
      let actions = compileActions(pairs, valueAvailable: false)
      if actions.isEmpty, !pairs.contains(where: { actionKeys.contains($0.key.scalarValue ?? "") }) {
        context.error(.timelineActionNeedsAction, at: item)
      }
      plan.timeline.append(TimelinePlan(at: at, actions: actions, location: item.start))
    }
  }

  // MARK: - Actions

  /// The actions among `pairs`, in the order written. `valueAvailable` says whether a bare
  /// target (send the event's value itself) makes sense.
  private func compileActions(_ pairs: YAMLNode.Pairs, valueAvailable: Bool) -> [ActionPlan] {
    var actions: [ActionPlan] = []
    for pair in pairs {
      guard let key = pair.key.scalarValue else { continue }
      let node = pair.value
      switch libraryActionWords[key] ?? key {
      case "send", "set":
        let kind: DeclarationKind = key == "send" ? .subject : .property
        if let name = node.scalarValue, node.isScalar {
          guard valueAvailable else {
            context.error(.actionNeedsValue(key, name), at: node)
            continue
          }
          guard target(name, kind: kind, at: node) else { continue }
          actions.append(key == "send" ? .send(subject: name, value: nil) : .set(property: name, value: nil))
          continue
        }
        guard let targets = context.mapping(node, "'\(key)'") else { continue }
        for entry in targets {
          guard let name = context.string(entry.key, "a target"), target(name, kind: kind, at: entry.key)
          else { continue }
          let value = context.value(entry.value)
          actions.append(key == "send" ? .send(subject: name, value: value) : .set(property: name, value: value))
        }
      case "complete":
        guard let name = context.string(node, "'\(key)'"), target(name, kind: .subject, at: node),
          terminable(name, by: key, at: node)
        else {
          continue
        }
        actions.append(.complete(subject: name))
      case "fail":
        guard let targets = context.mapping(node, "'fail'") else { continue }
        for entry in targets {
          guard let name = context.string(entry.key, "a subject"), target(name, kind: .subject, at: entry.key),
            terminable(name, by: "fail", at: entry.key)
          else { continue }
          actions.append(.fail(subject: name, value: context.value(entry.value)))
        }
      case "execute":
        guard let name = context.string(node, "'execute'"), target(name, kind: .command, at: node) else {
          continue
        }
        let input = pairs.first { $0.key.isScalar("input") }.map { context.value($0.value) }
        actions.append(.execute(command: name, input: input))
      default:
        break
      }
    }
    return actions
  }

  /// Checks that subject `name` may terminate: an RxSwift relay never does (libraries.md).
  private func terminable(_ name: String, by verb: String, at node: YAMLNode) -> Bool {
    guard plan.subjects.contains(where: { $0.name == name && $0.isRelay }) else { return true }
    context.error(.relayNeverTerminates(name, verb: verb), at: node)
    return false
  }

  /// Checks that `name` is declared with `kind`.
  private func target(_ name: String, kind: DeclarationKind, at node: YAMLNode) -> Bool {
    guard let declaration = declarations[name] else {
      let candidates = declarations.filter { $0.value.kind == kind }.map(\.key)
      context.error(.unknownDeclaration(kind, name).suggesting(name, among: candidates), at: node)
      return false
    }
    guard declaration.kind == kind else {
      context.error(.wrongKind(name, declaration.kind, expected: kind), at: node)
      return false
    }
    return true
  }

  // MARK: - Expectations

  func compileExpectations(_ node: YAMLNode) -> [ExpectationSpec] {
    guard let pairs = context.mapping(node, "'expect'") else { return [] }
    var result: [ExpectationSpec] = []
    for pair in pairs {
      guard let target = context.string(pair.key, "an expectation target") else { continue }
      if let expectation = compileExpectation(target, key: pair.key, value: pair.value) {
        result.append(expectation)
      }
    }
    return result
  }

  private func compileExpectation(_ target: String, key: YAMLNode, value: YAMLNode) -> ExpectationSpec? {
    let parser = MarbleParser(grammar: grammar, tick: tick, limits: marbleLimits)
    if target.hasSuffix(".subscriptions"), declarations[target] == nil {
      let owner = String(target.dropLast(".subscriptions".count))
      guard let source = subscriptionTarget(owner, at: key) else { return nil }
      let nodes = value.sequenceItems.map(Array.init) ?? [value]
      var entries: [SubscriptionLog.Entry] = []
      var marbles: [String] = []
      for item in nodes {
        guard let text = context.string(item, "a subscription marble") else { return nil }
        do throws(MarbleError) {
          let marble = try parser.parseSubscription(text)
          marbles.append(text)
          if let subscribe = marble.subscribe {
            entries.append(.init(subscribed: subscribe, unsubscribed: marble.unsubscribe))
          }
        } catch {
          context.error(error, in: item)
          return nil
        }
      }
      return ExpectationSpec(
        target: target, location: key.start, expected: .subscriptions(entries, marbles: marbles),
        localLegend: [], fileLegend: .none, errorValue: errorValue, marbleNode: value, node: value, window: nil,
        source: .subscriptions(source))
    }
    guard var (signal, _) = resolveReference(target, at: key, target: true) else { return nil }
    var marbleNode = value
    var localLegend = LegendTable.empty
    var error = errorValue
    var window: (subscribe: Int, unsubscribe: Int?)?
    var consumer: YAMLNode?
    if let pairs = value.mappingPairs {
      context.checkKeys(pairs, allowed: ["marble", "values", "error", "subscribe", "consumer"], in: "an expectation")
      consumer = value["consumer"]
      guard let marble = value["marble"] else {
        context.error(.expectationNeedsMarble, at: value)
        return nil
      }
      marbleNode = marble
      if let values = value["values"] { localLegend = legendEntries(values) ?? .empty }
      if let errorNode = value["error"] { error = context.value(errorNode) }
      if let subscribe = value["subscribe"], let text = context.string(subscribe, "'subscribe'") {
        do throws(MarbleError) {
          let marble = try parser.parseSubscription(text)
          window = (marble.subscribe ?? 0, marble.unsubscribe)
        } catch {
          context.error(error, in: subscribe)
        }
      }
    }
    guard let text = context.string(marbleNode, "an expectation marble") else { return nil }
    if let style = marbleNode.scalarStyle, style == .literal || style == .folded,
      text.allSatisfy({ $0 == " " || $0 == "\n" })
    {
      let indicator = style == .literal ? "|" : ">"
      context.error(.bareBlockScalarMarble(indicator), at: marbleNode)
      return nil
    }
    var resolver = LegendResolver(plan: self.plan) { _, events, _ in
      .signal(SignalValue(events: events))
    }
    let events: EventTape
    let marks: ConsumerMarks
    var marbleParser = parser
    marbleParser.consumerMarks = plan.profile.consumersPull
    do throws(MarbleError) {
      // Resolved while parsed: the items of a long marble are never all held at once.
      let parsed = try resolver.parseEvents(
        text, hot: false, parser: marbleParser, legend: localLegend, errorValue: error)
      events = parsed.events
      marks = parsed.marble.consumer
    } catch {
      context.error(error, in: marbleNode)
      return nil
    }
    if let consumer {
      guard marks.delays.isEmpty else {
        context.error(.consumerTwice, at: consumer)
        return nil
      }
      guard let paced = consumerPace(consumer, of: signal, target: target) else { return nil }
      signal = paced
    } else if !marks.delays.isEmpty {
      signal = consumerPace(marks, events: events, of: signal, target: target, at: marbleNode)
    }
    if let cancel = marks.cancel {
      if let window, cancel < window.subscribe {
        context.error(.cancelBeforeSubscription(cancel, subscribe: window.subscribe), at: marbleNode)
        return nil
      }
      usesRow("async-task-cancellation")
    }
    let ownLegend = resolver.entries(of: localLegend)
    var spec = ExpectationSpec(
      target: target, location: key.start, expected: .events(events),
      localLegend: ownLegend, fileLegend: expectedFileLegend(), errorValue: error, marbleNode: marbleNode, node: value,
      window: window, source: .signal(signal))
    spec.cancel = marks.cancel
    spec.delaysPulls = !marks.delays.isEmpty
    return spec
  }

  /// Whose log `<owner>.subscriptions` reads: a subject, or a signal starting with `hot`/`cold`.
  private func subscriptionTarget(_ owner: String, at node: YAMLNode) -> SubscriptionTarget? {
    guard let declaration = declarations[owner] else {
      context.error(.unknownSubscriptionsOwner(owner).suggesting(owner, among: declarations.keys), at: node)
      return nil
    }
    switch declaration.kind {
    case .subject: return .subject(owner)
    case .signal:
      compileNamedSignal(owner)
      var plan = self.plan.signals[owner]
      while case .apply(let input, _)? = plan { plan = input }
      if case .source(let source)? = plan, let target = source.subscriptions { return target }
    default: break
    }
    context.error(.subscriptionsOwnerNotLogged(owner), at: node)
    return nil
  }
}

extension Diagnostic.Message {
  fileprivate static func unknownSubscriptionsOwner(_ owner: String) -> Self {
    "unknown signal '\(owner)' in '\(owner).subscriptions'"
  }
  fileprivate static let effectNeedsOn: Self = "an effect needs 'on: <signal>'"
  fileprivate static let timelineActionNeedsAt: Self = "a timeline action needs 'at: <time>'"
  fileprivate static let timelineActionNeedsAction: Self =
    "a timeline action needs one of 'send', 'set', 'execute', 'complete', 'fail'"
  /// A bare `send: name` or `set: name` where no event's value is there to send.
  fileprivate static func actionNeedsValue(_ key: String, _ name: String) -> Self {
    "'\(key): \(name)' needs a value here: write '\(key): { \(name): <value> }'"
  }
  fileprivate static func relayNeverTerminates(_ name: String, verb: String) -> Self {
    Self(
      "'\(name)' is a relay, which never terminates (library 'rxswift': a relay only accepts values); "
        + "'\(verb)' needs a subject such as '{}' (PublishSubject)")
  }
  fileprivate static let expectationNeedsMarble: Self = "an expectation needs 'marble'"
  /// A block scalar indicator (`|` or `>`) written alone as a marble.
  fileprivate static func bareBlockScalarMarble(_ indicator: String) -> Self {
    Self(
      "this marble is empty: YAML reads a bare '\(indicator)' as the start of a block scalar, with nothing in it; "
        + "quote it (\"\(indicator)\") for the marble '\(indicator)'")
  }
  fileprivate static let consumerTwice: Self =
    "'consumer' and the marble's ',' both say when the consumer pulls; keep one of them"
  fileprivate static func cancelBeforeSubscription(_ cancel: Int, subscribe: Int) -> Self {
    "';' cancels the iteration at frame \(cancel), before the expectation subscribes (frame \(subscribe))"
  }
  fileprivate static func subscriptionsOwnerNotLogged(_ owner: String) -> Self {
    "'\(owner).subscriptions' needs a subject or a signal whose first step is 'hot' or 'cold'"
  }
}
