import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML

extension StepTable {
  /// Combine's reducing operators (Publishers.Reduce, Scan, Count, Comparison, Contains,
  /// AllSatisfy): each sends its one value when the source finishes, or earlier when it knows.
  static let combineReducingSteps: [StepDefinition] = [
    .equivalent(
      "tryScan", .expression, of: "scan", library: .combine, extras: [.seed], summary: "Combine tryScan: scan."),
    .equivalent(
      "tryReduce", .expression, of: "reduce", library: .combine, extras: [.seed], summary: "Combine tryReduce: reduce."),
    .operator("count", .bare, summary: "Combine count(): the number of values, at completion.", library: .combine) {
      c in
      guard c.checkBare() else { return nil }
      return c.apply(.value) { _, upstream, _ in
        upstream.reduce(seed: .int(0)) { count, _, _ in
          guard case .int(let n) = count else { return .int(1) }
          return .int(n + 1)
        }
      }
    },
    .operator(
      "min", .labels, aliases: [Alias("tryMin", of: .combine)],
      summary: "Combine min() / min(by:): the least value at completion; { by: expr } is areInIncreasingOrder($0, $1).",
      library: .combine, nearest: "reduce"
    ) { c in c.combineExtremum(keepsNew: { ordered in ordered.newFirst }) },
    .operator(
      "max", .labels, aliases: [Alias("tryMax", of: .combine)],
      summary:
        "Combine max() / max(by:): the greatest value at completion; { by: expr } is areInIncreasingOrder($0, $1).",
      library: .combine, nearest: "reduce"
    ) { c in c.combineExtremum(keepsNew: { ordered in ordered.keptFirst }) },
    .operator(
      "contains", .labels, aliases: [Alias("tryContains", of: .combine)],
      summary: "Combine contains(_:) / contains(where:): true at the first match (cancelling the source), else false.",
      library: .combine, nearest: "first"
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let test: StepExpression?
      var wanted: Value?
      if argument.mappingPairs != nil {
        var failed = false
        guard let node = c.closureArgument("where", failed: &failed), let step = c.expression(node) else { return nil }
        test = step
      } else {
        test = nil
        wanted = c.value(argument)
      }
      return c.apply(.value) { [wanted] graph, upstream, scope in
        let predicate: Predicate =
          test.map { graph.predicate($0, scope, role: "contains") } ?? { value, _ in value == wanted }
        return upstream.first(where: predicate, default: nil, ifEmpty: .finishes).map { _, _ in .bool(true) }
          .replaceEmpty(with: .bool(false))
      }
    },
    .operator(
      "allSatisfy", .expression, aliases: [Alias("tryAllSatisfy", of: .combine)],
      summary: "Combine allSatisfy: false at the first value that fails the test (cancelling the source), else true.",
      library: .combine, nearest: "first"
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let step = c.expression(argument) else { return nil }
      return c.apply(.value) { graph, upstream, scope in
        let test = graph.predicate(step, scope, role: "allSatisfy")
        return upstream.first(
          where: { value, index throws(StepFailure) in !(try test(value, index)) }, default: nil,
          ifEmpty: .finishes
        ).map { _, _ in .bool(false) }.replaceEmpty(with: .bool(true))
      }
    },
  ]

