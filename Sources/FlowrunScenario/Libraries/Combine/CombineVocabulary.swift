import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML

extension StepTable {
  /// Combine's `Publisher` operators that the default catalogue does not name, under Combine's
  /// names with its argument labels as keys, each over the shared observers (FlowrunCore
  /// Operators) and following OpenCombine 0.14.0's `Publishers/Publishers.<Name>.swift`.
  /// Throwing forms (`tryMap`, `tryFilter` …) fail with the expression's error (`throw(v)`
  /// or an evaluation error), as every expression step does.
  static let combineVocabularySteps: [StepDefinition] =
    combineTransformSteps + combineFilterSteps + combineReducingSteps + combineSchedulingSteps

  /// Mapping and error steps (Publishers.Map, CompactMap, MapError, ReplaceNil, ReplaceError,
  /// ReplaceEmpty, Concatenate).
  static let combineTransformSteps: [StepDefinition] = [
    .equivalent("tryMap", .expression, of: "map", library: .combine, summary: "Combine tryMap: map; throw(v) fails."),
    .operator(
      "compactMap", .expression, aliases: [Alias("tryCompactMap", of: .combine)],
      summary: "Combine compactMap: the expression's non-null results.", library: .combine, nearest: "map"
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let step = c.expression(argument) else { return nil }
      return c.apply(.value) { graph, upstream, scope in
        upstream.map(graph.transform(step, scope)).filter { value, _ in value != .null }
      }
    },
    .operator(
      "mapError", .expression, summary: "Combine mapError: the failure becomes the expression's value ($0 the error).",
      library: .combine, nearest: "catch"
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let step = c.expression(argument) else { return nil }
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        let transform = graph.transform(step, scope)
        return upstream.catchError { error throws(StepFailure) in ImmediateSource.fail(try transform(error, 0)) }
      }
    },
    .operator(
      "replaceNil", .value, summary: "Combine replaceNil(with:): a null value becomes this value.", library: .combine,
      nearest: "map"
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let replacement = c.value(argument)
      return c.apply(.value) { _, upstream, _ in upstream.map { value, _ in value == .null ? replacement : value } }
    },
    .equivalent(
      "replaceError", .value, of: "catchAndReturn", library: .combine, row: "combine-replaceError",
      summary: "Combine replaceError(with:): on failure, this value, then finished."),
    .operator(
      "replaceEmpty", .value, summary: "Combine replaceEmpty(with:): this value when the source finishes empty.",
      library: .combine, nearest: "defaultIfEmpty"
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let value = c.value(argument)
      c.uses("combine-replaceEmpty")
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.replaceEmpty(with: value) }
    },
    .operator(
      "prepend", .value,
      summary: "Combine prepend: these values first, each on demand; the source is subscribed after the last one.",
      library: .combine, nearest: "startWith"
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let values: [Value]
      if case .list(let items) = c.value(argument) { values = items } else { values = [c.value(argument)] }
      c.uses("combine-removeDuplicates-prepend")
      c.uses("combine-prepend-subscribes-after-last-value")
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.startWith(values, pullsOnDemand: true) }
    },
    .operator(
      "append", .value, summary: "Combine append: after the source completes, these values, then completed.",
      library: .combine, nearest: "concatWith"
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let values: [Value]
      if case .list(let items) = c.value(argument) { values = items } else { values = [c.value(argument)] }
      c.uses("combine-append")
      return c.apply(c.shape.passedOn) { _, upstream, _ in MergeSource.concat([upstream, ImmediateSource.of(values)]) }
    },
    .equivalent(
      "tryCatch", .template, of: "catch", library: .combine, summary: "Combine tryCatch: catch; throw(v) fails."),
    .operator(
      "collect", .labels,
      summary:
        "Combine collect: every value as one list at completion; { count: n }, { byTime: d }, { byTimeOrCount: d, count: n }.",
      library: .combine, nearest: "reduce"
    ) { c in c.combineCollect() },
  ]

  /// Steps that drop or pick values (Publishers.Filter, RemoveDuplicates, Drop, DropWhile,
  /// DropUntilOutput, Output, PrefixWhile, PrefixUntilOutput, IgnoreOutput).
  static let combineFilterSteps: [StepDefinition] = [
    .equivalent("tryFilter", .expression, of: "filter", library: .combine, summary: "Combine tryFilter: filter."),
    .operator(
      "removeDuplicates", .labels, aliases: [Alias("tryRemoveDuplicates", of: .combine)],
      summary:
        "Combine removeDuplicates (= distinctUntilChanged), or { by: expr } ($0 the previous value, $1 this one).",
      library: .combine, nearest: "distinctUntilChanged"
    ) { c in
      c.uses("combine-removeDuplicates-prepend")
      return c.removeDuplicates()
    },
    .equivalent(
      "dropFirst", .count, of: "skip", library: .combine, summary: "Combine dropFirst(n): drops the first n values."),
    .operator(
      "drop", .labels,
      summary: "Combine drop(untilOutputFrom:) / drop(while:): { untilOutputFrom: s } or { while: expr }.",
      library: .combine, nearest: "skipUntil"
    ) { c in
      guard let node = c.labelled(["untilOutputFrom", "while"]) else {
        c.error(.takesUntilOutputOrWhile(c.step.name), at: c.argument ?? c.step.nameNode)
        return nil
      }
      if let test = node["while"] {
        guard let step = c.expression(test) else { return nil }
        return c.apply(c.shape.passedOn) { graph, upstream, scope in
          upstream.skipWhile(graph.predicate(step, scope, role: "drop"))
        }
      }
      guard let signal = c.required("untilOutputFrom", of: node),
        let notifier = c.signal(signal, "'untilOutputFrom'")?.0
      else { return nil }
      c.uses("combine-drop-until-output-ends-with-notifier")
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.skipUntil(graph.source(for: notifier, scope: scope), combineRules: true)
      }
    },
    .operator(
      "prefix", .labels,
      summary: "Combine prefix(n): finishes at the value after the n-th; { untilOutputFrom: s }; { while: expr }.",
      library: .combine, nearest: "take"
    ) { c in
      if let node = c.labelled(["untilOutputFrom", "while"]) {
        if let test = node["while"] {
          guard let step = c.expression(test) else { return nil }
          return c.apply(c.shape.passedOn) { graph, upstream, scope in
            upstream.takeWhile(graph.predicate(step, scope, role: "prefix"))
          }
        }
        guard let signal = c.required("untilOutputFrom", of: node),
          let notifier = c.signal(signal, "'untilOutputFrom'")?.0
        else { return nil }
        c.uses("combine-prefix-until-output-ignores-failure")
        c.uses("combine-prefix-until-output-keeps-notifier")
        return c.apply(c.shape.passedOn) { graph, upstream, scope in
          upstream.takeUntil(graph.source(for: notifier, scope: scope), ignoresNotifierError: true, keepsNotifier: true)
        }
      }
      guard let argument = c.requiredNonNullArgument(), let count = c.count(argument, c.quotedName) else { return nil }
      c.uses("combine-prefix-finishes-on-next-value")
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.take(count, finishesOnNextValue: true) }
    },
    .operator(
      "output", .labels, summary: "Combine output(at:) / output(in:): { at: i } or { in: 'a...b' | 'a..<b' }.",
      library: .combine, nearest: "elementAt"
    ) { c in
      guard let node = c.labelled(["at", "in"]) else {
        c.error(.takesAtOrIn(c.step.name), at: c.argument ?? c.step.nameNode)
        return nil
      }
      guard let range = c.outputRange(node) else { return nil }
      c.uses("combine-prefix-finishes-on-next-value")
      return c.apply(c.shape.passedOn) { _, upstream, _ in
        upstream.skip(range.lowerBound).take(range.count, finishesOnNextValue: true)
      }
    },
    .equivalent(
      "ignoreOutput", .bare, of: "ignoreElements", library: .combine,
      summary: "Combine ignoreOutput: drops every value; passes the completion and the failure."),
  ]
}

