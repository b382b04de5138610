import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML

extension LibraryTable {
  /// `library: combine`: the default catalogue with Combine's rows (`StepTable.combineSteps`)
  /// and words.
  static let combine = LibraryTable(
    library: .combine, rows: StepTable.combineSteps, words: StepTable.combineWords)
}

extension StepTable {
  /// `library: combine` (libraries.md): the default catalogue's keys that are Combine operator
  /// names, with Combine's meaning in their plain form and in Combine's labelled forms, as
  /// OpenCombine 0.14.0 implements them (the file and function each follows is named in its
  /// docs row). Combine's other names are in CombineVocabulary.swift and CombineSources.swift.
  static let combineSteps: [StepDefinition] =
    combineRedefinedSteps + combineVocabularySteps + combineSourceSteps

  /// Combine's words for default keys it has no operator of that name for: `flowrun check`
  /// names them in a note (the key keeps its default meaning).
  static let combineWords: [String: String] = [
    "startWith": "'prepend'", "distinctUntilChanged": "'removeDuplicates'", "skip": "'dropFirst'",
    "take": "'prefix'", "takeUntil": "'prefix: { untilOutputFrom }'", "skipUntil": "'drop: { untilOutputFrom }'",
    "takeWhile": "'prefix: { while }'", "skipWhile": "'drop: { while }'", "elementAt": "'output: { at }'",
    "ignoreElements": "'ignoreOutput'", "catchAndReturn": "'replaceError'", "observeOn": "'receive: { on }'",
    "tap": "'handleEvents'", "flatMapLatest": "'map' then 'switchToLatest'", "switchMap": "'map' then 'switchToLatest'",
    "switchAll": "'switchToLatest'", "concat": "'append'", "concatWith": "'append'", "mapTo": "'map'",
    "exhaustMap": "'flatMap: { maxPublishers: 1 }'", "bufferTime": "'collect: { byTime }'",
    "delaySubscription": "'delay' before a 'Deferred'", "combineLatestWith": "'combineLatest'", "zipWith": "'zip'",
    "just": "'Just'", "of": "'publisher' (Publishers.Sequence)", "empty": "'Empty'",
    "never": "'Empty: { completeImmediately: false }'", "fail": "'Fail'",
    "interval": "'Timer.publish: { every }' then 'autoconnect'", "shareReplay": "'multicast' of a CurrentValueSubject",
  ]

