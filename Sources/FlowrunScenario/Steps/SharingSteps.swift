import FlowrunCore
import FlowrunYAML

extension StepTable {
  /// Sharing and scheduling operators of the wider catalogue, each with a page under
  /// docs/operators/. The sharing ones are traced as `share`.
  static let sharingSteps: [StepDefinition] = [
    .operator(
      "share", .bare,
      summary: "RxJS 7 share(): one connection for all subscribers, reset after completion or error.",
      docs: .page("share")
    ) { c in
      guard c.checkBare() else { return nil }
      return c.share(.share, eager: false)
    },
    .operator(
      "shareReplay", .count, summary: "RxJS 7 shareReplay(n): stays connected and replays the last n values.",
      docs: .page("shareReplay"), trace: "share"
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let count = c.count(argument, c.quotedName) else {
        return nil
      }
      return c.share(.shareReplay(count), eager: false)
    },
    .operator(
      "replay", .bare, summary: "RAC2 replay: connects at once and replays every value.", docs: .page("replay"),
      trace: "share"
    ) { c in
      guard c.checkBare() else { return nil }
      return c.share(.racReplay(.max), eager: true)
    },
    .operator(
      "replayLast", .bare, summary: "RAC2 replayLast: connects at once and replays the last value.",
      docs: .page("replayLast"), trace: "share"
    ) { c in
      guard c.checkBare() else { return nil }
      return c.share(.racReplay(1), eager: true)
    },
    .operator(
      "replayLazily", .bare, summary: "RAC2 replayLazily: connects at the first subscription and replays every value.",
      docs: .page("replayLazily"), trace: "share"
    ) { c in
      guard c.checkBare() else { return nil }
      return c.share(.racReplay(.max), eager: false)
    },
    .operator(
      "observeOn", .string, aliases: [Alias("deliverOn", of: .rac2)],
      summary: "Re-delivers each event as a new scheduler action at the same frame; the argument names the queue.",
      docs: .page("observeOn")
    ) { c in
      guard let argument = c.requiredNonNullArgument(), c.string(argument, c.quotedName) != nil else { return nil }
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, _ in
        upstream.observeOn(owner: owner, runtime: graph.runtime)
      }
    },
  ]
}

extension OperatorCompilation {
  /// One connection multicast to every subscriber; `eager` connects during setup (RAC2 `replay`
  /// and `replayLast`).
  fileprivate func share(_ policy: ShareSource.Policy, eager: Bool) -> (SignalPlan, ValueShape) {
    let owner = nodeLabel
    return apply(shape.passedOn) { graph, upstream, _ in
      let shared = ShareSource(upstream, policy: policy, owner: owner, runtime: graph.runtime)
      // A connection made later (inside a template) connects when first subscribed, which is
      // the moment its template is used.
      if eager { graph.eagerConnections.append { [weak shared] in shared?.connect() } }
      return shared
    }
  }
}
