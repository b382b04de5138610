import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML

extension LibraryTable {
  /// `library: async`: the default catalogue with the rows of the standard library's
  /// `AsyncSequence` operators and swift-async-algorithms (`StepTable.asyncSteps`) and words.
  static let async = LibraryTable(library: .async, rows: StepTable.asyncSteps, words: StepTable.asyncWords)
}

extension StepTable {
  /// `library: async` (libraries.md): the standard library's `AsyncSequence` operators and
  /// swift-async-algorithms 1.1.4, with their meanings for a consumer that calls `next()` again as
  /// soon as it has a value. Each row names the package's (or the standard library's) source it
  /// follows; docs/libraries.md has one row per difference from the default.
  static let asyncSteps: [StepDefinition] = asyncStandardLibrarySteps + asyncAlgorithmsSteps

  /// The async words for default keys it has no operator of that name for: `flowrun check`
  /// names them in a note (the key keeps its default meaning).
  static let asyncWords: [String: String] = [
    "take": "'prefix'", "skip": "'dropFirst'", "takeWhile": "'prefix: { while }'",
    "skipWhile": "'drop: { while }'", "distinctUntilChanged": "'removeDuplicates'", "scan": "'reductions'",
    "pairwise": "'adjacentPairs'", "concat": "'chain'", "concatMap": "'flatMap'", "switchMap": "'flatMapLatest'",
    "bufferTime": "'chunked: { by: { every } }'",
    "startWith": "'chain' after a 'just'",
  ]