  /// Default keys that Combine also has, read with Combine's meaning.
  static let combineRedefinedSteps: [StepDefinition] = [
    .operator(
      "flatMap", .labels, extras: [.concurrent],
      summary:
        "Combine flatMap: a template, or flatMap(maxPublishers:): { maxPublishers: n, signal: template }; an inner failure leaves the upstream subscribed.",
      library: .combine, drops: .init(.unsubscribed, "maxPublishers inner signals were running")
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      var policy = FlattenPolicy.combine()
      var templateNode = argument
      if argument["maxPublishers"] != nil, let node = c.labelled(["maxPublishers", "signal"]) {
        guard let max = c.required("maxPublishers", of: node).flatMap({ c.count($0, "'maxPublishers'", minimum: 1) }),
          let signal = c.required("signal", of: node)
        else { return nil }
        c.uses("combine-flatmap-max-publishers-drops")
        (policy, templateNode) = (.combine(maxPublishers: max), signal)
      } else if let extra = c.extra(.concurrent) {
        guard let concurrent = c.count(extra, "'concurrent'", minimum: 1) else { return nil }
        policy = .combine(concurrent: concurrent)
      }
      guard let template = c.template(templateNode, binding: .outer) else { return nil }
      c.uses("combine-flatmap-keeps-upstream-on-inner-failure")
      return c.apply(.value) { [policy] graph, upstream, scope in
        upstream.flatMap(policy, graph.project(template, scope))
      }
    },
    .operator(
      "throttle", .labels,
      summary:
        "Combine throttle(for:scheduler:latest:): { for: d, latest: bool } ('latest' is required; scheduler ignored).",
      library: .combine
    ) { c in
      guard let node = c.labelled(["for", "latest", "scheduler"]) else {
        let written = c.nonNullArgument?.scalarValue ?? "d"
        c.error(.throttleNeedsLatest(written), at: c.argument ?? c.step.nameNode)
        return nil
      }
      guard c.checkIgnoredTimeLabels(node), let duration = c.required("for", of: node),
        let latestNode = c.required("latest", of: node), let latest = c.bool(latestNode, "'latest'")
      else { return nil }
      c.uses("combine-throttle-latest-false-sends-first-at-window-end")
      c.uses("combine-throttle-emits-as-new-action")
      c.uses("combine-throttle-failure-waits-for-pending")
      return c.timed(duration, "'for'") { upstream, timing in upstream.combineThrottle(timing, latest: latest) }
    },
    .operator(
      "debounce", .labels,
      summary:
        "Combine debounce(for:scheduler:options:): debounce: d or { for: d } (scheduler and options ignored); a pending value is dropped at completion.",
      library: .combine,
      drops: .init(.replaced, "a newer value came", atEnd: "the source completed while it was pending")
    ) { c in
      guard let duration = c.plainOrLabel("for", ignoring: ["scheduler", "options"]) else { return nil }
      c.uses("combine-debounce-drops-pending-on-completion")
      return c.timed(duration, "\(c.quotedName)") { upstream, timing in
        upstream.debounce(timing, dropsPendingOnEnd: true)
      }
    },
    .operator(
      "delay", .labels,
      summary:
        "Combine delay(for:tolerance:scheduler:options:): delay: d or { for: d } (tolerance, scheduler and options ignored); values, the completion and the failure arrive d later.",
      library: .combine
    ) { c in
      guard let duration = c.plainOrLabel("for", ignoring: ["tolerance", "scheduler", "options"]) else { return nil }
      c.uses("combine-delay-delays-completion-and-failure")
      return c.timed(duration, "\(c.quotedName)") { upstream, timing in
        upstream.delay(timing, delaysCompletion: true, delaysError: true)
      }
    },
    .operator(
      "timeout", .labels,
      summary:
        "Combine timeout(_:scheduler:options:customError:): timeout: d or { for: d, customError: v } (scheduler and options ignored); finishes unless customError.",
      library: .combine
    ) { c in
      var customError: Value?
      let duration: YAMLNode
      if let node = c.labelled(["for", "customError", "scheduler", "options"]) {
        guard c.checkIgnoredTimeLabels(node), let written = c.required("for", of: node) else { return nil }
        duration = written
        customError = node["customError"].map { c.value($0) }
      } else {
        guard let written = c.requiredNonNullArgument() else { return nil }
        duration = written
      }
      c.uses("combine-timeout-finishes")
      c.uses("combine-timeout-redelivers-as-actions")
      return c.timed(duration, "\(c.quotedName)") { [customError] upstream, timing in
        upstream.combineTimeout(timing, customError: customError)
      }
    },
    .operator(
      "share", .bare,
      summary:
        "Combine share(): multicast(subject: PassthroughSubject()).autoconnect(); once the source ended, a late subscriber gets only the completion.",
      library: .combine
    ) { c in
      guard c.checkBare() else { return nil }
      c.uses("combine-share-terminates-for-good")
      return c.combineShare(.publish, connectsAtSetup: false)
    },
    .operator(
      "first", .labels, aliases: [Alias("tryFirst", of: .combine)],
      summary: "Combine first() / first(where:): first, first: expr or { where: expr }; an empty source finishes.",
      library: .combine
    ) { c in
      c.combineFirstOrLast { upstream, test in upstream.first(where: test, default: nil, ifEmpty: .finishes) }
    },
    .operator(
      "last", .labels, aliases: [Alias("tryLast", of: .combine)],
      summary: "Combine last() / last(where:): last, last: expr or { where: expr }; an empty source finishes.",
      library: .combine
    ) { c in
      c.combineFirstOrLast { upstream, test in upstream.last(where: test, default: nil, ifEmpty: .finishes) }
    },
    .operator(
      "retry", .count, summary: "Combine retry(_:): n re-subscriptions after the first attempt (n is required).",
      library: .combine
    ) { c in
      guard let argument = c.nonNullArgument, argument.resolvedScalar != .bool(true) else {
        c.error(.retryNeedsCount, at: c.step.nameNode)
        return nil
      }
      guard let count = c.count(argument, c.quotedName) else { return nil }
      return c.retry { _ in .times(count) }
    },
    .operator(
      "buffer", .labels,
      summary:
        "Combine buffer(size:prefetch:whenFull:): { size: n, … } holds values only for demand, so it passes events on.",
      library: .combine, nearest: "collect"
    ) { c in
      guard c.labelled(["size", "prefetch", "whenFull"]) != nil else {
        c.error(.bufferTakesSize, at: c.argument ?? c.step.nameNode)
        return nil
      }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream }
    },
    .operator(
      "merge", .labels, aliases: [Alias("mergeWith")],
      summary: "Combine merge(with:): { with: signal } or { with: [signals] } (also merge: [signals]).",
      library: .combine
    ) { c in
      guard let node = c.labelled(["with"]) else { return c.compileAsDefault() }
      guard let with = c.required("with", of: node), let others = c.signals(with, "'with'") else { return nil }
      return c.apply(.value) { graph, upstream, scope in
        MergeSource([upstream] + others.map { graph.source(for: $0, scope: scope) })
      }
    },
  ]
}

