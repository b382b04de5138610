import FlowrunCore
import FlowrunYAML

extension StepTable {
  /// The operators of the first version: transform, filter, combine and debugging steps
  /// (scenario-format.md §Operators).
  static let coreOperatorSteps: [StepDefinition] = [
    .operator("map", .expression, summary: "Transforms each value with the expression ($0 is the value).") { c in
      guard let argument = c.requiredArgument(), let step = c.expression(argument) else { return nil }
      return c.apply(.value) { graph, upstream, scope in upstream.map(graph.transform(step, scope)) }
    },
    .operator("mapTo", .value, summary: "Replaces each value with this literal value.") { c in
      guard let argument = c.requiredArgument() else { return nil }
      let value = c.value(argument)
      return c.apply(.value) { _, upstream, _ in upstream.map { _, _ in value } }
    },
    .operator(
      "filter", .expression, summary: "Passes only values for which the expression is true.",
      drops: .init(.unsent, "the condition is false")
    ) { c in
      guard let argument = c.requiredArgument(), let step = c.expression(argument) else { return nil }
      let role = c.definition.name
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.filter(graph.predicate(step, scope, role: role))
      }
    },
    .operator(
      "scan", .expression, extras: [.seed],
      summary: "Accumulates: $0 the accumulator, $1 the value; emits every accumulation (extra key: seed)."
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let seed = c.extra(.seed).map { c.value($0) }
      guard let step = c.expression(argument, accumulator: true) else { return nil }
      return c.apply(.value) { graph, upstream, scope in
        upstream.scan(seed: seed, graph.accumulate(step, scope))
      }
    },
    .operator(
      "distinctUntilChanged", .optionalExpression,
      summary: "Drops a value equal to the previous one; with an expression, compares by that key.",
      drops: .init(.unsent, "same as before")
    ) { c in
      guard let argument = c.argument, !argument.isNull, argument.resolvedScalar != .bool(true) else {
        return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.distinctUntilChanged() }
      }
      guard let key = c.expression(argument) else { return nil }
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.distinctUntilChanged(by: graph.transform(key, scope))
      }
    },
    .operator("skip", .count, summary: "Drops the first n values.", drops: .init(.unsent, "skipped")) { c in
      guard let argument = c.requiredArgument(), let count = c.count(argument, c.quotedName) else { return nil }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.skip(count) }
    },
    .operator("take", .count, summary: "Passes the first n values, then completes.") { c in
      guard let argument = c.requiredArgument(), let count = c.count(argument, c.quotedName) else { return nil }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.take(count) }
    },
    .operator(
      "takeWhile", .expression, extras: [.inclusive],
      summary: "Passes values while the expression is true, then completes (extra key: inclusive)."
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let inclusive = c.extra(.inclusive).flatMap { c.bool($0, "'inclusive'") } ?? false
      guard let step = c.expression(argument) else { return nil }
      let role = c.definition.name
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.takeWhile(inclusive: inclusive, graph.predicate(step, scope, role: role))
      }
    },
    .operator(
      "skipWhile", .expression, summary: "Drops values while the expression is true.",
      drops: .init(.unsent, "skipped while the condition holds")
    ) { c in
      guard let argument = c.requiredArgument(), let step = c.expression(argument) else { return nil }
      let role = c.definition.name
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.skipWhile(graph.predicate(step, scope, role: role))
      }
    },
    .operator(
      "takeUntil", .signal,
      summary:
        "Passes values until the notifier signal sends a value (ReactiveX: the notifier completing does nothing)."
    ) { c in
      c.takeUntil(rac: false)
    },
    .operator(
      "takeUntilRAC", .signal,
      summary: "RAC2 takeUntil: also completes when the notifier completes; a notifier error is ignored."
    ) { c in
      c.takeUntil(rac: true)
    },
    .operator(
      "startWith", .value,
      summary: "Emits these values first (a list means several values; [[a, b]] is one list value)."
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let values: [Value]
      if case .list(let items) = c.value(argument) { values = items } else { values = [c.value(argument)] }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.startWith(values) }
    },
    .operator(
      "combineLatest", .signals, aliases: [Alias("combineLatestWith")],
      summary: "combineLatest of this signal and the given signal(s); values are lists."
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      return c.combination(argument, first: c.input) { CombineLatestSource($0, keys: $1) }
    },
    .operator(
      "zip", .signals, aliases: [Alias("zipWith")],
      summary: "zip of this signal and the given signal(s); values are lists."
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      return c.combination(argument, first: c.input) { ZipSource($0, keys: $1) }
    },
    .operator(
      "merge", .signals, aliases: [Alias("mergeWith")], extras: [.concurrent],
      summary: "Merges this signal with the given signal(s) (extra key: concurrent)."
    ) { c in
      guard let argument = c.requiredArgument(), let others = c.signals(argument, c.quotedName) else { return nil }
      let concurrent = c.extra(.concurrent).flatMap { c.count($0, "'concurrent'", minimum: 1) } ?? .max
      return (c.combine([c.input] + others) { MergeSource($0, concurrent: concurrent) }, .value)
    },
    .operator(
      "concat", .signals, aliases: [Alias("concatWith")],
      summary: "This signal, then the given signal(s), one after another."
    ) { c in
      guard let argument = c.requiredArgument(), let others = c.signals(argument, c.quotedName) else { return nil }
      return (c.combine([c.input] + others) { MergeSource.concat($0) }, .value)
    },
    .operator(
      "tap", .bare, aliases: [Alias("doNext", of: .rac2)], summary: "A no-op marker that --trace labels."
    ) { c in
      // Traced under the name it is written with.
      c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator("name", .string, summary: "Labels the node in traces and diagrams.") { c in
      guard let argument = c.requiredArgument(), let label = c.string(argument, c.quotedName) else { return nil }
      return c.apply(c.shape, label: label) { _, upstream, _ in upstream }
    },
  ]
}

extension OperatorCompilation {
  /// `rac`: RAC2's `-takeUntil:` (the notifier's completion completes it, its error is ignored).
  fileprivate func takeUntil(rac: Bool) -> (SignalPlan, ValueShape)? {
    guard let argument = requiredArgument(), let notifier = signal(argument, quotedName)?.0 else { return nil }
    return apply(shape.passedOn) { graph, upstream, scope in
      upstream.takeUntil(
        graph.source(for: notifier, scope: scope), completesWithNotifier: rac, ignoresNotifierError: rac)
    }
  }
}
