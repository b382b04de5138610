import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML

extension LibraryTable {
  /// `library: rxswift`: the default catalogue with RxSwift's rows (the keys RxSwift means
  /// otherwise, `StepTable.rxSwiftSteps`, and its own names, `rxSwiftVocabulary`) and words.
  static let rxSwift = LibraryTable(
    library: .rxswift, rows: StepTable.rxSwiftSteps + StepTable.rxSwiftVocabulary, words: StepTable.rxSwiftWords)
}

extension StepTable {
  /// `library: rxswift` (libraries.md): the keys RxSwift 6 and RxCocoa mean differently, and
  /// their own operators. Each meaning is a row of docs/libraries.md, named in `uses`.
  static let rxSwiftSteps: [StepDefinition] = [
    .operator(
      "retry", .labels,
      summary:
        "RxSwift retry(n): n attempts in total (retry: 2 retries once); bare: without limit; { when: template } is retry(when:).",
      library: .rxswift
    ) { c in
      if let argument = c.argument, argument["when"] != nil {
        guard c.labelled(["when"]) != nil, let when = argument["when"],
          let template = c.template(when, binding: .error)
        else { return nil }
        c.uses("rxswift-retry-when")
        let owner = c.nodeLabel
        return c.apply(c.shape.passedOn) { graph, upstream, scope in
          // Unowned: the handler runs only while its graph runs (Runtime, "Ownership").
          upstream.retryWhen(
            { [unowned graph] error throws(StepFailure) in
              var inner = scope
              inner.error = error
              inner.subject = error
              return try graph.instantiate(template, scope: inner)
            }, owner: owner, runtime: graph.runtime)
        }
      }
      c.uses("rxswift-retry-counts-attempts")
      return c.retry { count in
        guard let count else { return .times(nil) }
        if count == 0 { c.uses("rxswift-retry-zero-completes") }
        return count == 0 ? .never : .times(count - 1)
      }
    },
    .operator(
      "throttle", .duration, extras: [.latest],
      summary:
        "RxSwift throttle(d, latest:): the window's end is inclusive; with latest (default) the last value at its end.",
      library: .rxswift
    ) { c in
      guard let argument = c.requiredNonNullArgument() else { return nil }
      let latest = c.extra(.latest).flatMap { c.bool($0, "'latest'") } ?? true
      c.uses("rxswift-throttle-window-end-inclusive")
      c.uses("rxswift-throttle-edge-sent-at-once")
      if latest { c.uses("rxswift-throttle-new-window") }
      return c.timed(argument, c.quotedName) { upstream, timing in upstream.rxSwiftThrottle(timing, latest: latest) }
    },
    .operator(
      "delay", .duration, summary: "RxSwift delay: values and the completion arrive later; an error at once.",
      library: .rxswift
    ) { c in
      guard let argument = c.requiredNonNullArgument() else { return nil }
      c.uses("rxswift-delay-completion")
      c.uses("rxswift-delay-one-timer")
      return c.timed(argument, c.quotedName) { upstream, timing in upstream.rxSwiftDelay(timing) }
    },
    .operator(
      "share", .labels,
      summary: "RxSwift share(replay:scope:): { replay: n, scope: whileConnected | forever }; bare: share().",
      library: .rxswift
    ) { c in
      guard let node = c.labelled(["replay", "scope"]) else { return c.compileAsDefault() }
      let replay = node["replay"].flatMap { c.count($0, "'replay'") } ?? 0
      var forever = false
      if let scope = node["scope"], let text = c.string(scope, "'scope'") {
        switch text {
        case "whileConnected": break
        case "forever": forever = true
        default:
          c.error(.unknownShareScope(text), at: scope)
          return nil
        }
      }
      c.uses(forever ? "rxswift-share-forever" : "rxswift-share-replay-restarts")
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn, label: "share") { graph, upstream, _ in
        ShareSource(upstream, policy: .rxSwift(replay: replay, forever: forever), owner: owner, runtime: graph.runtime)
      }
    },
    .operator(
      "asDriver", .labels,
      summary:
        "RxCocoa asDriver: { onErrorJustReturn: v } or { onErrorDriveWith: signal }; delivered on main, shared with replay 1.",
      library: .rxswift, nearest: "catchAndReturn"
    ) { c in
      // `observe(on: MainScheduler())` runs each delivery at once on the main thread when the
      // scheduler has nothing queued (`MainScheduler.scheduleInternal`): no hop in virtual time.
      c.rxCocoaTrait(fallbackLabel: "onErrorDriveWith", replay: 1, row: "rxswift-asDriver")
    },
    .operator(
      "asSignal", .labels,
      summary: "RxCocoa asSignal: { onErrorJustReturn: v } or { onErrorSignalWith: signal }; shared without replay.",
      library: .rxswift, nearest: "catchAndReturn"
    ) { c in
      c.rxCocoaTrait(fallbackLabel: "onErrorSignalWith", replay: 0, row: "rxswift-asSignal")
    },
    .equivalent(
      "flatMapFirst", .template, of: "exhaustMap", library: .rxswift, row: "rxswift-flatMapFirst",
      summary: "RxSwift flatMapFirst: each value makes an inner signal, ignored while the previous one runs."),
    .operator(
      "take", .labels,
      summary:
        "take: n, or RxSwift's take(for: d), take(while: expr, behavior: inclusive | exclusive), take(until: signal).",
      library: .rxswift
    ) { c in
      guard let node = c.labelled(["for", "while", "until", "behavior"]) else { return c.compileAsDefault() }
      return c.rxSwiftLabelledForm(node, take: true)
    },
    .operator(
      "takeLast", .count,
      summary: "RxSwift takeLast(n): the last n values at completion; takeLast(0) still subscribes.",
      library: .rxswift
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let count = c.count(argument, c.quotedName) else {
        return nil
      }
      guard count == 0 else { return c.compileAsDefault() }
      c.uses("rxswift-takelast-zero-subscribes")
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.ignoreElements() }
    },
    .operator(
      "skip", .labels,
      summary: "skip: n, or RxSwift's skip(for: d), skip(while: expr), skip(until: signal).",
      library: .rxswift
    ) { c in
      guard let node = c.labelled(["for", "while", "until"]) else { return c.compileAsDefault() }
      return c.rxSwiftLabelledForm(node, take: false)
    },
    .operator(
      "sample", .labels,
      summary: "RxSwift sample(_:defaultValue:): sample: signal, or { signal, defaultValue }.", trace: "sample",
      library: .rxswift
    ) { c in
      guard let argument = c.requiredNonNullArgument() else { return nil }
      var signalNode = argument
      var defaultValue: Value?
      if let node = c.labelled(["signal", "defaultValue"]) {
        guard let signal = c.required("signal", of: node) else { return nil }
        signalNode = signal
        defaultValue = node["defaultValue"].map { c.value($0) }
      }
      guard let sampler = c.signal(signalNode, "'signal'")?.0 else { return nil }
      if defaultValue != nil { c.uses("rxswift-sample-default-value") }
      c.uses("rxswift-sample-waits-for-tick")
      c.uses("rxswift-sample-sampler-completion-emits")
      return c.apply(c.shape.passedOn) { [defaultValue] graph, upstream, scope in
        upstream.sample(graph.source(for: sampler, scope: scope), rule: .rxSwift(defaultValue: defaultValue))
      }
    },
    .source(
      "zip", .combination,
      summary:
        "RxSwift zip: pairs the inputs' values by index; completes when all inputs did, or at a value that can never be paired.",
      library: .rxswift
    ) { c in
      c.uses("rxswift-zip-completes-when-all-done")
      return c.combination(c.argument, first: nil) { ZipSource($0, keys: $1, rule: .rxSwift) }
    },
    .operator(
      "zip", .signals, aliases: [Alias("zipWith")],
      summary: "RxSwift zip of this signal and the given signal(s); completes as RxSwift's zip does.",
      library: .rxswift
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      c.uses("rxswift-zip-completes-when-all-done")
      return c.combination(argument, first: c.input) { ZipSource($0, keys: $1, rule: .rxSwift) }
    },
    .source(
      "combineLatest", .combination,
      summary:
        "RxSwift combineLatest: completes at a value that can never be combined; of no input it sends [] then completes.",
      library: .rxswift
    ) { c in
      c.uses("rxswift-combinelatest-completes-early")
      return c.combination(c.argument, first: nil) { CombineLatestSource($0, keys: $1, rule: .rxSwift) }
    },
    .operator(
      "combineLatest", .signals, aliases: [Alias("combineLatestWith")],
      summary: "RxSwift combineLatest of this signal and the given signal(s).",
      library: .rxswift
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      c.uses("rxswift-combinelatest-completes-early")
      return c.combination(argument, first: c.input) { CombineLatestSource($0, keys: $1, rule: .rxSwift) }
    },
    .operator(
      "skipUntil", .signal,
      summary: "RxSwift skip(until:): the source's completion before the notifier's first value is not sent.",
      library: .rxswift
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let notifier = c.signal(argument, c.quotedName)?.0 else {
        return nil
      }
      c.uses("rxswift-skipuntil-swallows-early-completion")
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.skipUntil(graph.source(for: notifier, scope: scope), rule: .rxSwift)
      }
    },
  ]
}

