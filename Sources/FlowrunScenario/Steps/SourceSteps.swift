import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

extension StepTable {
  /// The steps that start a signal (scenario-format.md §Sources).
  static let sourceSteps: [StepDefinition] = [
    .source(
      "hot", .marble, extras: [.values, .error],
      summary:
        "A hot source: events at absolute frames, shared by all subscribers; '^' marks frame 0. Extra keys: values, error."
    ) { c in
      guard let input = c.compiler.marbleInput(c.step, c.argument, hot: true) else { return nil }
      let index = c.compiler.addHotMarble(input)
      c.compiler.knownKinds.source = input.events.map { .values(KnownKinds.representatives(of: $0)) }
      return (
        c.source(subscriptions: .hot(index), traceRole: .scheduling) { graph, _ in graph.hotSources[index] }, .value
      )
    },
    .source(
      "cold", .marble, extras: [.values, .error],
      summary:
        "A cold source: every subscription replays the marble from its own subscription frame. Extra keys: values, error."
    ) { c in
      guard let input = c.compiler.marbleInput(c.step, c.argument, hot: false) else { return nil }
      let location = input.label.location ?? c.step.nameNode.start
      return (
        c.source(subscriptions: .cold(location), traceRole: .scheduling) { graph, _ in graph.coldSource(input) }, .value
      )
    },
    .source(
      "from", .name,
      summary: "The named signal, subject, property (RACObserve: current value, then every change) or derived name."
    ) { c in
      guard let name = c.string(c.argument, c.quotedName) else { return nil }
      return c.compiler.resolveReference(name, at: c.argument)
    },
    .source("just", .value, summary: "One value, then completed, at subscription.") { c in
      let value = c.value(c.argument)
      c.compiler.knownKinds.source = .values([value])
      return (c.source { _, _ in ImmediateSource.just(value) }, .value)
    },
    .source("of", .list, summary: "Each value of the list in order, then completed, all at subscription.") { c in
      guard let items = c.compiler.context.sequence(c.argument, c.quotedName) else { return nil }
      let values = items.map { c.value($0) }
      c.compiler.knownKinds.source = values.isEmpty ? nil : .values(KnownKinds.representatives(values))
      return (c.source { _, _ in ImmediateSource.of(values) }, .value)
    },
    .source("empty", .true, summary: "Completed at subscription (write 'empty: true').") { c in
      guard c.takesTrue() else { return nil }
      return (c.source { _, _ in ImmediateSource.empty }, .value)
    },
    .source("never", .true, summary: "Nothing, ever (write 'never: true').") { c in
      guard c.takesTrue() else { return nil }
      return (c.source { _, _ in ImmediateSource.never }, .value)
    },
    .source("fail", .value, summary: "An error with this value at subscription.") { c in
      let error = c.value(c.argument)
      return (c.source { _, _ in ImmediateSource.fail(error) }, .value)
    },
    .source(
      "interval", .positiveDuration,
      summary: "0, 1, 2, … every duration, the first one a duration after subscription; at least one frame."
    ) { c in
      guard let period = c.frames(c.argument, c.quotedName, minimum: 1) else { return nil }
      return (c.timer(delay: period, period: period, label: c.definition.name), .value)
    },
    .source(
      "timer", .timer, summary: "0 after the duration, then completed; or repeating with {after, every}."
    ) { c in
      guard let pairs = c.argument.mappingPairs else {
        guard let delay = c.frames(c.argument, c.quotedName, minimum: 0) else { return nil }
        return (c.timer(delay: delay, period: nil, label: c.definition.name), .value)
      }
      c.compiler.context.checkKeys(pairs, allowed: ["after", "every"], in: c.quotedName)
      let after = c.argument["after"].flatMap { c.frames($0, "'after'", minimum: 0) } ?? 0
      guard let everyNode = c.argument["every"] else {
        c.error(.timerNeedsEvery(c.step.name), at: c.argument)
        return nil
      }
      guard let every = c.frames(everyNode, "'every'", minimum: 1) else { return nil }
      // A repeating timer is traced as the interval it is.
      return (c.timer(delay: after, period: every, label: "interval"), .value)
    },
    .source(
      "combineLatest", .combination,
      summary:
        "The latest value of every input once each has sent one: a list ($0, $1 …) for a list of signals, a map for a map of signals."
    ) { c in
      c.combination(c.argument, first: nil) { CombineLatestSource($0, keys: $1) }
    },
    .source(
      "zip", .combination,
      summary: "Pairs the inputs' values by index: a list for a list of signals, a map for a map of signals."
    ) { c in
      c.combination(c.argument, first: nil) { ZipSource($0, keys: $1) }
    },
    .source(
      "merge", .signals, extras: [.concurrent], summary: "The inputs' events interleaved (extra key: concurrent)."
    ) { c in
      guard let inputs = c.signals(c.argument, c.quotedName) else { return nil }
      let concurrent = c.extra(.concurrent).flatMap { c.count($0, "'concurrent'", minimum: 1) } ?? .max
      return (c.combine(inputs) { MergeSource($0, concurrent: concurrent) }, .value)
    },
    .source("concat", .signals, summary: "The inputs one after another, each after the previous completed.") { c in
      guard let inputs = c.signals(c.argument, c.quotedName) else { return nil }
      return (c.combine(inputs) { MergeSource.concat($0) }, .value)
    },
    .source("race", .signals, summary: "The first input to emit wins (amb); the others are unsubscribed.") { c in
      guard let inputs = c.signals(c.argument, c.quotedName) else { return nil }
      return (c.combine(inputs) { RaceSource($0) }, .value)
    },
    .source(
      "call", .name, extras: [.with],
      summary: "Calls the named service once per subscription; extra key 'with' gives the input."
    ) { c in
      guard let (service, input) = c.compiler.compileCall(c.step, c.argument) else { return nil }
      return (
        c.source(label: "\(c.definition.name) \(service)", traceRole: .call) { graph, scope in
          graph.callSource(service, input, scope: scope)
        }, .value
      )
    },
  ]
}

