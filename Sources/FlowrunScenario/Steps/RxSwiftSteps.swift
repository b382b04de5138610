import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

extension StepTable {
  /// `library: rxswift` (libraries.md): the keys RxSwift 6 and RxCocoa mean differently, and
  /// their own operators. Each meaning is a row of docs/libraries.md, named in `uses`.
  static let rxSwiftSteps: [StepDefinition] = [
    .operator(
      "retry", .retry, summary: "RxSwift retry(n): n attempts in total (retry: 2 retries once); bare: without limit.",
      library: .rxswift
    ) { c in
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
          c.error("'scope' is 'whileConnected' or 'forever', found '\(text)'", at: scope)
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
      guard let node = c.labelled(["onErrorJustReturn", "onErrorDriveWith"]) else {
        c.error(
          "\(c.quotedName) takes { onErrorJustReturn: v } or { onErrorDriveWith: signal }",
          at: c.argument ?? c.step.nameNode)
        return nil
      }
      var fallback: SignalPlan?
      var value: Value?
      switch (node["onErrorJustReturn"], node["onErrorDriveWith"]) {
      case (let just?, nil): value = c.value(just)
      case (nil, let signal?):
        guard let plan = c.signal(signal, "'onErrorDriveWith'")?.0 else { return nil }
        fallback = plan
      default:
        c.error("\(c.quotedName) takes one of 'onErrorJustReturn' and 'onErrorDriveWith'", at: node)
        return nil
      }
      c.uses("rxswift-asDriver")
      let owner = c.nodeLabel
      // `observe(on: MainScheduler())` runs each delivery at once on the main thread when the
      // scheduler has nothing queued (`MainScheduler.scheduleInternal`): no hop in virtual time.
      return c.apply(c.shape.passedOn, label: "asDriver") { [fallback, value] graph, upstream, scope in
        let fallbackSource = fallback.map { graph.source(for: $0, scope: scope) }
        let caught = upstream.catchError { _ in
          fallbackSource ?? ImmediateSource.just(value ?? .null)
        }
        return ShareSource(caught, policy: .rxSwift(replay: 1, forever: false), owner: owner, runtime: graph.runtime)
      }
    },
    .equivalent(
      "flatMapFirst", .template, of: "exhaustMap", library: .rxswift, row: "rxswift-flatMapFirst",
      summary: "RxSwift flatMapFirst: each value makes an inner signal, ignored while the previous one runs."),
    .operator(
      "take", .labels, summary: "take: n, or RxSwift take(for: d): the values of the first d frames, then completed.",
      library: .rxswift
    ) { c in
      guard let node = c.labelled(["for"]), let duration = c.required("for", of: node) else {
        return c.compileAsDefault()
      }
      guard let frames = c.frames(duration, "'for'", minimum: 0) else { return nil }
      c.uses("rxswift-take-for")
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, _ in
        upstream.takeUntil(TimerSource(delay: frames, period: nil, owner: owner, runtime: graph.runtime))
      }
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
