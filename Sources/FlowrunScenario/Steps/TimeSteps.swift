import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

extension StepTable {
  /// The time operators of the wider catalogue, each with a page under docs/operators/.
  static let timeSteps: [StepDefinition] = [
    .operator(
      "debounce", .duration, summary: "Emits a value once no newer value came for the duration.",
      docs: .page("debounce"),
      drops: .init(.replaced, "a newer value came", atEnd: "the source completed while it was pending")
    ) { c in
      c.timed { upstream, timing in upstream.debounce(timing) }
    },
    .operator(
      "throttle", .duration, extras: [.leading, .trailing, .latest],
      summary: "ReactiveX throttle: at most one value per duration (extra keys: leading, trailing, latest).",
      docs: .page("throttle")
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let duration = c.frames(argument, c.quotedName, minimum: 0)
      else { return nil }
      let leading = c.extra(.leading).flatMap { c.bool($0, "'leading'") } ?? true
      if c.extra(.trailing) != nil, let latest = c.extra(.latest) {
        c.error(.latestAndTrailing, at: latest)
      }
      let trailing = (c.extra(.trailing) ?? c.extra(.latest)).flatMap { c.bool($0, "'trailing'") } ?? true
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, _ in
        upstream.throttle(Timing(duration, owner: owner, runtime: graph.runtime), leading: leading, trailing: trailing)
      }
    },
    .operator("delay", .duration, summary: "Shifts every event later by the duration.", docs: .page("delay")) { c in
      c.timed { upstream, timing in upstream.delay(timing) }
    },
    .operator(
      "delaySubscription", .duration, summary: "Subscribes upstream only after the duration.",
      docs: .page("delaySubscription")
    ) { c in
      c.timed { upstream, timing in upstream.delaySubscription(timing) }
    },
    .operator(
      "timeout", .duration, extras: [.fallback],
      summary: "Fails with \"timeout\" (or switches to 'fallback') when no event comes within the duration.",
      docs: .page("timeout")
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let duration = c.frames(argument, c.quotedName, minimum: 0)
      else { return nil }
      var fallback: SignalPlan?
      if let node = c.extra(.fallback) {
        guard let plan = c.signal(node, "'fallback'") else { return nil }
        fallback = plan.0
      }
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { [fallback] graph, upstream, scope in
        upstream.timeout(
          Timing(duration, owner: owner, runtime: graph.runtime),
          fallback: fallback.map { graph.source(for: $0, scope: scope) })
      }
    },
    .operator(
      "timeoutRAC", .duration, summary: "RAC2 timeout: fails when the signal has not completed within the duration.",
      docs: .page("timeoutRAC")
    ) { c in
      c.timed { upstream, timing in upstream.timeoutRAC(timing) }
    },
    .operator(
      "bufferTime", .positiveDuration, extras: [.every, .max],
      summary: "Collects values into a list per period, empty ones included (extra keys: every, max).",
      docs: .page("bufferTime")
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let span = c.frames(argument, c.quotedName, minimum: 1)
      else { return nil }
      let every = c.extra(.every).flatMap { c.frames($0, "'every'", minimum: 1) }
      let max = c.extra(.max).flatMap { c.count($0, "'max'", minimum: 1) }
      let owner = c.nodeLabel
      return c.apply(.value) { graph, upstream, _ in
        upstream.bufferTime(Timing(span, owner: owner, runtime: graph.runtime), every: every, max: max)
      }
    },
    .operator(
      "buffer", .positiveCount, extras: [.every.taking(.positiveCount)],
      summary: "Collects values into lists of n (RxJS bufferCount; extra key: every).", docs: .page("buffer")
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let size = c.count(argument, c.quotedName, minimum: 1) else {
        return nil
      }
      let every = c.extra(.every).flatMap { c.count($0, "'every'", minimum: 1) }
      return c.apply(.value) { _, upstream, _ in upstream.buffer(size, every: every) }
    },
  ]
}

extension OperatorCompilation {
  /// A time operator whose argument is its duration (≥ 0 frames), its timers charged to the
  /// step.
  fileprivate func timed(_ make: @escaping (_ upstream: any Source, Timing) -> any Source) -> (SignalPlan, ValueShape)?
  {
    guard let argument = requiredNonNullArgument(), let duration = frames(argument, quotedName, minimum: 0) else {
      return nil
    }
    let owner = nodeLabel
    return apply(shape.passedOn) { graph, upstream, _ in
      make(upstream, Timing(duration, owner: owner, runtime: graph.runtime))
    }
  }
}

extension Diagnostic.Message {
  fileprivate static let latestAndTrailing: Self = "'latest' is an alias of 'trailing'; write only one of them"
}