  /// Scheduling, sharing, side-effect and type-only steps.
  static let combineSchedulingSteps: [StepDefinition] = [
    .equivalent(
      "receiveOn", .string, of: "observeOn", library: .combine,
      summary: "Combine receive(on:): each event re-delivered as a new scheduler action at the same frame."),
    .operator(
      "receive", .labels, summary: "Combine receive(on:): { on: scheduler } re-delivers each event as a new action.",
      library: .combine, nearest: "observeOn"
    ) { c in
      guard let scheduler = c.onScheduler() else { return nil }
      // ImmediateScheduler runs the action at once: no hop (OpenCombine ImmediateScheduler.swift).
      if scheduler == "ImmediateScheduler.shared" { return c.apply(c.shape.passedOn) { _, upstream, _ in upstream } }
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, _ in upstream.observeOn(owner: owner, runtime: graph.runtime)
      }
    },
    .operator(
      "subscribe", .labels, summary: "Combine subscribe(on:): { on: scheduler } subscribes as a new scheduler action.",
      library: .combine, nearest: "subscribeOn"
    ) { c in
      guard let scheduler = c.onScheduler() else { return nil }
      if scheduler == "ImmediateScheduler.shared" { return c.apply(c.shape.passedOn) { _, upstream, _ in upstream } }
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, _ in
        upstream.delaySubscription(Timing(0, owner: owner, runtime: graph.runtime), subscribesWhenCancelled: true)
      }
    },
    .passThrough(
      "handleEvents", library: .combine,
      summary: "Combine handleEvents: a marker that --trace labels (its closures are not run)."),
    .operator(
      "assign", .name, summary: "Combine assign(to:): the property takes every value, as a binding does.",
      library: .combine, nearest: "properties"
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let name = c.string(argument, c.quotedName) else { return nil }
      guard c.compiler.assign(c.input, to: name, at: argument) else { return nil }
      return c.apply(c.shape.passedOn, label: "assign") { _, upstream, _ in upstream }
    },
    .operator(
      "multicast", .labels,
      summary:
        "Combine multicast(subject:): { subject: passthrough | { currentValue: v } }; connected at setup unless 'autoconnect' follows.",
      library: .combine, nearest: "share"
    ) { c in
      var kind = Subject.Kind.publish
      if let argument = c.nonNullArgument, argument.resolvedScalar != .bool(true) {
        guard let node = c.labelled(["subject"]), let subject = c.required("subject", of: node) else {
          if c.argument?.mappingPairs == nil { c.error(.takesSubject(c.step.name), at: argument) }
          return nil
        }
        if let current = subject["currentValue"] {
          kind = .behavior(c.value(current))
        } else if subject.scalarValue != "passthrough" {
          c.error(.unknownShareSubject, at: subject)
          return nil
        }
      }
      c.uses("combine-share-terminates-for-good")
      return c.combineShare(kind, connectsAtSetup: c.compiler.followingStepName != "autoconnect")
    },
    .operator(
      "makeConnectable", .bare,
      summary:
        "Combine makeConnectable(): multicast through a PassthroughSubject; connected at setup unless 'autoconnect' follows.",
      library: .combine, nearest: "share"
    ) { c in
      guard c.checkBare() else { return nil }
      c.uses("combine-share-terminates-for-good")
      return c.combineShare(.publish, connectsAtSetup: c.compiler.followingStepName != "autoconnect")
    },
    .operator(
      "autoconnect", .bare,
      summary:
        "Combine autoconnect(): after 'multicast', 'makeConnectable' or 'Timer.publish', connects at the first subscriber.",
      library: .combine, nearest: "share"
    ) { c in
      guard c.checkBare() else { return nil }
      guard c.input.isConnectable else {
        c.error(.autoconnectNeedsConnectable, at: c.step.nameNode)
        return nil
      }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream }
    },
    .operator(
      "measureInterval", .labels,
      summary: "Combine measureInterval(using:): the frames since the previous value (the first: since subscription).",
      library: .combine, nearest: "map"
    ) { c in
      if let argument = c.nonNullArgument, argument.resolvedScalar != .bool(true),
        c.labelled(["using", "options"]) == nil
      {
        return nil
      }
      return c.apply(.value) { graph, upstream, _ in
        let runtime = graph.runtime
        return DeferredSource {
          var last = runtime.now
          return upstream.map { _, _ in
            let now = runtime.now
            defer { last = now }
            return .int(now - last)
          }
        }
      }
    },
    .passThrough("eraseToAnyPublisher", library: .combine, summary: "Combine eraseToAnyPublisher: type only."),
    .passThrough("setFailureType", library: .combine, summary: "Combine setFailureType(to:): type only."),
    .passThrough("print", library: .combine, summary: "Combine print: prints in an app; passes events on."),
    .passThrough(
      "assertNoFailure", library: .combine,
      summary: "Combine assertNoFailure: passes events on (a failure, which traps in an app, is recorded)."),
    .passThrough(
      "encode", library: .combine, summary: "Combine encode(encoder:): values are data already; passes them on."),
    .passThrough(
      "decode", library: .combine, summary: "Combine decode(type:decoder:): values are data already; passes them on."),
    .rejected(
      "breakpoint", library: .combine, why: "it raises SIGTRAP in a debugger, which a virtual-time run does not have"),
    .rejected(
      "breakpointOnError", library: .combine,
      why: "it raises SIGTRAP in a debugger, which a virtual-time run does not have"),
  ]

  /// Combine's publishers that start a chain: `Just`, `Empty`, `Fail`, `Future`, `Deferred`,
  /// `Record`, `publisher` (`Publishers.Sequence`) and `Timer.publish`.
  static let combineSourceSteps: [StepDefinition] = [
    .source("Just", .value, summary: "Combine Just(v): the value, then finished, at subscription.", library: .combine) {
      c in
      let value = c.value(c.argument)
      return (c.source { _, _ in ImmediateSource.just(value) }, .value)
    },
    .source(
      "Empty", .value, summary: "Combine Empty(): finished at subscription; { completeImmediately: false }: never.",
      library: .combine
    ) { c in
      var completes = true
      if let pairs = c.argument.mappingPairs {
        c.compiler.context.checkKeys(pairs, allowed: ["completeImmediately"], in: c.quotedName)
        guard let flag = c.argument["completeImmediately"], let value = c.bool(flag, "'completeImmediately'") else {
          return nil
        }
        completes = value
      } else if c.bool(c.argument, c.quotedName) != true {
        return nil
      }
      return (c.source { _, _ in completes ? ImmediateSource.empty : ImmediateSource.never }, .value)
    },
    .source("Fail", .value, summary: "Combine Fail(error:): the failure at subscription.", library: .combine) { c in
      let error = c.value(c.argument["error"] ?? c.argument)
      return (c.source { _, _ in ImmediateSource.fail(error) }, .value)
    },
    .source(
      "publisher", .list, summary: "Combine [values].publisher (Publishers.Sequence): each value, then finished.",
      library: .combine
    ) { c in
      guard let items = c.compiler.context.sequence(c.argument, c.quotedName) else { return nil }
      let values = items.map { c.value($0) }
      return (c.source { _, _ in ImmediateSource.of(values) }, .value)
    },
    .source(
      "Record", .labels,
      summary: "Combine Record(output:completion:): { output: [values], completion: finished | { failure: v } }.",
      library: .combine
    ) { c in
      guard let pairs = c.argument.mappingPairs else {
        c.error(.recordTakesOutput, at: c.argument)
        return nil
      }
      c.compiler.context.checkKeys(pairs, allowed: ["output", "completion"], in: c.quotedName)
      var events: [Event] = []
      if let output = c.argument["output"] {
        guard let items = c.compiler.context.sequence(output, "'output'") else { return nil }
        events = items.map { .next(c.value($0)) }
      }
      if let failure = c.argument["completion"]?["failure"] {
        events.append(.error(c.value(failure)))
      } else if let completion = c.argument["completion"], completion.scalarValue != "finished" {
        c.error(.unknownCompletion, at: completion)
        return nil
      } else {
        events.append(.completed)
      }
      return (c.source { [events] _, _ in ImmediateSource(events: events) }, .value)
    },
    .source(
      "Future", .signal,
      summary:
        "Combine Future: made at setup, it subscribes the signal once and keeps its first value (or failure) for every subscriber.",
      library: .combine
    ) { c in
      guard let inner = c.signal(c.argument, "'Future'")?.0 else { return nil }
      let owner = c.nodeLabel
      c.uses("combine-future-runs-at-creation")
      return (
        c.source { graph, scope in
          let promise = graph.source(for: inner, scope: scope).first(where: nil, default: nil, ifEmpty: .staysSilent)
          let future = ShareSource(promise, policy: .racReplay(1), owner: owner, runtime: graph.runtime)
          graph.eagerConnections.append { [weak future] in future?.connect() }
          return future
        }, .value
      )
    },
    .source(
      "Deferred", .signal, summary: "Combine Deferred: the signal made anew for each subscriber.", library: .combine
    ) { c in
      guard let inner = c.signal(c.argument, "'Deferred'")?.0 else { return nil }
      return (c.source { graph, scope in DeferredSource { graph.source(for: inner, scope: scope) } }, .value)
    },
    .source(
      "Timer.publish", .labels,
      summary:
        "Combine Timer.publish(every:on:in:): 0, 1, 2 … every d frames (a Date in an app); connected at setup unless 'autoconnect' follows.",
      library: .combine
    ) { c in
      guard let pairs = c.argument.mappingPairs else {
        c.error(.timerPublishTakesEvery, at: c.argument)
        return nil
      }
      c.compiler.context.checkKeys(pairs, allowed: ["every", "on", "in", "tolerance", "options"], in: c.quotedName)
      guard let every = c.argument["every"] else {
        c.error(.needsLabel("Timer.publish", "every"), at: c.argument)
        return nil
      }
      guard let period = c.frames(every, "'every'", minimum: 1) else { return nil }
      let connectsAtSetup = c.compiler.followingStepName != "autoconnect"
      let owner = c.nodeLabel
      c.uses("combine-share-terminates-for-good")
      return (
        c.source(label: "Timer.publish", traceRole: .scheduling) { graph, _ in
          let timer = TimerSource(delay: period, period: period, owner: owner, runtime: graph.runtime)
          let shared = ShareSource(timer, policy: .combine(), owner: owner, runtime: graph.runtime)
          if connectsAtSetup { graph.eagerConnections.append { [weak shared] in shared?.connect() } }
          return shared
        }, .value
      )
    },
  ]
}