  /// The standard library's `AsyncSequence` operators (swift `stdlib/public/Concurrency/
  /// AsyncPrefixSequence.swift`, `AsyncDropFirstSequence.swift`, … `AsyncSequence.swift`).
  static let asyncStandardLibrarySteps: [StepDefinition] = [
    .operator(
      "compactMap", .expression, summary: "AsyncSequence compactMap: the expression's non-null results.",
      library: .async, nearest: "map"
    ) { c in
      // AsyncCompactMapSequence.swift `Iterator.next()`: loops until the transform is non-nil.
      guard let argument = c.requiredNonNullArgument(), let step = c.expression(argument) else { return nil }
      return c.apply(.value) { graph, upstream, scope in
        upstream.map(graph.transform(step, scope)).filter { value, _ in value != .null }
      }
    },
    .operator(
      "prefix", .labels,
      summary: "AsyncSequence prefix(n) (ends right after the n-th value) or prefix: { while: expr }.",
      library: .async, nearest: "take"
    ) { c in
      // AsyncPrefixSequence.swift (`remaining == 0` returns nil without pulling the base);
      // AsyncPrefixWhileSequence.swift (nil at the first value that fails).
      if let node = c.labelled(["while"]) {
        guard let test = c.required("while", of: node), let step = c.expression(test) else { return nil }
        return c.apply(c.shape.passedOn) { graph, upstream, scope in
          upstream.takeWhile(graph.predicate(step, scope, role: "prefix"))
        }
      }
      return c.compile(as: "take")
    },
    .equivalent(
      "dropFirst", .count, of: "skip", library: .async,
      summary: "AsyncSequence dropFirst(n): drops the first n values (AsyncDropFirstSequence)."),
    .operator(
      "drop", .labels, summary: "AsyncSequence drop(while:): drop: { while: expr }.", library: .async,
      nearest: "skipWhile"
    ) { c in
      // AsyncDropWhileSequence.swift: drops until the first value that fails, then passes all.
      guard let node = c.labelled(["while"]), let test = c.required("while", of: node), let step = c.expression(test)
      else {
        if c.argument?.mappingPairs == nil { c.error(.takesWhile(c.step.name), at: c.step.nameNode) }
        return nil
      }
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.skipWhile(graph.predicate(step, scope, role: "drop"))
      }
    },
    .operator(
      "flatMap", .template,
      summary:
        "AsyncSequence flatMap: each value's inner sequence is iterated to its end before the next value is pulled.",
      library: .async, nearest: "concatMap"
    ) { c in
      // AsyncFlatMapSequence.swift `Iterator.next()`: one inner iterator at a time, the next
      // one made when the consumer pulls after the previous one returned nil; the base is pulled
      // only when the inner ended, so its failure waits behind its values.
      c.uses("async-flatmap-is-sequential")
      guard let argument = c.requiredArgument(), let template = c.template(argument, binding: .outer) else {
        return nil
      }
      var sequential = c
      sequential.meaning = StepTable.standard.operator(named: "concatMap")
      return sequential.flatMap(template, concurrent: 1, isAsyncSequence: true)
    },
    .operator(
      "first", .labels, summary: "AsyncSequence first(where:): first: { where: expr } or first: expr; nil when empty.",
      library: .async
    ) { c in
      // AsyncSequence.swift `first(where:)`: returns nil (no value, no error) at the end.
      var failed = false
      let node = c.closureArgument("where", failed: &failed)
      if failed { return nil }
      var test: StepExpression?
      if let node {
        guard let compiled = c.expression(node) else { return nil }
        test = compiled
      }
      c.uses("async-first-nil-when-empty")
      return c.apply(c.shape.passedOn) { [test] graph, upstream, scope in
        upstream.first(where: test.map { graph.predicate($0, scope, role: "first") }, default: nil, ifEmpty: .finishes)
      }
    },
    .operator(
      "contains", .labels,
      summary: "AsyncSequence contains(_:) / contains(where:): true at the first match, else false.",
      library: .async, nearest: "first"
    ) { c in c.compile(as: "contains", from: .combine) },
    .operator(
      "allSatisfy", .expression, summary: "AsyncSequence allSatisfy: false at the first value that fails, else true.",
      library: .async, nearest: "first"
    ) { c in c.compile(as: "allSatisfy", from: .combine) },
    .operator(
      "reduce", .expression, extras: [.seed, .into],
      summary:
        "AsyncSequence reduce(_:_:) / reduce(into:_:): the final result at the end ($0 the result, $1 the value; seed or into the initial value).",
      library: .async, nearest: "scan"
    ) { c in
      // AsyncSequence.swift `reduce(_:_:)`, `reduce(into:_:)`: the result once the base ends.
      c.accumulating(as: "reduce") { upstream, initial, accumulate in upstream.reduce(seed: initial, accumulate) }
    },
    .operator(
      "min", .labels, summary: "AsyncSequence min() / min(by:): the least value at the end (none when empty).",
      library: .async, nearest: "reduce"
    ) { c in c.combineExtremum(keepsNew: { ordered in ordered.newFirst }) },
    .operator(
      "max", .labels, summary: "AsyncSequence max() / max(by:): the greatest value at the end (none when empty).",
      library: .async, nearest: "reduce"
    ) { c in c.combineExtremum(keepsNew: { ordered in ordered.keptFirst }) },
  ]

  /// swift-async-algorithms 1.1.4 (`Sources/AsyncAlgorithms`). `AsyncTimerSequence(interval:)` is
  /// the default catalogue's `interval: d` (the first value d frames after the iteration starts,
  /// never ending: `AsyncTimerSequence.swift` `Iterator.next()` sleeps until `last + interval`);
  /// the package's values are the clock's instants, flowrun's the count.
  static let asyncAlgorithmsSteps: [StepDefinition] = [
    .operator(
      "debounce", .labels,
      summary:
        "debounce(for:tolerance:): debounce: d or { for: d, tolerance: t } (virtual time ignores the tolerance); the pending value is sent when the base finishes.",
      library: .async,
      drops: .init(.replaced, "a newer value came")
    ) { c in
      // Debounce/DebounceStateMachine.swift: `upstreamFinished()` with a buffered element
      // resumes the downstream with it, then nil; `upstreamThrew` drops it.
      guard let duration = c.durationIgnoringTolerance("for") else { return nil }
      // DebounceStateMachine keeps the last value for a consumer that is not waiting.
      return keeping(
        .bufferingNewest(1),
        c.timed(duration, "\(c.quotedName)") { upstream, timing in
          upstream.debounce(timing)
        })
    },
    .operator(
      "throttle", .labels, aliases: [Alias("_throttle")],
      summary:
        "_throttle(for:latest:): _throttle or throttle: d or { for: d, latest: bool } (default true); pull-based, from the last emission.",
      library: .async
    ) { c in
      // AsyncThrottleSequence.swift `Iterator.next()`.
      var latest = true
      let duration: YAMLNode
      if let node = c.labelled(["for", "latest"]) {
        guard let written = c.required("for", of: node) else { return nil }
        duration = written
        if let flag = node["latest"] {
          guard let value = c.bool(flag, "'latest'") else { return nil }
          latest = value
        }
      } else {
        guard let written = c.requiredNonNullArgument() else { return nil }
        duration = written
      }
      c.uses("async-throttle-pull-based")
      return c.timed(duration, "'for'") { upstream, timing in upstream.asyncThrottle(timing, latest: latest) }
    },
    .source(
      "combineLatest", .combination,
      summary: "combineLatest: ends at once when an input finishes before its first value; else when all finish.",
      library: .async
    ) { c in
      c.uses("async-combinelatest-ends-on-empty-input")
      return c.combination(c.argument, first: nil) { runtime, inputs, keys in
        CombineLatestSource(inputs, keys: keys, rule: .async, runtime: runtime)
      }
    },
    .operator(
      "combineLatest", .signals, aliases: [Alias("combineLatestWith")],
      summary: "combineLatest of this sequence and the given one(s), as the source form.", library: .async
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      c.uses("async-combinelatest-ends-on-empty-input")
      return c.combination(argument, first: c.input) { runtime, inputs, keys in
        CombineLatestSource(inputs, keys: keys, rule: .async, runtime: runtime)
      }
    },
    .source(
      "zip", .combination,
      summary: "zip: each pull takes one value from every base; ends when a pulled base ends.", library: .async
    ) { c in
      // Zip/ZipStateMachine.swift: `next(for:)` resumes every base once per pull.
      c.uses("async-zip-pulls-one-per-base")
      return c.combination(c.argument, first: nil) { ZipSource($0, keys: $1, rule: .async) }
    },
    .operator(
      "zip", .signals, aliases: [Alias("zipWith")],
      summary: "zip of this sequence and the given one(s), as the source form.", library: .async
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      c.uses("async-zip-pulls-one-per-base")
      return c.combination(argument, first: c.input) { ZipSource($0, keys: $1, rule: .async) }
    },
    .source(
      "merge", .signals, extras: [.concurrent],
      summary: "merge: the bases' values as they come; after a pause one per base per round; ends when all ended.",
      library: .async
    ) { c in
      guard let inputs = c.signals(c.argument, c.quotedName) else { return nil }
      c.uses("async-merge-pulls-on-demand")
      return c.asyncMerge(inputs)
    },
    .operator(
      "merge", .signals, aliases: [Alias("mergeWith")], extras: [.concurrent],
      summary: "merge of this sequence and the given one(s), its bases pulled on demand.", library: .async
    ) { c in
      guard let argument = c.requiredArgument(), let others = c.signals(argument, c.quotedName) else { return nil }
      c.uses("async-merge-pulls-on-demand")
      return c.asyncMerge([c.input] + others)
    },
    .equivalent(
      "chain", .signals, of: "concat", library: .async, row: "async-hot-input-keeps-values",
      summary: "chain: this sequence, then the given one(s), each iterated after the one before ends."),
    .operator(
      "removeDuplicates", .labels,
      summary: "removeDuplicates() or { by: expr } ($0 the previous value, $1 this one).", library: .async,
      nearest: "distinctUntilChanged"
    ) { c in
      // AsyncRemoveDuplicatesSequence.swift: compares with the last value sent.
      return c.removeDuplicates()
    },
    .operator(
      "compacted", .bare, summary: "compacted(): drops nil (null) values.", library: .async, nearest: "filter"
    ) { c in
      // AsyncCompactedSequence.swift.
      guard c.checkBare() else { return nil }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.filter { value, _ in value != .null } }
    },
    .equivalent(
      "adjacentPairs", .bare, of: "pairwise", library: .async,
      summary: "adjacentPairs(): from the second value on, [previous, current] (AsyncAdjacentPairsSequence)."),
    .operator(
      "reductions", .expression, extras: [.seed, .into],
      summary:
        "reductions(_:) / reductions(_:_:) / reductions(into:_:): every running result ($0 the result, $1 the value); with seed or into the initial value is not sent.",
      library: .async, nearest: "scan"
    ) { c in
      // AsyncInclusiveReductionsSequence.swift / AsyncExclusiveReductionsSequence.swift
      // (`reductions(_:_:)` is `reductions(into:)` with a closure that assigns its result).
      c.accumulating(as: "scan") { upstream, initial, accumulate in upstream.scan(seed: initial, accumulate) }
    },
    .operator(
      "mapError", .expression,
      summary: "mapError: the failure becomes the expression's value ($0 the error) (AsyncMapErrorSequence).",
      library: .async, nearest: "catch"
    ) { c in
      // AsyncMapErrorSequence.swift: `next()` rethrows `transform(error)`.
      c.compile(as: "mapError", from: .combine)
    },
    .operator(
      "chunks", .labels,
      summary:
        "chunks(ofCount:) / chunks(ofCount:or:): chunks: n, { ofCount: n }, { ofCount: n, or: signal | { every: d } }.",
      library: .async, nearest: "buffer"
    ) { c in
      if let node = c.labelled(["ofCount", "or"]) {
        guard let countNode = c.required("ofCount", of: node), let count = c.count(countNode, "'ofCount'", minimum: 1)
        else { return nil }
        return c.asyncChunks(count: count, by: node["or"])
      }
      guard let argument = c.requiredNonNullArgument(), let count = c.count(argument, c.quotedName, minimum: 1) else {
        return nil
      }
      return c.asyncChunks(count: count, by: nil)
    },
    .operator(
      "chunked", .labels,
      summary:
        "chunked(by:) a signal, a timer or a test of adjacent values, or chunked(on:) a projection: chunked: { by: signal | { every: d } | expr } or { on: expr }; no empty chunks.",
      library: .async, nearest: "bufferTime"
    ) { c in
      guard let node = c.labelled(["by", "on"]), node["by"] != nil || node["on"] != nil else {
        c.error(.chunkedTakesByOrOn(c.step.name), at: c.argument ?? c.step.nameNode)
        return nil
      }
      if let on = node["on"] {
        if node["by"] != nil { c.error(.byAndOn(c.step.name), at: node) }
        return c.chunkedGroups(on: on)
      }
      guard let by = node["by"] else { return nil }
      return OperatorCompilation.isAdjacentTest(by) ? c.chunkedGroups(by: by) : c.asyncChunks(count: nil, by: by)
    },
    .operator(
      "buffer", .labels,
      summary:
        "buffer(policy:): { policy: unbounded | { bounded: n } | { bufferingLatest: n } | { bufferingOldest: n } } (bufferingNewest: n is bufferingLatest); with a consumer that pulls at once it passes values on.",
      library: .async, nearest: "tap"
    ) { c in
      // Buffer/AsyncBufferSequence.swift: the buffer fills only while the consumer is busy.
      guard let node = c.labelled(["policy"]), let policy = c.required("policy", of: node) else {
        c.error(.bufferTakesPolicy(c.step.name), at: c.argument ?? c.step.nameNode)
        return nil
      }
      guard let keeps = c.bufferPolicy(policy) else { return nil }
      return keeping(keeps, c.apply(c.shape.passedOn) { _, upstream, _ in upstream })
    },
    .operator(
      "share", .labels,
      summary:
        "share() / share(bufferingPolicy:): one iteration of the base for every consumer; no replay; the policy keeps values for a slow consumer.",
      library: .async
    ) { c in
      // AsyncShareSequence.swift: one extent for the sequence's life; a side after the end gets
      // the end. Read as Combine's share (multicast of a passthrough subject, autoconnected).
      // `bufferingPolicy` (default `.bounded(1)`) keeps what a side has not pulled yet.
      guard let argument = c.nonNullArgument, argument.resolvedScalar != .bool(true) else {
        return c.compile(as: "share", from: .combine)
      }
      guard let pairs = argument.mappingPairs, pairs.contains(where: { $0.key.isScalar("bufferingPolicy") }) else {
        c.error(
          "\(c.quotedName) takes no argument or { bufferingPolicy: policy } (share(bufferingPolicy:))", at: argument)
        return nil
      }
      guard let node = c.labelled(["bufferingPolicy"]), let written = node["bufferingPolicy"],
        let keeps = c.bufferPolicy(written)
      else { return nil }
      c.uses("combine-share-terminates-for-good")
      return keeping(keeps, c.combineShare(.publish, connectsAtSetup: false))
    },
  ]
}

