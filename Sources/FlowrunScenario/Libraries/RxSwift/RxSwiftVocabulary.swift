import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

extension StepTable {
  /// `library: rxswift`: RxSwift 6's own names and argument labels for operators whose meaning
  /// the catalogue already has (docs/libraries.md, "RxSwift vocabulary"). Each is one row over a
  /// shared observer.
  static let rxSwiftVocabulary: [StepDefinition] = rxSwiftNamedSteps + rxSwiftConnectableSteps

  /// RxSwift's names for the catalogue's meanings, and its small operators.
  static let rxSwiftNamedSteps: [StepDefinition] = [
    .operator(
      "compactMap", .expression, summary: "RxSwift compactMap: the expression's value, nil (null) values dropped.",
      library: .rxswift, nearest: "map"
    ) { c in
      guard let argument = c.requiredArgument(), let step = c.expression(argument) else { return nil }
      return c.apply(.value) { graph, upstream, scope in
        upstream.map(graph.transform(step, scope)).filter { value, _ in value != .null }
      }
    },
    .equivalent(
      "switchLatest", .bare, of: "switchToLatest", library: .rxswift,
      summary: "RxSwift switchLatest: each inner signal replaces the previous one."),
    .operator(
      "enumerated", .bare, summary: "RxSwift enumerated: each value as [index, value] ($0 the index, $1 the value).",
      library: .rxswift, nearest: "map"
    ) { c in
      guard c.checkBare() else { return nil }
      return c.apply(.tuple(2)) { _, upstream, _ in upstream.map { value, index in .list([.int(index), value]) } }
    },
    .operator(
      "toArray", .bare, summary: "RxSwift toArray: one list of every value on completion ([] when empty).",
      library: .rxswift, nearest: "reduce"
    ) { c in
      guard c.checkBare() else { return nil }
      return c.apply(.value) { _, upstream, _ in
        upstream.reduce(seed: .list([])) { list, value, _ in
          guard case .list(let items) = list else { return .list([value]) }
          return .list(items + [value])
        }
      }
    },
    .operator(
      "single", .optionalExpression,
      summary:
        "RxSwift single: the only value (or the only one passing the test), at once; a second fails 'moreThanOneElement', none 'noElements'.",
      library: .rxswift, nearest: "first"
    ) { c in
      c.uses("rxswift-single")
      guard let argument = c.nonNullArgument, argument.resolvedScalar != .bool(true) else {
        return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.rxSwiftSingle(.single) }
      }
      guard let step = c.expression(argument) else { return nil }
      let role = c.definition.name
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.filter(graph.predicate(step, scope, role: role)).rxSwiftSingle(.single)
      }
    },
    .operator(
      "asSingle", .bare, summary: "RxSwift asSingle: the only value at completion; more fail, none fails.",
      library: .rxswift, nearest: "last"
    ) { c in
      guard c.checkBare() else { return nil }
      c.uses("rxswift-single")
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.rxSwiftSingle(.asSingle) }
    },
    .operator(
      "asMaybe", .bare, summary: "RxSwift asMaybe: the only value, if any, at completion; a second fails.",
      library: .rxswift, nearest: "last"
    ) { c in
      guard c.checkBare() else { return nil }
      c.uses("rxswift-single")
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.rxSwiftSingle(.asMaybe) }
    },
    .equivalent(
      "asCompletable", .bare, of: "ignoreElements", library: .rxswift,
      summary: "RxSwift asCompletable: only the completion or the error."),
    .operator(
      "asObservable", .bare, summary: "RxSwift asObservable: changes only the type; events pass on.",
      library: .rxswift, nearest: "tap"
    ) { c in
      guard c.checkBare() else { return nil }
      return c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator(
      "debug", .labels, summary: "RxSwift debug: prints in RxSwift; here a marker that --trace labels.",
      library: .rxswift, nearest: "tap"
    ) { c in
      c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator(
      "do", .labels,
      summary:
        "RxSwift do(onNext:afterNext:onError:afterError:onCompleted:afterCompleted:onSubscribe:onSubscribed:onDispose:): a marker like tap.",
      library: .rxswift, nearest: "tap"
    ) { c in
      if c.nonNullArgument != nil, c.argument?.resolvedScalar != .bool(true) {
        guard
          c.labelled([
            "onNext", "afterNext", "onError", "afterError", "onCompleted", "afterCompleted", "onSubscribe",
            "onSubscribed", "onDispose",
          ]) != nil
        else {
          c.error(.doTakesLabels, at: c.argument ?? c.step.nameNode)
          return nil
        }
      }
      return c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator(
      "observe", .labels, summary: "RxSwift observe(on: scheduler): each event re-delivered as a new action.",
      library: .rxswift, nearest: "observeOn"
    ) { c in
      guard let node = c.labelled(["on"]), let on = c.required("on", of: node), c.string(on, "'on'") != nil else {
        if c.labelled(["on"]) == nil { c.error(.takesOnScheduler("observe"), at: c.argument ?? c.step.nameNode) }
        return nil
      }
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, _ in upstream.observeOn(owner: owner, runtime: graph.runtime)
      }
    },
    .operator(
      "subscribe", .labels,
      summary: "RxSwift subscribe(on: scheduler): the subscription happens as a new action at the same frame.",
      library: .rxswift, nearest: "delaySubscription"
    ) { c in
      guard let node = c.labelled(["on"]), let on = c.required("on", of: node), c.string(on, "'on'") != nil else {
        if c.labelled(["on"]) == nil {
          c.error(.takesOnScheduler("subscribe"), at: c.argument ?? c.step.nameNode)
        }
        return nil
      }
      c.uses("rxswift-subscribe-on")
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, _ in
        upstream.delaySubscription(Timing(0, owner: owner, runtime: graph.runtime))
      }
    },
    .operator(
      "element", .labels, summary: "RxSwift element(at: n): the value at this index, then completed.",
      library: .rxswift, nearest: "elementAt"
    ) { c in
      guard let node = c.labelled(["at"]), let at = c.required("at", of: node), let index = c.count(at, "'at'") else {
        if c.labelled(["at"]) == nil { c.error(.elementTakesAt, at: c.argument ?? c.step.nameNode) }
        return nil
      }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.elementAt(index, default: nil) }
    },
    .operator(
      "ifEmpty", .labels,
      summary:
        "RxSwift ifEmpty(default: v) / ifEmpty(switchTo: signal): v, or that signal, when the source completes empty.",
      library: .rxswift, nearest: "replaceEmpty"
    ) { c in
      guard let node = c.labelled(["default", "switchTo"]) else {
        c.error(.ifEmptyTakesDefaultOrSwitchTo, at: c.argument ?? c.step.nameNode)
        return nil
      }
      if let other = node["switchTo"] {
        guard let plan = c.signal(other, "'switchTo'")?.0 else { return nil }
        c.uses("rxswift-ifEmpty-switchTo")
        return c.apply(c.shape.passedOn) { graph, upstream, scope in
          upstream.replaceEmpty(switchingTo: graph.source(for: plan, scope: scope))
        }
      }
      guard let value = c.required("default", of: node) else { return nil }
      let replacement = c.value(value)
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.replaceEmpty(with: replacement) }
    },
    .operator(
      "amb", .signal, summary: "RxSwift amb: this signal or the given one, whichever sends first.",
      library: .rxswift, nearest: "race"
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let other = c.signal(argument, c.quotedName)?.0 else {
        return nil
      }
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        RaceSource([upstream, graph.source(for: other, scope: scope)])
      }
    },
    .operator(
      "scan", .labels, extras: [.seed],
      summary: "scan: expr (+ seed), or RxSwift scan(into: v, accumulator: expr) / { seed, accumulator }.",
      library: .rxswift
    ) { c in
      guard let node = c.labelled(["into", "seed", "accumulator"]) else { return c.compileAsDefault() }
      return c.rxSwiftAccumulation(node) { upstream, seed, accumulate in upstream.scan(seed: seed, accumulate) }
    },
    .operator(
      "reduce", .labels, extras: [.seed],
      summary: "reduce: expr (+ seed), or RxSwift reduce(into: v, accumulator: expr) / { seed, accumulator }.",
      library: .rxswift
    ) { c in
      guard let node = c.labelled(["into", "seed", "accumulator"]) else { return c.compileAsDefault() }
      return c.rxSwiftAccumulation(node) { upstream, seed, accumulate in upstream.reduce(seed: seed, accumulate) }
    },
    .operator(
      "bind", .labels,
      summary:
        "RxSwift bind(to:): { to: property } takes every value, as a binding does; { to: subject or relay } subscribes it (a relay takes only the values).",
      library: .rxswift, nearest: "properties"
    ) { c in
      guard let node = c.labelled(["to"]), let to = c.required("to", of: node), let name = c.string(to, "'to'") else {
        if c.labelled(["to"]) == nil { c.error(.bindTakesTo, at: c.argument ?? c.step.nameNode) }
        return nil
      }
      if c.compiler.declarations[name]?.kind == .subject {
        guard c.compiler.bindSubject(c.input, to: name, at: to) else { return nil }
        c.uses("rxswift-bind-to-subject")
      } else {
        guard c.compiler.assign(c.input, to: name, at: to) else { return nil }
      }
      return c.apply(c.shape.passedOn, label: "bind") { _, upstream, _ in upstream }
    },
    .source(
      "error", .value, summary: "RxSwift Observable.error(e): an error with this value at subscription.",
      library: .rxswift
    ) { c in
      let error = c.value(c.argument)
      return (c.source { _, _ in ImmediateSource.fail(error) }, .value)
    },
  ]

  /// For each default key that RxSwift spells otherwise, RxSwift's word, quoted as the note of
  /// `flowrun check` under `library: rxswift` prints it.
  static let rxSwiftWords: [String: String] = [
    "exhaustMap": "'flatMapFirst'", "switchToLatest": "'switchLatest'", "switchAll": "'switchLatest'",
    "switchMap": "'flatMapLatest'", "race": "'amb'", "tap": "'do'", "observeOn": "'observe(on:)'",
    "elementAt": "'element(at:)'", "fail": "'error'", "takeWhile": "'take(while:)'", "skipWhile": "'skip(while:)'",
    "takeUntil": "'take(until:)'", "mapTo": "'map'", "shareReplay": "'share(replay:)'", "pairwise": "'scan'",
    "first": "'take(1)'", "last": "'takeLast(1)'", "sampleRAC": "'sample'", "takeUntilRAC": "'take(until:)'",
    "timeoutRAC": "'timeout'", "then": "'concat'", "ignore": "'filter'", "mergeAll": "'merge'",
    "concatAll": "'concat'", "mergeWith": "'merge'", "concatWith": "'concat'",
    "bufferTime": "'buffer(timeSpan:count:scheduler:)'",
  ]
}

