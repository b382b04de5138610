import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

extension StepTable {
  /// `library: rxswift`: RxSwift 6's inner-signal operators (`window`, `buffer`, `groupBy`),
  /// its connectable observables (`publish`, `multicast`, `replay`, `replayAll` + `refCount`
  /// or `connect`) and its sources (`from`, `range`, `generate`, `repeatElement`, `deferred`),
  /// each over a shared observer (docs/libraries.md, "RxSwift vocabulary").
  static let rxSwiftConnectableSteps: [StepDefinition] = [
    .operator(
      "window", .labels,
      summary:
        "RxSwift window(timeSpan:count:): inner signals, a new one every timeSpan or after count values (the timer restarts).",
      library: .rxswift, nearest: "bufferTime"
    ) { c in
      guard let (span, count) = c.rxSwiftTimeSpanCount() else { return nil }
      c.uses("rxswift-window")
      let owner = c.nodeLabel
      return c.apply(.value) { graph, upstream, _ in
        upstream.window(Timing(span, owner: owner, runtime: graph.runtime), count: count)
      }
    },
    .operator(
      "buffer", .labels,
      summary:
        "RxSwift buffer(timeSpan:count:): a list every timeSpan (empty ones too) or at count values (the timer restarts).",
      library: .rxswift, nearest: "bufferTime"
    ) { c in
      guard c.labelled(["timeSpan", "count", "scheduler"]) != nil else {
        if c.argument?.mappingPairs == nil {
          c.error(.bufferTakesTimeSpan, at: c.argument ?? c.step.nameNode)
        }
        return nil
      }
      guard let (span, count) = c.rxSwiftTimeSpanCount() else { return nil }
      c.uses("rxswift-buffer")
      let owner = c.nodeLabel
      return c.apply(.value) { graph, upstream, _ in
        upstream.bufferTime(Timing(span, owner: owner, runtime: graph.runtime), every: nil, max: count)
      }
    },
    .operator(
      "groupBy", .labels,
      summary:
        "RxSwift groupBy(keySelector:): groupBy: expr or { keySelector: expr }; an inner signal per key, sent before its first value.",
      library: .rxswift, nearest: "mergeAll"
    ) { c in c.groupBy(keyLabel: "keySelector", transformLabel: nil, groupsEndLast: false, row: "rxswift-groupBy") },
    .operator(
      "publish", .bare,
      summary: "RxSwift publish(): multicast through one PublishSubject; connected at setup unless 'refCount' follows.",
      library: .rxswift, nearest: "share"
    ) { c in
      guard c.checkBare() else { return nil }
      return c.rxSwiftMulticast(.publish)
    },
    .operator(
      "multicast", .labels,
      summary:
        "RxSwift multicast(subject): { subject: {} | { replay: n } | { behavior: v } }; connected at setup unless 'refCount' follows.",
      library: .rxswift, nearest: "share"
    ) { c in
      guard let kind = c.multicastSubject() else { return nil }
      return c.rxSwiftMulticast(kind)
    },
    .operator(
      "replay", .count,
      summary:
        "RxSwift replay(n): multicast through one ReplaySubject(n); connected at setup unless 'refCount' follows.",
      library: .rxswift, nearest: "shareReplay"
    ) { c in
      guard let argument = c.nonNullArgument, argument.resolvedScalar != .bool(true) else {
        c.error(.replayNeedsSize, at: c.step.nameNode)
        return nil
      }
      guard let count = c.count(argument, c.quotedName) else { return nil }
      return c.rxSwiftMulticast(.replay(count))
    },
    .operator(
      "replayAll", .bare,
      summary:
        "RxSwift replayAll(): multicast through one unbounded ReplaySubject; connected at setup unless 'refCount' follows.",
      library: .rxswift, nearest: "shareReplay"
    ) { c in
      guard c.checkBare() else { return nil }
      return c.rxSwiftMulticast(.replay(.max))
    },
    .operator(
      "refCount", .bare,
      summary:
        "RxSwift refCount(): after a connectable, connects at the first subscriber and disconnects after the last.",
      library: .rxswift, nearest: "share"
    ) { c in c.afterConnectable(library: "RxSwift") },
    .operator(
      "connect", .bare,
      summary: "RxSwift connect(): after a connectable, connects it at setup (what it does without 'refCount').",
      library: .rxswift, nearest: "share"
    ) { c in c.afterConnectable(library: "RxSwift") },
    .source(
      "from", .value,
      summary: "The named signal (flowrun's from:), or RxSwift from([…]): each value of the list, then completed.",
      library: .rxswift
    ) { c in
      if c.argument.sequenceItems != nil { return c.compileSource(as: "of") }
      return c.compileSource(as: "from")
    },
    .source(
      "range", .labels,
      summary: "RxSwift range(start:count:): { start, count }: count integers from start, then completed.",
      library: .rxswift
    ) { c in
      guard let pairs = c.argument.mappingPairs else {
        c.error(.rangeTakesStartAndCount, at: c.argument)
        return nil
      }
      c.compiler.context.checkKeys(pairs, allowed: ["start", "count", "scheduler"], in: c.quotedName)
      guard let startNode = c.argument["start"], case .int(let start)? = startNode.resolvedScalar else {
        c.error(.rangeNeedsStart, at: c.argument["start"] ?? c.argument)
        return nil
      }
      guard let countNode = c.argument["count"], let count = c.count(countNode, "'count'") else {
        if c.argument["count"] == nil { c.error(.needsLabel("range", "count"), at: c.argument) }
        return nil
      }
      let values = (0..<count).map { Value.int(start + $0) }
      return (c.source { _, _ in ImmediateSource.of(values) }, .value)
    },
    .source(
      "generate", .labels,
      summary:
        "RxSwift generate(initialState:condition:iterate:): { initialState, condition, iterate } ($0 the state), at subscription.",
      library: .rxswift
    ) { c in c.rxSwiftGenerate() },
    .source(
      "repeatElement", .value,
      summary:
        "RxSwift repeatElement(v): v again and again, each a new action at the same frame (write a 'take' after it).",
      library: .rxswift
    ) { c in
      let value = c.value(c.argument)
      let owner = c.nodeLabel
      c.uses("rxswift-repeatElement")
      return (c.source { graph, _ in RepeatElementSource(value, owner: owner, runtime: graph.runtime) }, .value)
    },
    .source(
      "deferred", .signal, summary: "RxSwift deferred: the signal made anew for each subscriber.", library: .rxswift
    ) { c in
      guard let inner = c.signal(c.argument, "'deferred'")?.0 else { return nil }
      return (c.source { graph, scope in DeferredSource { graph.source(for: inner, scope: scope) } }, .value)
    },
    .source(
      "create", .labels,
      summary: "RxSwift Observable.create: not accepted, its subscribe closure is Swift code a scenario cannot run.",
      library: .rxswift
    ) { c in
      c.error(.createCannotRun, at: c.step.nameNode)
      return nil
    },
  ]
}