extension SignalPlan {
  /// Whether the plan is a Combine `ConnectablePublisher` (`autoconnect` may follow it).
  fileprivate var isConnectable: Bool {
    switch self {
    case .apply(_, let op): ["multicast", "makeConnectable"].contains(op.label)
    case .source(let source): source.label == "Timer.publish"
    default: false
    }
  }
}

/// A scheduler named in `receive: { on }` or `subscribe: { on }` that runs work on a real
/// thread; the scenario's scheduler is virtual.
private let realQueues = ["DispatchQueue.global", "DispatchQueue(", "OperationQueue(", "Thread"]

extension OperatorCompilation {
  /// The scheduler of Combine's `receive(on:)` / `subscribe(on:)`: `{ on: scheduler }`
  /// (`options` accepted and ignored); nil after a diagnostic.
  fileprivate func onScheduler() -> String? {
    guard let node = labelled(["on", "options"]), let on = required("on", of: node), let scheduler = scheduler(on)
    else {
      if argument?.mappingPairs == nil { error(.takesOnScheduler(step.name), at: step.nameNode) }
      return nil
    }
    return scheduler
  }

  /// The scheduler a `{ on: … }` (or a time operator's `scheduler:`) names; a real background
  /// queue is an error that says why.
  func scheduler(_ node: YAMLNode, _ what: String = "'on'") -> String? {
    guard let name = string(node, what) else { return nil }
    if realQueues.contains(where: { name.hasPrefix($0) }) {
      error(.realThreadScheduler(name), at: node)
      return nil
    }
    return name
  }

