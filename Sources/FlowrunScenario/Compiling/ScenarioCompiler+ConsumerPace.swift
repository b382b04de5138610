import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunYAML

/// `consumer: { busy: n }` on an expectation (`library: async`): the expectation is a slow
/// consumer of the `AsyncSequence`, busy `n` frames after each value (docs/libraries.md,
/// `async-consumer-pace`).
extension ScenarioCompiler {
  /// The steps between a buffer and the consumer that pass values one by one (they hold none).
  private static let valueByValue: Set<String> = [
    "map", "filter", "compactMap", "compacted", "removeDuplicates", "distinctUntilChanged", "tap", "prefix",
    "dropFirst", "drop", "take", "skip", "takeWhile", "skipWhile",
  ]

  /// The expectation's signal, pulled by a consumer at the pace `node` declares.
  func consumerPace(_ node: YAMLNode, of signal: SignalPlan, target: String) -> SignalPlan? {
    guard plan.profile.consumersPull else {
      context.error(.consumerNeedsPull(libraryPhrase), at: node)
      return nil
    }
    guard let pairs = context.mapping(node, "'consumer'") else { return nil }
    context.checkKeys(pairs, allowed: ["busy"], in: "'consumer'")
    guard let busyNode = node["busy"] else {
      context.error(.consumerNeedsBusy, at: node)
      return nil
    }
    guard let busy = frames(busyNode, "'busy'", minimum: 0) else { return nil }
    usesRow("async-consumer-pace")
    return paced(signal, busy: busy, notBefore: [], target: target, at: node)
  }

  /// The expectation's signal, pulled when its marble's `,` say (`marks`, the frames of the
  /// marble's `events`): the consumer of swift-async-algorithms' validation diagrams.
  func consumerPace(
    _ marks: ConsumerMarks, events: EventTape, of signal: SignalPlan, target: String, at node: YAMLNode
  ) -> SignalPlan {
    usesRow("async-consumer-pace")
    let notBefore = marks.pullFrames(eventFrames: events.events.map(\.frame))
    return paced(signal, busy: 0, notBefore: notBefore, target: target, at: node)
  }

  private func paced(
    _ signal: SignalPlan, busy: Int, notBefore: [Int?], target: String, at node: YAMLNode
  ) -> SignalPlan {
    let policy = keptPolicy(of: signal)
    if let row = pulledRow(of: signal) { usesRow(row) }
    let owner = NodeLabel("consumer", at: node.start)
    return .apply(
      signal,
      OperatorPlan(label: "consumer") { graph, upstream, _ in
        graph.pulls[target] = []
        // Unowned: the closure is called only while the graph runs (Runtime, "Ownership").
        return upstream.pulled(
          busy: Timing(busy, owner: owner, runtime: graph.runtime), keeping: policy, notBefore: notBefore
        ) { [unowned graph] frame in
          graph.pulls[target, default: []].append(frame)
        }
      })
  }

  /// The rows of the steps nearest the consumer that compute when they are pulled: they ask
  /// the consumer whether it waits (`DemandingObserver`) instead of handing values on.
  private static let pulledRows: [String: String] = [
    "throttle": "async-throttle-pull-based", "combineLatest": "async-combinelatest-pulls-on-demand",
    "zip": "async-zip-pulls-one-per-base", "merge": "async-merge-pulls-on-demand",
  ]

  /// The row of the pull-based step (or `observed:` property) nearest the consumer, through
  /// steps that pass values one by one.
  private func pulledRow(of signal: SignalPlan) -> String? {
    var current = signal
    for _ in 0..<1_000 {
      switch current {
      case .apply(let input, let step):
        if let row = Self.pulledRows[step.label] { return row }
        guard Self.valueByValue.contains(step.label) else { return nil }
        current = input
      case .source(let source):
        return Self.pulledRows[source.label]
      case .reference(.property(let name)):
        let property = plan.properties.first { $0.name == name }
        guard case .source(let source)? = property?.binding, source.label == "observed" else { return nil }
        return "async-observed-current-value-at-pull"
      case .reference(.signal(let name)):
        guard let named = plan.signals[name] else { return nil }
        current = named
      default:
        return nil
      }
    }
    return nil
  }

  /// How the buffer nearest the consumer keeps values while it is busy: a step's own
  /// (`buffer(policy:)`, `debounce`), an `AsyncStream` subject's policy, an `observed:`
  /// property's (only the current value: Observations, SE-0475), else every value (a marble's
  /// values, a channel's senders and `merge`'s bases wait to be pulled).
  private func keptPolicy(of signal: SignalPlan) -> Subject.BufferingPolicy {
    var current = signal
    for _ in 0..<1_000 {
      switch current {
      case .apply(let input, let step):
        if let keeps = step.keeps { return keeps }
        guard Self.valueByValue.contains(step.label) else { return .unbounded }
        current = input
      case .reference(.subject(let name)):
        let subject = plan.subjects.first { $0.name == name }
        if case .stream(let policy)? = subject?.distribution { return policy }
        return .unbounded
      case .reference(.property(let name)):
        // Observations (SE-0475) hands a slow consumer the current value at its next pull.
        let property = plan.properties.first { $0.name == name }
        if case .source(let source)? = property?.binding, source.label == "observed" { return .bufferingNewest(1) }
        return .unbounded
      case .reference(.signal(let name)):
        guard let named = plan.signals[name] else { return .unbounded }
        current = named
      default:
        return .unbounded
      }
    }
    return .unbounded
  }
}

extension Diagnostic.Message {
  fileprivate static func consumerNeedsPull(_ libraryPhrase: String) -> Self {
    Self(
      "'consumer' is the pace of an AsyncSequence's consumer, which pulls its values ('library: async'); "
        + "\(libraryPhrase) pushes them")
  }
  fileprivate static let consumerNeedsBusy: Self =
    "'consumer' needs 'busy': the frames the consumer is busy after each value"
}