extension OperatorCompilation {
  /// RxSwift's labelled `take(for:)`, `take(while:behavior:)`, `take(until:)` and `skip(for:)`,
  /// `skip(while:)`, `skip(until:)`: one label of them.
  fileprivate func rxSwiftLabelledForm(_ node: YAMLNode, take: Bool) -> (SignalPlan, ValueShape)? {
    let owner = nodeLabel
    if let duration = node["for"] {
      guard let frames = frames(duration, "'for'", minimum: 0) else { return nil }
      uses(take ? "rxswift-take-for" : "rxswift-skip-for")
      return apply(shape.passedOn) { graph, upstream, _ in
        let timer = TimerSource(delay: frames, period: nil, owner: owner, runtime: graph.runtime)
        // `SkipTimeSink` forwards the completion whenever it comes.
        return take ? upstream.takeUntil(timer) : upstream.skipUntil(timer)
      }
    }
    if let test = node["while"] {
      var inclusive = false
      if let behavior = node["behavior"], let text = string(behavior, "'behavior'") {
        guard text == "inclusive" || text == "exclusive" else {
          error(.unknownTakeWhileBehavior(text), at: behavior)
          return nil
        }
        inclusive = text == "inclusive"
      }
      guard let step = expression(test) else { return nil }
      let role = definition.name
      return apply(shape.passedOn) { graph, upstream, scope in
        let predicate = graph.predicate(step, scope, role: role)
        return take ? upstream.takeWhile(inclusive: inclusive, predicate) : upstream.skipWhile(predicate)
      }
    }
    guard let until = node["until"], let notifier = signal(until, "'until'")?.0 else {
      error(.takesForWhileOrUntil(step.name), at: node)
      return nil
    }
    if !take { uses("rxswift-skipuntil-swallows-early-completion") }
    return apply(shape.passedOn) { graph, upstream, scope in
      let source = graph.source(for: notifier, scope: scope)
      return take ? upstream.takeUntil(source) : upstream.skipUntil(source, rule: .rxSwift)
    }
  }