  /// `min` / `max`: the natural order of numbers and strings, or `{ by: expr }`
  /// (`areInIncreasingOrder($0, $1)`). `keepsNew` chooses from the order of (kept, new).
  func combineExtremum(keepsNew: @escaping @Sendable (Ordered) -> Bool) -> (SignalPlan, ValueShape)? {
    var failed = false
    let node = closureArgument("by", failed: &failed)
    if failed { return nil }
    var step: StepExpression?
    if let node {
      guard let compiled = expression(node, accumulator: true) else { return nil }
      step = compiled
    }
    let role = definition.name
    return apply(shape.passedOn) { [step] graph, upstream, scope in
      let inOrder: Comparison = step.map { graph.comparison($0, scope, role: role) } ?? naturalOrder(role)
      return upstream.reduce(seed: nil) { kept, new, index throws(StepFailure) in
        let order = Ordered(newFirst: try inOrder(new, kept, index), keptFirst: try inOrder(kept, new, index))
        return keepsNew(order) ? new : kept
      }
    }
  }
}

/// How a new value and the kept one compare, for `min` and `max`.
struct Ordered {
  /// `areInIncreasingOrder(new, kept)`.
  var newFirst: Bool
  /// `areInIncreasingOrder(kept, new)`.
  var keptFirst: Bool
}

/// `<` on numbers and on strings.
private func naturalOrder(_ role: String) -> Comparison {
  { a, b, _ throws(StepFailure) in
    switch (a, b) {
    case (.int(let x), .int(let y)): return x < y
    case (.double(let x), .double(let y)): return x < y
    case (.int(let x), .double(let y)): return Double(x) < y
    case (.double(let x), .int(let y)): return x < Double(y)
    case (.string(let x), .string(let y)): return x < y
    default: throw StepFailure(.string("'\(role)' compares numbers or strings; write '\(role): { by: expr }'"))
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func takesSubject(_ step: String) -> Self { "'\(step)' takes { subject: … }" }
  fileprivate static let unknownShareSubject: Self = "'subject' is 'passthrough' or { currentValue: v }"
  fileprivate static let autoconnectNeedsConnectable: Self =
    "'autoconnect' follows a ConnectablePublisher: 'multicast', 'makeConnectable' or 'Timer.publish'"
  fileprivate static let recordTakesOutput: Self = "'Record' takes { output: [values], completion: … }"
  fileprivate static let unknownCompletion: Self = "'completion' is 'finished' or { failure: v }"
  fileprivate static let timerPublishTakesEvery: Self =
    "'Timer.publish' takes { every: d } ('on', 'in' and 'tolerance' are accepted)"
  /// `name` (`DispatchQueue.global()`, …) names a real queue rather than the view model's scheduler.
  fileprivate static func realThreadScheduler(_ name: String) -> Self {
    Self(
      "'\(name)' runs work on a real thread, which a virtual-time run does not have; name the scheduler the view "
        + "model is given (e.g. 'DispatchQueue.main', 'RunLoop.main' or 'scheduler'): each is the scenario's virtual scheduler"
    )
  }
}