extension SourceCompilation {
  /// Whether the argument is `true` (`empty: true`); `false` is an error.
  fileprivate func takesTrue() -> Bool {
    guard bool(argument, quotedName) == true else {
      if case .bool(false) = argument.resolvedScalar { error(.takesTrue(step.name), at: argument) }
      return false
    }
    return true
  }

  fileprivate func timer(delay: Int, period: Int?, label: String) -> SignalPlan {
    let owner = nodeLabel
    return source(label: label, traceRole: .scheduling) { graph, _ in
      TimerSource(delay: delay, period: period, owner: owner, runtime: graph.runtime)
    }
  }
}

extension StepCompilation {
  /// A step over several signals: `make` combines their sources (each a step of the same chain,
  /// not metered on its own).
  func combine(_ inputs: [SignalPlan], _ make: @escaping ([any Source]) -> any Source) -> SignalPlan {
    combine(inputs) { _, sources in make(sources) }
  }

  /// `combine` whose sources are made with the run's runtime (a pull-based `combineLatest`
  /// asks its tie-breaker).
  func combine(_ inputs: [SignalPlan], onRuntime make: @escaping (Runtime, [any Source]) -> any Source) -> SignalPlan {
    .source(
      SourcePlan(
        label: definition.traceLabel, subscriptions: nil, traceRole: .source,
        make: { graph, scope in make(graph.runtime, inputs.map { graph.step(for: $0, scope: scope) }) },
        inputs: inputs))
  }

  /// `combineLatest`/`zip` as a source (`first` nil) or as an operator after `first`: a list
  /// of signals makes lists (`$0`, `$1` …), a map of signals (as a source) makes maps whose keys
  /// are names in the next step. `make` combines the inputs with the keys of the map form.
  func combination(
    _ argument: YAMLNode, first: SignalPlan?, _ make: @escaping ([any Source], [String]?) -> any Source
  ) -> (SignalPlan, ValueShape)? {
    combination(argument, first: first) { _, sources, keys in make(sources, keys) }
  }

  /// `combination` whose source is made with the run's runtime.
  func combination(
    _ argument: YAMLNode, first: SignalPlan?,
    _ make: @escaping (Runtime, [any Source], [String]?) -> any Source
  ) -> (SignalPlan, ValueShape)? {
    if let pairs = argument.mappingPairs, first == nil, !pairs.isEmpty,
      pairs.allSatisfy({ !compiler.steps.contains($0.key.scalarValue ?? "") })
    {
      var keys: [String] = []
      var inputs: [SignalPlan] = []
      for pair in pairs {
        guard let key = string(pair.key, "a key"), let input = signal(pair.value, "\(quotedName) input '\(key)'")
        else { return nil }
        keys.append(key)
        inputs.append(input.0)
      }
      let keyed = keys
      return (combine(inputs, onRuntime: { make($0, $1, keyed) }), .keyed(keys))
    }
    guard let others = signals(argument, quotedName) else { return nil }
    let inputs = (first.map { [$0] } ?? []) + others
    return (combine(inputs, onRuntime: { make($0, $1, nil) }), .tuple(inputs.count))
  }
}

extension Diagnostic.Message {
  fileprivate static func timerNeedsEvery(_ step: String) -> Self { "'\(step)' needs 'every' (or a single duration)" }
  fileprivate static func takesTrue(_ step: String) -> Self { "'\(step)' takes 'true'" }
}
