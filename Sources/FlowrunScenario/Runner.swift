public import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

/// Runs loaded scenarios in virtual time and compares what happened with their expectations.
public enum ScenarioRunner {
  /// Runs `scenario` once; `tracer`, when given, hears every traced delivery.
  public static func run(_ scenario: Scenario, tracer: (any Tracer)? = nil) -> ScenarioResult {
    let started = ContinuousClock.now
    let plan = scenario.plan
    let runtime = Runtime(depthLimit: plan.limits.depth, budget: plan.limits.budget)
    runtime.markStack()
    runtime.tracer = tracer
    let graph = Graph(scenario: scenario, runtime: runtime)
    let scheduler = runtime.scheduler
    var recorders: [Recorder?] = Array(repeating: nil, count: scenario.expectations.count)
    var effectsRunning: [EffectObserver] = []
    // What setup subscribed; disposed after the results are read, so that no subscription (and
    // no observer ↔ subscription cycle) outlives the run.
    var subscriptions: [any Disposable] = []
    let windowOwner = NodeLabel("expect")

    // Expectation windows and effects with `at:` act at the start of their frames.
    for (index, expectation) in scenario.expectations.enumerated() {
      guard let window = expectation.window, case .signal(let signal) = expectation.source else { continue }
      let recorder = Recorder(runtime: runtime, limit: plan.limits.events)
      recorders[index] = recorder
      scheduler.schedule(at: window.subscribe, ClosureAction(owner: windowOwner) {
        recorder.start(graph.source(for: signal))
      })
      if let end = window.unsubscribe {
        scheduler.schedule(at: end, ClosureAction(owner: windowOwner) { recorder.dispose() })
      }
    }
    for effect in plan.effects {
      guard let at = effect.at else { continue }
      let observer = EffectObserver(effect: effect, graph: graph)
      effectsRunning.append(observer)
      scheduler.schedule(at: at, ClosureAction(owner: NodeLabel("effect", at: effect.location)) {
        observer.start()
      })
    }
    graph.startHotSources()
    for action in plan.timeline {
      let owner = NodeLabel("timeline", at: action.location)
      scheduler.schedule(at: action.at, ClosureAction(owner: owner) {
        graph.tracing?.timeline(action)
        for step in action.actions { graph.perform(step, value: .null, at: action.location) }
      })
    }
    graph.instantiateNamedSignals()
    for connect in graph.eagerConnections { connect() }
    for subject in plan.subjects {
      guard let signal = subject.subscribeTo, let node = graph.subjects[subject.name] else { continue }
      subscriptions.append(graph.source(for: signal).subscribe(node))
    }
    for property in plan.properties {
      guard let binding = property.binding, let node = graph.properties[property.name] else { continue }
      subscriptions.append(node.bind(to: graph.source(for: binding), at: property.location))
    }
    graph.connectCommands()
    for effect in plan.effects where effect.at == nil {
      let observer = EffectObserver(effect: effect, graph: graph)
      effectsRunning.append(observer)
      observer.start()
    }
    for (index, expectation) in scenario.expectations.enumerated() {
      guard expectation.window == nil, case .signal(let signal) = expectation.source else { continue }
      let recorder = Recorder(runtime: runtime, limit: plan.limits.events)
      recorders[index] = recorder
      recorder.start(graph.source(for: signal))
    }

    let outcome = scheduler.run(until: plan.until, timeLimit: plan.limits.time, stepLimit: plan.limits.steps)
    switch outcome {
    case .timeLimit(let owner):
      runtime.fail(
        "the run reached the time limit of \(plan.limits.time) frames: '\(owner.name)' keeps scheduling"
          + " (add 'take', 'takeUntil' or 'until', or raise 'limit.time')",
        at: owner.location)
    case .stepLimit(let owner):
      runtime.fail(
        "the run reached the limit of \(plan.limits.steps) scheduler steps: '\(owner.name)' keeps scheduling",
        at: owner.location)
    case .idle, .reachedEnd, .stopped:
      break
    }

    var results: [ExpectationResult] = []
    var stats = RunStats(frames: runtime.now, rejectedExecutions: runtime.rejectedExecutions)
    for (index, expectation) in scenario.expectations.enumerated() {
      switch (expectation.expected, expectation.source) {
      case (.events(let expected), _):
        let actual = recorders[index]?.tape ?? EventTape()
        stats.events += actual.count
        let difference = expected.firstDifference(from: actual)
        results.append(.init(spec: expectation, actual: .events(actual), passed: difference == nil, firstDifference: difference))
      case (.subscriptions(let expected, _), .subscriptions(let target)):
        let actual = graph.log(of: target)?.entries ?? []
        stats.subscriptions += actual.count
        let difference = ExpectationResult.compare(expected, actual)
        results.append(.init(spec: expectation, actual: .subscriptions(actual), passed: difference == nil, firstDifference: difference))
      case (.subscriptions, .signal):
        break
      }
    }
    let diagnostics = runtime.issues.map { issue in
      var diagnostic = scenario.file.diagnostic(
        "frame \(issue.frame): \(issue.message)", at: issue.location ?? scenario.location, severity: issue.severity)
      if issue.location == nil { diagnostic.sourceLine = nil }
      return diagnostic
    }
    let status: ScenarioStatus =
      runtime.isFailed ? .error : results.allSatisfy(\.passed) ? .passed : .failed
    // The teardown is not part of the run: nothing of it is traced.
    runtime.tracer = nil
    scheduler.removeAll()
    for effect in effectsRunning { effect.dispose() }
    for recorder in recorders { recorder?.tearDown() }
    for subscription in subscriptions { subscription.dispose() }
    graph.tearDown()
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return ScenarioResult(
      scenario: scenario, status: status, expectations: results, diagnostics: diagnostics, stats: stats,
      durationSeconds: seconds)
  }
}