  /// RxCocoa's `asDriver` / `asSignal`: an error becomes a value then completion (or the
  /// fallback signal), then `share(replay:, scope: .whileConnected)`.
  func rxCocoaTrait(fallbackLabel: String, replay: Int, row: String) -> (SignalPlan, ValueShape)? {
    guard let node = labelled(["onErrorJustReturn", fallbackLabel]) else {
      error(.traitTakesFallback(step.name, fallbackLabel), at: argument ?? step.nameNode)
      return nil
    }
    var fallback: SignalPlan?
    var value: Value?
    switch (node["onErrorJustReturn"], node[fallbackLabel]) {
    case (let just?, nil): value = self.value(just)
    case (nil, let signal?):
      guard let plan = self.signal(signal, "'\(fallbackLabel)'")?.0 else { return nil }
      fallback = plan
    default:
      error(.traitTakesOneFallback(step.name, fallbackLabel), at: node)
      return nil
    }
    uses(row)
    let owner = nodeLabel
    let label = step.name
    return apply(shape.passedOn, label: label) { [fallback, value] graph, upstream, scope in
      let fallbackSource = fallback.map { graph.source(for: $0, scope: scope) }
      let caught = upstream.catchError { _ in fallbackSource ?? ImmediateSource.just(value ?? .null) }
      return ShareSource(
        caught, policy: .rxSwift(replay: replay, forever: false), owner: owner, runtime: graph.runtime)
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func unknownShareScope(_ text: String) -> Self {
    "'scope' is 'whileConnected' or 'forever', found '\(text)'"
  }
  fileprivate static func unknownTakeWhileBehavior(_ text: String) -> Self {
    "'behavior' is 'inclusive' or 'exclusive', found '\(text)'"
  }
  fileprivate static func takesForWhileOrUntil(_ step: String) -> Self {
    "'\(step)' takes one of 'for', 'while' and 'until'"
  }
  /// An RxCocoa trait (`asDriver`, `asSignal`) written without its fallback: `onErrorJustReturn`
  /// or `fallbackLabel`.
  fileprivate static func traitTakesFallback(_ step: String, _ fallbackLabel: String) -> Self {
    "'\(step)' takes { onErrorJustReturn: v } or { \(fallbackLabel): signal }"
  }
  fileprivate static func traitTakesOneFallback(_ step: String, _ fallbackLabel: String) -> Self {
    "'\(step)' takes one of 'onErrorJustReturn' and '\(fallbackLabel)'"
  }
}