extension StepCompilation {
  /// Compiles a source step as the default catalogue's source `name` does.
  func compileSource(as name: String) -> (SignalPlan, ValueShape)? {
    guard let other = StepTable.standard.source(named: name), case .source(let compile) = other.compile,
      let compilation = self as? SourceCompilation
    else { return nil }
    return compile(
      SourceCompilation(
        compiler: compilation.compiler, step: compilation.step, definition: other, argument: compilation.argument))
  }
}

extension SourceCompilation {
  /// RxSwift `generate`: the states from `initialState` while `condition` holds, each next one
  /// `iterate`'s value; sent at subscription. A generator that never stops fails after
  /// `generateLimit` values.
  fileprivate func rxSwiftGenerate() -> (SignalPlan, ValueShape)? {
    guard let pairs = argument.mappingPairs else {
      error(.generateTakesLabels, at: argument)
      return nil
    }
    compiler.context.checkKeys(pairs, allowed: ["initialState", "condition", "iterate", "scheduler"], in: quotedName)
    guard let initialNode = argument["initialState"], let conditionNode = argument["condition"],
      let iterateNode = argument["iterate"]
    else {
      error(.generateNeedsLabels, at: argument)
      return nil
    }
    let initial = value(initialNode)
    guard let condition = compiler.expression(conditionNode, shape: .value),
      let iterate = compiler.expression(iterateNode, shape: .value)
    else { return nil }
    return (
      source { graph, scope in
        let test = graph.predicate(condition, scope, role: "generate")
        let next = graph.transform(iterate, scope)
        return DeferredSource {
          var events: [Event] = []
          var state = initial
          do throws(StepFailure) {
            while try test(state, events.count) {
              guard events.count < generateLimit else {
                events.append(.error(.string("'generate' sent more than \(generateLimit) values")))
                return ImmediateSource(events: events)
              }
              events.append(.next(state))
              state = try next(state, events.count - 1)
            }
            events.append(.completed)
          } catch {
            events.append(.error(error.value))
          }
          return ImmediateSource(events: events)
        }
      }, .value
    )
  }
}