/// A step's plan that keeps values by `policy` while the consumer is busy (`OperatorPlan.keeps`).
private func keeping(_ policy: Subject.BufferingPolicy, _ compiled: (SignalPlan, ValueShape)?) -> (
  SignalPlan, ValueShape
)? {
  guard let (plan, shape) = compiled, case .apply(let input, var step) = plan else { return compiled }
  step.keeps = policy
  return (.apply(input, step), shape)
}

extension OperatorCompilation {
  /// Compiles the step as `library`'s step `name` does (a meaning two libraries share).
  func compile(as name: String, from library: Library) -> (SignalPlan, ValueShape)? {
    guard let other = StepTable.dialect(library).operator(named: name), case .operator(let compile) = other.compile
    else { return nil }
    var compilation = self
    compilation.meaning = other
    return compile(compilation)
  }

  /// `reductions` and `reduce` with `into: v` (`reductions(into:_:)`, `reduce(into:_:)`): `v` is
  /// the initial value, as `seed` is (flowrun's expression returns the new result where the
  /// package's closure assigns it); without `into`, the default catalogue's `name`.
  fileprivate func accumulating(
    as name: String, _ make: @escaping (_ upstream: any Source, _ initial: Value, @escaping Accumulate) -> any Source
  ) -> (SignalPlan, ValueShape)? {
    guard let into = extra(.into) else { return compile(as: name) }
    if let seed = extra(.seed) {
      error(.seedOrInto(step.name), at: seed)
      return nil
    }
    guard let argument = requiredArgument(), let step = expression(argument, accumulator: true) else { return nil }
    let initial = value(into)
    return apply(.value) { graph, upstream, scope in make(upstream, initial, graph.accumulate(step, scope)) }
  }