extension OperatorCompilation {
  /// `{ into: v, accumulator: expr }` or `{ seed: v, accumulator: expr }` (`$0` the running
  /// value, `$1` the new one).
  fileprivate func rxSwiftAccumulation(
    _ node: YAMLNode, _ make: @escaping (_ upstream: any Source, _ seed: Value, @escaping Accumulate) -> any Source
  ) -> (SignalPlan, ValueShape)? {
    guard let seedNode = node["into"] ?? node["seed"] else {
      error(.needsInto(step.name), at: node)
      return nil
    }
    guard let accumulatorNode = required("accumulator", of: node),
      let step = expression(accumulatorNode, accumulator: true)
    else { return nil }
    let seed = value(seedNode)
    return apply(.value) { graph, upstream, scope in make(upstream, seed, graph.accumulate(step, scope)) }
  }
}

extension Diagnostic.Message {
  fileprivate static let doTakesLabels: Self = "'do' takes its closures' labels ({ onNext: … })"
  fileprivate static let elementTakesAt: Self = "'element' takes { at: n }"
  fileprivate static let ifEmptyTakesDefaultOrSwitchTo: Self = "'ifEmpty' takes { default: v } or { switchTo: signal }"
  fileprivate static let bindTakesTo: Self = "'bind' takes { to: property }"
  fileprivate static func needsInto(_ step: String) -> Self { "'\(step)' needs 'into' (or 'seed')" }
}
