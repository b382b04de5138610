import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

extension LibraryTable {
  /// `library: rac2`: the default catalogue with RAC2's rows (`StepTable.rac2Steps`,
  /// `rac2Vocabulary`) and words.
  static let rac2 = LibraryTable(
    library: .rac2, rows: StepTable.rac2Steps + StepTable.rac2Vocabulary, words: StepTable.rac2Words)
}

extension StepTable {
  /// `library: rac2` (libraries.md): the keys ReactiveObjC means differently, and its own
  /// selectors. Each meaning is a row of docs/libraries.md, named in `uses`.
  static let rac2Steps: [StepDefinition] = [
    .operator(
      "throttle", .duration, extras: [.valuesPassingTest],
      summary:
        "RAC2 -throttle:: a trailing debounce; the pending value is sent on completion. Extra key valuesPassingTest (-throttle:valuesPassingTest:).",
      library: .rac2
    ) { c in
      c.uses("rac2-throttle-is-debounce")
      guard let testNode = c.extra(.valuesPassingTest) else { return c.compile(as: "debounce") }
      guard let argument = c.requiredNonNullArgument(), let frames = c.frames(argument, c.quotedName, minimum: 0),
        let test = c.expression(testNode)
      else { return nil }
      c.uses("rac2-throttle-values-passing-test")
      let role = c.definition.name
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.debounce(
          Timing(frames, owner: owner, runtime: graph.runtime), valuesPassing: graph.predicate(test, scope, role: role))
      }
    },
    .operator(
      "takeUntil", .signal,
      summary: "RAC2 -takeUntil:: completes on the notifier's first value or its completion; its error is ignored.",
      library: .rac2
    ) { c in
      guard let argument = c.requiredArgument(), let notifier = c.signal(argument, c.quotedName)?.0 else { return nil }
      c.uses("rac2-takeuntil-trigger-completes")
      c.uses("rac2-takeuntil-trigger-error-ignored")
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.takeUntil(
          graph.source(for: notifier, scope: scope), completesWithNotifier: true, ignoresNotifierError: true)
      }
    },
    .operator(
      "sample", .signal,
      summary: "RAC2 -sample:: the latest value at every sampler value, repeated; completes with either signal.",
      trace: "sample", library: .rac2
    ) { c in
      c.uses("rac2-sample-repeats")
      c.uses("rac2-sample-completes-with-sampler")
      return c.compile(as: "sampleRAC")
    },
    .operator(
      "timeout", .duration,
      summary: "RAC2 -timeout:onScheduler:: fails unless the signal terminates within the duration.",
      library: .rac2
    ) { c in
      c.uses("rac2-timeout-whole-stream")
      return c.compile(as: "timeoutRAC")
    },
    .operator(
      "retry", .retry,
      summary: "RAC2 -retry:: n re-subscriptions, through the scheduler; 0 or bare: without limit.", library: .rac2
    ) { c in
      c.uses("rac2-retry-zero-forever")
      c.uses("rac2-retry-async-resubscribe")
      return c.retry(resubscribesAsAction: true) { count in .times(count == 0 ? nil : count) }
    },
    .operator(
      "delay", .duration, summary: "RAC2 -delay:: values and the completion arrive later; an error at once.",
      library: .rac2
    ) { c in
      guard let argument = c.requiredNonNullArgument() else { return nil }
      c.uses("rac2-delay-completion")
      return c.timed(argument, c.quotedName) { upstream, timing in upstream.delay(timing, delaysCompletion: true) }
    },
    .equivalent(
      "mapReplace", .value, of: "mapTo", library: .rac2, row: "rac2-mapReplace",
      summary: "RAC2 -mapReplace:: every value becomes this value."),
    .operator("not", .bare, summary: "RAC2 -not: negates a Bool.", library: .rac2, nearest: "map") { c in
      guard c.checkBare() else { return nil }
      c.uses("rac2-not-and-or")
      return c.apply(.value) { _, upstream, _ in
        upstream.map { value, _ throws(StepFailure) in .bool(!(try boolean(value, for: "not"))) }
      }
    },
    .operator("and", .bare, summary: "RAC2 -and: true when every Bool of the list is.", library: .rac2, nearest: "map")
    {
      c in
      c.booleans("and") { $0.allSatisfy { $0 } }
    },
    .operator("or", .bare, summary: "RAC2 -or: true when a Bool of the list is.", library: .rac2, nearest: "map") { c in
      c.booleans("or") { $0.contains(true) }
    },
    .equivalent(
      "reduceEach", .expression, of: "map", library: .rac2, row: "rac2-reduceEach",
      summary: "RAC2 -reduceEach:: the list's items as $0, $1, …"),
    .equivalent(
      "catchTo", .signal, of: "catch", library: .rac2, row: "rac2-catchTo",
      summary: "RAC2 -catchTo:: on error, continues with this signal."),
    .operator(
      "collect", .bare, summary: "RAC2 -collect: one list of every value on completion.", library: .rac2,
      nearest: "reduce"
    ) { c in
      guard c.checkBare() else { return nil }
      c.uses("rac2-collect")
      return c.apply(.value) { _, upstream, _ in
        upstream.reduce(seed: .list([])) { list, value, _ in
          guard case .list(let items) = list else { return .list([value]) }
          return .list(items + [value])
        }
      }
    },
    .operator(
      "aggregateWithStart", .value,
      summary: "RAC2 -aggregateWithStart:reduce:: { start, reduce } — the final accumulator on completion.",
      library: .rac2, nearest: "reduce"
    ) { c in
      c.uses("rac2-aggregateWithStart")
      return c.withStart { upstream, start, accumulate in upstream.reduce(seed: start, accumulate) }
    },
    .operator(
      "scanWithStart", .value,
      summary:
        "RAC2 -scanWithStart:reduce:: { start, reduce } — every accumulation ($0 the running value, $1 the new one).",
      library: .rac2, nearest: "scan"
    ) { c in
      c.uses("rac2-scanWithStart")
      return c.withStart { upstream, start, accumulate in upstream.scan(seed: start, accumulate) }
    },
    .operator(
      "takeUntilBlock", .expression,
      summary: "RAC2 -takeUntilBlock:: completes at the first value that passes (not sent).",
      library: .rac2, nearest: "takeWhile"
    ) { c in
      c.uses("rac2-takeUntilBlock")
      return c.negatedTest { upstream, test in upstream.takeWhile(test) }
    },
    .equivalent(
      "takeWhileBlock", .expression, of: "takeWhile", library: .rac2, row: "rac2-takeWhileBlock",
      summary: "RAC2 -takeWhileBlock:: values while the test holds, then completed."),
    .operator(
      "skipUntilBlock", .expression, summary: "RAC2 -skipUntilBlock:: drops values until one passes, then sends all.",
      library: .rac2, nearest: "skipWhile", drops: .init(.unsent, "skipped until the condition holds")
    ) { c in
      c.uses("rac2-skipUntilBlock")
      return c.negatedTest { upstream, test in upstream.skipWhile(test) }
    },
    .equivalent(
      "skipWhileBlock", .expression, of: "skipWhile", library: .rac2, row: "rac2-skipWhileBlock",
      summary: "RAC2 -skipWhileBlock:: drops values while the test holds."),
    .operator(
      "bufferWithTime", .positiveDuration,
      summary: "RAC2 -bufferWithTime:: a buffer's first value starts the timer; no empty buffers.", library: .rac2,
      nearest: "bufferTime"
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let span = c.frames(argument, c.quotedName, minimum: 1) else {
        return nil
      }
      c.uses("rac2-bufferWithTime")
      let owner = c.nodeLabel
      return c.apply(.value) { graph, upstream, _ in
        upstream.bufferWithTime(Timing(span, owner: owner, runtime: graph.runtime))
      }
    },
    .equivalent(
      "initially", .bare, of: "tap", library: .rac2, row: "rac2-initially",
      summary: "RAC2 -initially:: a marker run at each subscription."),
    .equivalent(
      "finally", .bare, of: "tap", library: .rac2, row: "rac2-finally",
      summary: "RAC2 -finally:: a marker run on error or completion."),
    .operator(
      "subscribeOn", .bare,
      summary: "RAC2 -subscribeOn:: subscribes as a new scheduler action at the same frame (a queue name may follow).",
      library: .rac2, nearest: "delaySubscription"
    ) { c in
      if let argument = c.nonNullArgument, argument.resolvedScalar != .bool(true),
        c.string(argument, c.quotedName) == nil
      {
        return nil
      }
      c.uses("rac2-subscribeOn")
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, _ in
        upstream.delaySubscription(Timing(0, owner: owner, runtime: graph.runtime))
      }
    },
  ]
}