  /// A duration written plain or as `{ label: d }`, beside which the package's `tolerance: t` is
  /// accepted and checked as a duration (`debounce(for:tolerance:)`); virtual time ignores it: a
  /// timer fires at its frame, as `FrameClock.sleep(until:tolerance:)` does.
  fileprivate func durationIgnoringTolerance(_ label: String) -> YAMLNode? {
    guard let node = labelled([label, "tolerance"]) else { return requiredNonNullArgument() }
    if let tolerance = node["tolerance"], frames(tolerance, "'tolerance'", minimum: 0) == nil { return nil }
    return required(label, of: node)
  }

  /// An `AsyncBufferSequencePolicy` (`buffer(policy:)`, `share(bufferingPolicy:)`): `unbounded`,
  /// `{ bounded: n }`, `{ bufferingLatest: n }` (the package's word; `bufferingNewest`, the word
  /// of `AsyncStream` and of the package's internal case, means the same) or `{ bufferingOldest: n }`.
  /// `.bounded` stops pulling its base when full, so the base's values wait: unbounded here.
  fileprivate func bufferPolicy(_ policy: YAMLNode) -> Subject.BufferingPolicy? {
    if policy.scalarValue == "unbounded" { return .unbounded }
    guard let pairs = policy.mappingPairs, pairs.count == 1, let key = pairs.first?.key.scalarValue,
      ["bounded", "bufferingLatest", "bufferingNewest", "bufferingOldest"].contains(key)
    else {
      error(.unknownBufferPolicy, at: policy)
      return nil
    }
    guard let limit = count(pairs[pairs.startIndex].value, "'\(key)'") else { return nil }
    switch key {
    case "bufferingOldest": return .bufferingOldest(limit)
    case "bufferingLatest", "bufferingNewest": return .bufferingNewest(limit)
    default: return .unbounded
    }
  }