extension OperatorCompilation {
  /// A Combine duration argument written plain (`delay: 5`) or with its label
  /// (`delay: { for: 5 }`), beside which the labels `ignoring` are accepted
  /// (`checkIgnoredTimeLabels`).
  func plainOrLabel(_ label: String, ignoring: [String] = []) -> YAMLNode? {
    if let node = labelled([label] + ignoring) {
      guard checkIgnoredTimeLabels(node) else { return nil }
      return required(label, of: node)
    }
    return requiredNonNullArgument()
  }

  /// The arguments of Combine's time operators that change nothing in virtual time, accepted
  /// and ignored: `scheduler:` (checked: a real background queue is an error, any other name is
  /// the scenario's virtual scheduler), `options:`, and `tolerance:` (checked as a duration: a
  /// virtual deadline is exact). False after a diagnostic.
  func checkIgnoredTimeLabels(_ node: YAMLNode) -> Bool {
    if let scheduler = node["scheduler"], self.scheduler(scheduler, "'scheduler'") == nil { return false }
    if let tolerance = node["tolerance"], frames(tolerance, "'tolerance'", minimum: 0) == nil { return false }
    return true
  }

  /// A Combine closure argument written plain (`first: '$0 > 1'`) or with its label
  /// (`first: { where: '$0 > 1' }`); nil when the step is bare. `failed` is set when the
  /// argument was written wrong.
  func closureArgument(_ label: String, failed: inout Bool) -> YAMLNode? {
    guard let argument = nonNullArgument, argument.resolvedScalar != .bool(true) else { return nil }
    if argument.mappingPairs != nil {
      guard let node = labelled([label]), let closure = required(label, of: node) else {
        failed = true
        return nil
      }
      return closure
    }
    return argument
  }

  /// Combine's `first` / `last`: bare, or a test written plain or with `where`.
  fileprivate func combineFirstOrLast(_ make: @escaping (_ upstream: any Source, Predicate?) -> any Source)
    -> (SignalPlan, ValueShape)?
  {
    var failed = false
    let node = closureArgument("where", failed: &failed)
    if failed { return nil }
    var test: StepExpression?
    if let node {
      guard let compiled = expression(node) else { return nil }
      test = compiled
    }
    uses("combine-first-last-finish-when-empty")
    let role = definition.name
    return apply(shape.passedOn) { [test] graph, upstream, scope in
      make(upstream, test.map { graph.predicate($0, scope, role: role) })
    }
  }

  /// A Combine `ConnectablePublisher` over the input (`share`, `multicast`, `makeConnectable`):
  /// one subject for every subscriber, connected at setup unless `autoconnect` follows (a view
  /// model that calls `connect()` does so when it is made).
  func combineShare(_ subject: Subject.Kind, connectsAtSetup: Bool) -> (SignalPlan, ValueShape) {
    let owner = nodeLabel
    return apply(shape.passedOn) { graph, upstream, _ in
      let shared = ShareSource(upstream, policy: .combine(subject), owner: owner, runtime: graph.runtime)
      if connectsAtSetup { graph.eagerConnections.append { [weak shared] in shared?.connect() } }
      return shared
    }
  }
}

extension Diagnostic.Message {
  /// Combine's `throttle` written without `latest`; `duration`: the duration as written.
  fileprivate static func throttleNeedsLatest(_ duration: String) -> Self {
    Self(
      "Combine's throttle needs 'latest' (throttle(for:scheduler:latest:)); write "
        + "'throttle: { for: \(duration), latest: true }' (the last value of a window) or 'latest: false' (the first)")
  }
  fileprivate static let retryNeedsCount: Self =
    "Combine's retry needs the number of retries (retry(_:)); write 'retry: n' (n re-subscriptions)"
  fileprivate static let bufferTakesSize = Self(
    "Combine's buffer takes 'size', 'prefetch' and 'whenFull' (buffer(size:prefetch:whenFull:)) and only holds "
      + "values until they are requested; for lists of n values write 'collect: { count: n }'")
}