/// The most values a `generate` sends (one that never stops fails there).
let generateLimit = 10_000

extension OperatorCompilation {
  /// RxSwift's `{ timeSpan: d, count: n }` (`window`, `buffer`); `count` is required.
  fileprivate func rxSwiftTimeSpanCount() -> (Int, Int)? {
    guard let node = labelled(["timeSpan", "count", "scheduler"]) else {
      error(.takesTimeSpanAndCount(step.name), at: argument ?? step.nameNode)
      return nil
    }
    guard let spanNode = required("timeSpan", of: node), let span = frames(spanNode, "'timeSpan'", minimum: 1),
      let countNode = required("count", of: node), let count = count(countNode, "'count'", minimum: 1)
    else { return nil }
    return (span, count)
  }

  /// The subject of `multicast: { subject: … }` (RxSwift's `multicast(_:)`, RAC2's
  /// `-multicast:`), or nil after a diagnostic.
  func multicastSubject() -> Subject.Kind? {
    guard let node = labelled(["subject"]), let subject = required("subject", of: node) else {
      if argument?.mappingPairs == nil {
        error(.multicastTakesSubject(step.name), at: argument ?? step.nameNode)
      }
      return nil
    }
    return subjectKind(subject)
  }

  /// A subject written as under `subjects:`: `{}` (a PublishSubject), `{ replay: n | all }`,
  /// `{ behavior: v }`.
  func subjectKind(_ node: YAMLNode) -> Subject.Kind? {
    if node.scalarValue == "publish" { return .publish }
    guard let pairs = node.mappingPairs else {
      error(.notASubjectKind, at: node)
      return nil
    }
    compiler.context.checkKeys(pairs, allowed: ["replay", "behavior"], in: "'subject'")
    if let behavior = node["behavior"] { return .behavior(value(behavior)) }
    if let replay = node["replay"] {
      if replay.isNull || replay.scalarValue == "all" { return .replay(.max) }
      return count(replay, "'replay'").map { .replay($0) }
    }
    return .publish
  }

  /// A connectable observable over the input: connected at setup unless `refCount` follows
  /// (RxSwift `multicast(_:)`, `publish()`, `replay(_:)`, `replayAll()`).
  fileprivate func rxSwiftMulticast(_ kind: Subject.Kind) -> (SignalPlan, ValueShape) {
    let refCount = compiler.followingStepName == "refCount"
    uses(refCount ? "rxswift-multicast-refcount" : "rxswift-multicast-connect")
    let owner = nodeLabel
    return apply(shape.passedOn, label: step.name) { graph, upstream, _ in
      let shared = ShareSource(
        upstream, policy: .rxSwiftMulticast(kind, refCount: refCount), owner: owner, runtime: graph.runtime)
      if !refCount { graph.eagerConnections.append { [weak shared] in shared?.connect() } }
      return shared
    }
  }

  /// `refCount` / `connect` / `autoconnect`: a step that only follows a connectable (the
  /// connectable reads it).
  func afterConnectable(library: String) -> (SignalPlan, ValueShape)? {
    guard checkBare() else { return nil }
    let connectables = ["publish", "multicast", "replay", "replayAll"]
    guard case .apply(_, let op) = input, connectables.contains(op.label) else {
      error(.followsConnectable(step.name, library: library, connectables), at: step.nameNode)
      return nil
    }
    return apply(shape.passedOn) { _, upstream, _ in upstream }
  }

