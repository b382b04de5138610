import FlowrunCore
import FlowrunYAML

// The wider catalogue (scenario-format.md §Operators), each step with a page under
// docs/operators/. These steps read a YAML null argument as none.

extension StepTable {
  /// Transform, filter and combine steps of the wider catalogue.
  static let catalogueSteps: [StepDefinition] = [
    .operator(
      "reduce", .expression, extras: [.seed],
      summary: "Like scan, but emits only the final accumulation on completion (extra key: seed).",
      docs: .page("reduce")
    ) { c in
      guard let argument = c.requiredNonNullArgument() else { return nil }
      let seed = c.extra(.seed).map { c.value($0) }
      guard let step = c.expression(argument, accumulator: true) else { return nil }
      return c.apply(.value) { graph, upstream, scope in
        upstream.reduce(seed: seed, graph.accumulate(step, scope))
      }
    },
    .operator(
      "pairwise", .bare, summary: "Emits [previous, current] pairs from the second value on.", docs: .page("pairwise")
    ) { c in
      guard c.checkBare() else { return nil }
      return c.apply(.tuple(2)) { _, upstream, _ in upstream.pairwise() }
    },
    .operator(
      "materialize", .bare, summary: "Turns events into values {kind: next|error|completed, value|error}.",
      docs: .page("materialize")
    ) { c in
      guard c.checkBare() else { return nil }
      return c.apply(.value) { _, upstream, _ in upstream.materialize() }
    },
    .operator("dematerialize", .bare, summary: "The reverse of materialize.", docs: .page("dematerialize")) { c in
      guard c.checkBare() else { return nil }
      return c.apply(.value) { _, upstream, _ in upstream.dematerialize() }
    },
    .operator("takeLast", .count, summary: "Emits the last n values on completion.", docs: .page("takeLast")) { c in
      guard let argument = c.requiredNonNullArgument(), let count = c.count(argument, c.quotedName) else {
        return nil
      }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.takeLast(count) }
    },
    .operator(
      "skipUntil", .signal, summary: "Drops values until the notifier signal sends a value.", docs: .page("skipUntil"),
      drops: .init(.unsent, "before the notifier's first value")
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let notifier = c.signal(argument, c.quotedName)?.0 else {
        return nil
      }
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.skipUntil(graph.source(for: notifier, scope: scope))
      }
    },
    .operator(
      "first", .optionalExpression, extras: [.default],
      summary: "The first value (or the first passing the expression), then completes (extra key: default).",
      docs: .page("first")
    ) { c in
      c.firstOrLast { upstream, predicate, defaultValue in upstream.first(where: predicate, default: defaultValue) }
    },
    .operator(
      "last", .optionalExpression, extras: [.default],
      summary: "The last value (or the last passing the expression), on completion (extra key: default).",
      docs: .page("last")
    ) { c in
      c.firstOrLast { upstream, predicate, defaultValue in upstream.last(where: predicate, default: defaultValue) }
    },
    .operator(
      "elementAt", .count, extras: [.default],
      summary: "The value at this index, then completes (extra key: default).", docs: .page("elementAt")
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let index = c.count(argument, c.quotedName) else {
        return nil
      }
      let defaultValue = c.extra(.default).map { c.value($0) }
      return c.apply(c.shape.passedOn) { _, upstream, _ in
        upstream.elementAt(index, default: defaultValue)
      }
    },
    .operator(
      "ignoreElements", .bare, aliases: [Alias("ignoreValues", of: .rac2)],
      summary: "Drops every value; passes completion and error.", docs: .page("ignoreElements"),
      drops: .init(.unsent, "ignored")
    ) { c in
      guard c.checkBare() else { return nil }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.ignoreElements() }
    },
    .operator("ignore", .value, summary: "RAC2: drops values equal to this value.", docs: .page("ignore")) { c in
      guard let argument = c.requiredNonNullArgument() else { return nil }
      let ignored = c.value(argument)
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.filter { value, _ in value != ignored } }
    },
    .operator(
      "withLatestFrom", .signals,
      summary: "Each value paired with the latest values of the given signal(s): [$0, $1, …].",
      docs: .page("withLatestFrom")
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let others = c.signals(argument, c.quotedName) else {
        return nil
      }
      return c.apply(.tuple(others.count + 1)) { graph, upstream, scope in
        upstream.withLatestFrom(others.map { graph.source(for: $0, scope: scope) })
      }
    },
    .operator(
      "sample", .signal, summary: "Emits the latest value when the sampler signal sends (ReactiveX: only a new value).",
      docs: .page("sample")
    ) { c in
      c.sample(repeatsValue: false)
    },
    .operator(
      "sampleRAC", .signal, summary: "RAC2 sample: re-emits the latest value at every sampler event.",
      docs: .page("sampleRAC"), trace: "sample"
    ) { c in
      c.sample(repeatsValue: true)
    },
    .operator(
      "then", .signal, summary: "RAC2: ignores the values, then on completion subscribes to the given signal.",
      docs: .page("then")
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let next = c.signal(argument, c.quotedName) else {
        return nil
      }
      return c.apply(next.1) { graph, upstream, scope in
        MergeSource.concat([upstream.ignoreElements(), graph.source(for: next.0, scope: scope)])
      }
    },
  ]
}

extension OperatorCompilation {
  /// `first` and `last`: an optional test, an optional `default:`.
  fileprivate func firstOrLast(
    _ make: @escaping (_ upstream: any Source, Predicate?, _ default: Value?) -> any Source
  ) -> (SignalPlan, ValueShape)? {
    let defaultValue = extra(.default).map { value($0) }
    var test: StepExpression?
    if let argument = nonNullArgument {
      guard let compiled = expression(argument) else { return nil }
      test = compiled
    }
    let role = definition.name
    return apply(shape.passedOn) { [test] graph, upstream, scope in
      make(upstream, test.map { graph.predicate($0, scope, role: role) }, defaultValue)
    }
  }

  fileprivate func sample(repeatsValue: Bool) -> (SignalPlan, ValueShape)? {
    guard let argument = requiredNonNullArgument(), let sampler = signal(argument, quotedName)?.0 else { return nil }
    return apply(shape.passedOn) { graph, upstream, scope in
      upstream.sample(graph.source(for: sampler, scope: scope), repeatsValue: repeatsValue)
    }
  }
}