  /// Whether `chunked`'s `by` is a test of two adjacent values (`chunked(by:)` with a closure): a
  /// boolean or an expression, not a bare signal name, an inline signal or a timer.
  fileprivate static func isAdjacentTest(_ node: YAMLNode) -> Bool {
    switch node.resolvedScalar {
    case .bool?: return true
    case .string(let text)?:
      return !text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    default: return false
    }
  }

  /// `chunked: { by: expr }`: `AsyncChunkedByGroupSequence` (`$0` the chunk's last value, `$1`
  /// the next one; the values are whole, whatever their shape).
  fileprivate func chunkedGroups(by node: YAMLNode) -> (SignalPlan, ValueShape)? {
    guard let test = compiler.expression(node, shape: .value, accumulator: true) else { return nil }
    return apply(.value) { graph, upstream, scope in
      upstream.chunkedGroups(.adjacent(graph.pairTest(test, scope, role: "chunked")))
    }
  }

  /// `chunked: { on: expr }`: `AsyncChunkedOnProjectionSequence`; each chunk is
  /// `[projection, [values]]` (`$0` and `$1` in the next step).
  fileprivate func chunkedGroups(on node: YAMLNode) -> (SignalPlan, ValueShape)? {
    guard let project = expression(node) else { return nil }
    return apply(.tuple(2)) { graph, upstream, scope in
      upstream.chunkedGroups(.projection(graph.transform(project, scope)))
    }
  }