extension OperatorCompilation {
  /// `removeDuplicates` (Combine, async): bare, `distinctUntilChanged`; `{ by: expr }` compares
  /// each value with the last one sent (`$0` the previous value, `$1` this one).
  func removeDuplicates() -> (SignalPlan, ValueShape)? {
    var failed = false
    guard let node = closureArgument("by", failed: &failed) else {
      return failed ? nil : compile(as: "distinctUntilChanged")
    }
    guard let step = expression(node, accumulator: true) else { return nil }
    let role = definition.name
    return apply(shape.passedOn) { graph, upstream, scope in
      upstream.removeDuplicates(by: graph.comparison(step, scope, role: role))
    }
  }

  /// `output: { at: i }` or `{ in: 'a...b' }` / `{ in: 'a..<b' }` (a list `[a, b]` is `a...b`).
  fileprivate func outputRange(_ node: YAMLNode) -> Range<Int>? {
    if let at = node["at"] {
      guard let index = count(at, "'at'") else { return nil }
      return index..<(index + 1)
    }
    guard let written = required("in", of: node) else { return nil }
    if let items = written.sequenceItems, items.count == 2,
      let lower = count(items[items.startIndex], "'in'"), let upper = count(items[items.startIndex + 1], "'in'"),
      lower <= upper
    {
      return lower..<(upper + 1)
    }
    let text = written.scalarValue ?? ""
    for (separator, closed) in [("..<", false), ("...", true)] {
      let parts = text.split(separator: separator, omittingEmptySubsequences: false)
      if parts.count == 2, let lower = Int(parts[0].filter { $0 != " " }),
        let upper = Int(parts[1].filter { $0 != " " }), lower >= 0, upper >= lower
      {
        return lower..<(closed ? upper + 1 : upper)
      }
    }
    error(.notARange, at: written)
    return nil
  }