  /// `groupBy: expr` or `{ <keyLabel>: expr (, <transformLabel>: expr) }`: an inner signal per
  /// key.
  func groupBy(keyLabel: String, transformLabel: String?, groupsEndLast: Bool, row: String)
    -> (SignalPlan, ValueShape)?
  {
    guard let argument = requiredNonNullArgument() else { return nil }
    var keyNode = argument
    var transformNode: YAMLNode?
    if argument.mappingPairs != nil {
      guard let node = labelled([keyLabel] + (transformLabel.map { [$0] } ?? [])),
        let key = required(keyLabel, of: node)
      else { return nil }
      keyNode = key
      transformNode = transformLabel.flatMap { node[$0] }
    }
    guard let key = expression(keyNode) else { return nil }
    var transform: StepExpression?
    if let transformNode {
      guard let compiled = expression(transformNode) else { return nil }
      transform = compiled
    }
    uses(row)
    let owner = nodeLabel
    return apply(.value) { [transform] graph, upstream, scope in
      upstream.groupBy(
        graph.transform(key, scope), transform: transform.map { graph.transform($0, scope) },
        groupsEndLast: groupsEndLast, owner: owner, runtime: graph.runtime)
    }
  }
}

extension ScenarioCompiler {
  /// RxSwift `bind(to:)` a subject or relay: the subject subscribes to the signal at setup, as
  /// its `subscribeTo:` does (a relay ignores the terminal events: RxRelay's `bind(to:)` only
  /// accepts values). False, with a diagnostic, when it cannot.
  func bindSubject(_ signal: SignalPlan, to name: String, at node: YAMLNode) -> Bool {
    guard templateNames.isEmpty else {
      context.error(.bindInTemplate, at: node)
      return false
    }
    guard let index = plan.subjects.firstIndex(where: { $0.name == name }) else { return false }
    guard plan.subjects[index].subscribeTo == nil else {
      context.error(.subjectBoundTwice(name), at: node)
      return false
    }
    plan.subjects[index].subscribeTo = signal
    return true
  }
}

extension Diagnostic.Message {
  fileprivate static let bufferTakesTimeSpan: Self =
    "RxSwift's buffer is buffer(timeSpan:count:scheduler:); write 'buffer: { timeSpan: d, count: n }'"
  fileprivate static let replayNeedsSize: Self =
    "RxSwift's replay needs the buffer size (replay(_:)); write 'replay: n' (or 'replayAll')"
  fileprivate static let rangeTakesStartAndCount: Self = "'range' takes { start: n, count: n }"
  fileprivate static let rangeNeedsStart: Self = "'range' needs an integer 'start'"
  fileprivate static let createCannotRun = Self(
    "'create' cannot run in a scenario: its closure is Swift code; write the events it sends as a 'cold' marble "
      + "(or a 'call' of a service)")
  fileprivate static let generateTakesLabels: Self =
    "'generate' takes { initialState: v, condition: expr, iterate: expr }"
  fileprivate static let generateNeedsLabels: Self = "'generate' needs 'initialState', 'condition' and 'iterate'"
  fileprivate static func takesTimeSpanAndCount(_ step: String) -> Self { "'\(step)' takes { timeSpan: d, count: n }" }
  fileprivate static func multicastTakesSubject(_ step: String) -> Self {
    "'\(step)' takes { subject: {} | { replay: n } | { behavior: v } }"
  }
  fileprivate static let notASubjectKind: Self =
    "'subject' is written as a subject: {}, { replay: n } or { behavior: v }"
  /// Step `step` (`refCount`, `connect`) written after something other than one
  /// of `library`'s `connectables`.
  fileprivate static func followsConnectable(_ step: String, library: String, _ connectables: [String]) -> Self {
    Self("'\(step)' follows a \(library) connectable: " + connectables.map { "'\($0)'" }.joined(separator: ", "))
  }
  fileprivate static let bindInTemplate: Self =
    "'bind' subscribes a subject for the whole run; it cannot stand inside a template"
  fileprivate static func subjectBoundTwice(_ name: String) -> Self {
    "subject '\(name)' is bound twice (by its 'subscribeTo' or another 'bind'); a subject subscribes to one signal"
  }
}