  /// `chunks` / `chunked`: by count, by a signal, or by a repeating timer (`{ every: d }`).
  fileprivate func asyncChunks(count: Int?, by node: YAMLNode?) -> (SignalPlan, ValueShape)? {
    guard let node else {
      return apply(.value) { _, upstream, _ in AsyncChunksSource(upstream, count: count, signal: nil) }
    }
    if let pairs = node.mappingPairs, pairs.contains(where: { $0.key.isScalar("every") }) {
      // `.repeating(every:tolerance:)`: virtual time ignores the tolerance (a tick is at its frame).
      compiler.context.checkKeys(pairs, allowed: ["every", "tolerance"], in: "a repeating timer")
      if let tolerance = node["tolerance"], frames(tolerance, "'tolerance'", minimum: 0) == nil { return nil }
      guard let every = node["every"], let period = frames(every, "'every'", minimum: 1) else { return nil }
      let owner = nodeLabel
      return apply(.value) { graph, upstream, _ in
        let timer = TimerSource(delay: period, period: period, owner: owner, runtime: graph.runtime)
        return AsyncChunksSource(upstream, count: count, signal: timer)
      }
    }
    guard let signal = signal(node, "the chunks' signal")?.0 else { return nil }
    return apply(.value) { graph, upstream, scope in
      AsyncChunksSource(upstream, count: count, signal: graph.source(for: signal, scope: scope))
    }
  }
}

extension StepCompilation {
  /// swift-async-algorithms' `merge` (`AsyncMergeSource`: its bases are pulled on demand);
  /// with `concurrent:` (a flowrun convenience) the default's.
  fileprivate func asyncMerge(_ inputs: [SignalPlan]) -> (SignalPlan, ValueShape)? {
    if let node = extra(.concurrent) {
      guard let concurrent = count(node, "'concurrent'", minimum: 1) else { return nil }
      return (combine(inputs) { MergeSource($0, concurrent: concurrent) }, .value)
    }
    return (combine(inputs, onRuntime: { AsyncMergeSource($1, runtime: $0) }), .value)
  }
}

extension Diagnostic.Message {
  fileprivate static func takesWhile(_ step: String) -> Self { "'\(step)' takes { while: expr }" }
  fileprivate static func chunkedTakesByOrOn(_ step: String) -> Self {
    Self(
      "'\(step)' takes { by: signal }, { by: { every: d } }, { by: expr } ($0 and $1 two adjacent values) "
        + "or { on: expr } (the projection)")
  }
  fileprivate static func byAndOn(_ step: String) -> Self { "'\(step)' takes 'by' or 'on', not both" }
  fileprivate static func bufferTakesPolicy(_ step: String) -> Self {
    Self(
      "'\(step)' takes { policy: unbounded | { bounded: n } | { bufferingLatest: n } | { bufferingOldest: n } } "
        + "(buffer(policy:)); for lists of n values write 'chunks: n'")
  }
  fileprivate static let unknownBufferPolicy = Self(
    "a buffer policy is 'unbounded', { bounded: n }, { bufferingLatest: n } or { bufferingOldest: n } "
      + "(AsyncBufferSequencePolicy)")
  fileprivate static func seedOrInto(_ step: String) -> Self {
    "'\(step)' takes 'seed' or 'into' (the same initial value), not both"
  }
}