/// The Bool a RAC2 boolean operator reads.
private func boolean(_ value: Value, for name: String) throws(StepFailure) -> Bool {
  guard case .bool(let flag) = value else {
    throw StepFailure(.string("'\(name)' needs Bool values, got \(value.kindName)"))
  }
  return flag
}

extension OperatorCompilation {
  /// `and` / `or`: a list of Bools (a `combineLatest`) reduced to one.
  fileprivate func booleans(_ name: String, _ reduce: @escaping @Sendable ([Bool]) -> Bool) -> (SignalPlan, ValueShape)?
  {
    guard checkBare() else { return nil }
    uses("rac2-not-and-or")
    return apply(.value) { _, upstream, _ in
      upstream.map { value, _ throws(StepFailure) in
        guard case .list(let items) = value else {
          throw StepFailure(.string("'\(name)' needs a list of Bools, got \(value.kindName)"))
        }
        var flags: [Bool] = []
        for item in items { flags.append(try boolean(item, for: name)) }
        return .bool(reduce(flags))
      }
    }
  }

  /// `{ start: v, reduce: expr }` (`$0` the running value, `$1` the new one).
  fileprivate func withStart(
    _ make: @escaping (_ upstream: any Source, _ start: Value, @escaping Accumulate) -> any Source
  ) -> (SignalPlan, ValueShape)? {
    guard let node = labelled(["start", "reduce"]) else {
      error(.takesStartAndReduce(step.name), at: argument ?? step.nameNode)
      return nil
    }
    guard let startNode = required("start", of: node), let reduceNode = required("reduce", of: node),
      let step = expression(reduceNode, accumulator: true)
    else { return nil }
    let start = value(startNode)
    return apply(.value) { graph, upstream, scope in make(upstream, start, graph.accumulate(step, scope)) }
  }

  /// A test whose result is negated (`takeUntilBlock`, `skipUntilBlock`).
  fileprivate func negatedTest(_ make: @escaping (_ upstream: any Source, @escaping Predicate) -> any Source)
    -> (SignalPlan, ValueShape)?
  {
    guard let argument = requiredArgument(), let step = expression(argument) else { return nil }
    let role = definition.name
    return apply(shape.passedOn) { graph, upstream, scope in
      let test = graph.predicate(step, scope, role: role)
      return make(upstream) { value, index throws(StepFailure) in !(try test(value, index)) }
    }
  }
}

extension Diagnostic.Message {
  /// Step `step` (`combinePreviousWithStart`, `scanWithStart`) takes its seed and its reducer.
  static func takesStartAndReduce(_ step: String) -> Self { "'\(step)' takes { start: v, reduce: expr }" }
}