  /// `collect`, `collect: { count: n }`, `{ byTime: d }`, `{ byTimeOrCount: d, count: n }`.
  fileprivate func combineCollect() -> (SignalPlan, ValueShape)? {
    guard let argument = nonNullArgument, argument.resolvedScalar != .bool(true) else {
      return apply(.value) { _, upstream, _ in
        upstream.reduce(seed: .list([])) { list, value, _ in
          guard case .list(let items) = list else { return .list([value]) }
          return .list(items + [value])
        }
      }
    }
    if argument.mappingPairs == nil, let size = count(argument, quotedName, minimum: 1) {
      return apply(.value) { _, upstream, _ in upstream.buffer(size, every: nil) }
    }
    guard let node = labelled(["count", "byTime", "byTimeOrCount"]) else { return nil }
    let limit = node["count"].flatMap { count($0, "'count'", minimum: 1) }
    if node["count"] != nil, limit == nil { return nil }
    guard let span = node["byTime"] ?? node["byTimeOrCount"] else {
      guard let limit else { return nil }
      return apply(.value) { _, upstream, _ in upstream.buffer(limit, every: nil) }
    }
    if node["byTimeOrCount"] != nil, limit == nil {
      error(.needsLabel("byTimeOrCount", "count"), at: node)
      return nil
    }
    guard let frames = frames(span, "'byTime'", minimum: 1) else { return nil }
    uses("combine-collect-by-time-sends-no-empty-list")
    let owner = nodeLabel
    return apply(.value) { graph, upstream, _ in
      upstream.bufferTime(
        Timing(frames, owner: owner, runtime: graph.runtime), every: nil, max: limit, sendsEmpty: false)
    }
  }
}

extension Graph {
  /// A two-value test (`$0` the previous value, `$1` this one) that must give a Bool.
  func comparison(_ step: StepExpression, _ scope: TemplateScope, role: String) -> Comparison {
    let accumulate = accumulate(step, scope)
    return { previous, value, index throws(StepFailure) in
      let result = try accumulate(previous, value, index)
      guard case .bool(let flag) = result else {
        throw StepFailure(.string("'\(role)' needs a Bool, got \(result.kindName)"))
      }
      return flag
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func takesUntilOutputOrWhile(_ step: String) -> Self {
    "'\(step)' takes { untilOutputFrom: signal } or { while: expr }"
  }
  fileprivate static func takesAtOrIn(_ step: String) -> Self { "'\(step)' takes { at: i } or { in: 'a...b' }" }
  fileprivate static let notARange: Self = "'in' must be a range such as '1...3' or '1..<3'"
}
