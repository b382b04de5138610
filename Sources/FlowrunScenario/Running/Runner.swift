public import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

/// Runs loaded scenarios in virtual time and compares what happened with their expectations.
public enum ScenarioRunner {
  /// Runs `scenario` once; `tracer`, when given, hears every traced delivery; `order`, when
  /// given, orders the inputs due at the start of each frame (`flowrun explore --orders`).
  public static func run(
    _ scenario: Scenario, tracer: (any Tracer)? = nil, order: (any TieBreaker)? = nil
  ) -> ScenarioResult {
    run(scenario, tracer: tracer, order: order, binding: nil).result
  }

  /// Runs `scenario` with code bound into it (CodeBinding.swift). When an expectation the code
  /// answers fails and `comparingWithModel` is true, the declared graph is run alone too, and
  /// each expectation the code answers carries the model's events beside the code's
  /// (`ExpectationResult.model`); a run where the code passes needs no model lane and makes
  /// one run only. `order` as in `run(_:tracer:order:)`.
  public static func run(
    _ scenario: Scenario, boundTo binding: CodeBinding, order: (any TieBreaker)? = nil,
    comparingWithModel: Bool = true, tracer: (any Tracer)? = nil
  ) -> ScenarioResult {
    var (result, bound) = run(scenario, tracer: tracer, order: order, binding: binding)
    let failing = result.expectations.contains { !$0.passed && bound.contains($0.spec.target) }
    guard comparingWithModel, failing else { return result }
    let model = run(scenario, tracer: nil, order: order, binding: nil).result
    for index in result.expectations.indices where bound.contains(result.expectations[index].spec.target) {
      guard index < model.expectations.count, case .events(let tape) = model.expectations[index].actual else {
        continue
      }
      result.expectations[index].model = tape
    }
    return result
  }

  private static func run(
    _ scenario: Scenario, tracer: (any Tracer)?, order: (any TieBreaker)?, binding: CodeBinding?
  ) -> (result: ScenarioResult, bound: Set<String>) {
    let started = ContinuousClock.now
    let run = ScenarioRun(scenario, tracer: tracer)
    run.runtime.scheduler.tieBreaker = order
    if let binding { run.bind(binding) }
    run.scheduleTimedSubscriptions(scenario)
    run.scheduleTimeline(scenario.plan)
    run.connect(scenario)
    run.runScheduler(scenario)
    run.checkNothingPending(scenario)
    let (results, stats) = run.results(scenario)
    let diagnostics = run.diagnostics(scenario)
    let invariantResults = run.invariants?.results ?? []
    let status: ScenarioStatus =
      run.runtime.isFailed
      ? .error : results.allSatisfy(\.passed) && invariantResults.allSatisfy(\.passed) ? .passed : .failed
    let bound = run.boundTargets(scenario)
    run.tearDown()
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    var result = ScenarioResult(
      scenario: scenario, status: status, expectations: results, diagnostics: diagnostics, stats: stats,
      durationSeconds: seconds)
    result.invariants = invariantResults
    return (result, bound)
  }

  /// The result of a scenario `flowrun run --library library` does not run: its file names
  /// another library (libraries.md). It is reported as not run, not as failed.
  public static func notRun(_ scenario: Scenario, under library: Library) -> ScenarioResult {
    let said = scenario.declaredLibrary?.rawValue ?? "no library"
    let note = Diagnostic(
      severity: .note, path: scenario.path, location: scenario.plan.declaredLibraryLocation ?? scenario.location,
      message: Diagnostic.Message.notRunUnder(library, fileSays: said).text)
    return ScenarioResult(
      scenario: scenario, status: .skipped, expectations: [], diagnostics: [note], stats: RunStats(),
      durationSeconds: 0)
  }

  /// A scenario whose run crashed the process that ran it (a trap in the engine): an error at
  /// the scenario's name, with `message` saying how it crashed. The run that reports it went on
  /// in a new process without running this scenario again.
  public static func crashed(_ scenario: Scenario, message: String) -> ScenarioResult {
    let error = Diagnostic(path: scenario.path, location: scenario.location, message: message)
    return ScenarioResult(
      scenario: scenario, status: .error, expectations: [], diagnostics: [error], stats: RunStats(),
      durationSeconds: 0)
  }
}

/// One run of a scenario, step by step: what is scheduled before frame 0, what subscribes at
/// setup (in the order semantics.md gives), the run, the results, the teardown.
///
/// The steps are given the scenario rather than keeping a copy of it (a copy retains each of its
/// many parts).
private final class ScenarioRun {
  let runtime: Runtime
  let graph: Graph
  var recorders: [Recorder?]
  var effectsRunning: [EffectObserver] = []
  /// What setup subscribed; disposed after the results are read, so that no subscription (and
  /// no observer ↔ subscription cycle) outlives the run.
  var subscriptions: [any Disposable] = []
  /// The scenario's invariants, checked after every frame (ScenarioCompiler+Invariants.swift); nil without any.
  var invariants: InvariantMonitor?
  /// The code bound into the run, if any (CodeBinding.swift).
  var bound: BoundRun?

  init(_ scenario: Scenario, tracer: (any Tracer)?) {
    let limits = scenario.plan.limits
    runtime = Runtime(depthLimit: limits.depth, budget: limits.budget)
    runtime.markStack()
    runtime.tracer = tracer
    graph = Graph(scenario: scenario, runtime: runtime)
    recorders = Array(repeating: nil, count: scenario.expectations.count)
    if scenario.plan.exhaustive {
      for service in graph.services.values { service.tracksCalls = true }
    }
  }

  var scheduler: VirtualTimeScheduler { runtime.scheduler }

  /// Lets the code register its drives and outputs, before anything is scheduled or connected.
  func bind(_ binding: CodeBinding) {
    let bound = BoundRun(scenario: graph.scenario, graph: graph)
    self.bound = bound
    binding.setUp(bound)
    bound.replaceSignals()
  }

  /// What an expectation records: the bound code's output, or the declared node.
  func source(of expectation: ExpectationSpec, _ signal: SignalPlan) -> any Source {
    bound?.output(for: expectation) ?? graph.source(for: signal)
  }

  /// The expectations the code answers: those bound, and the call logs of the services it
  /// called.
  func boundTargets(_ scenario: Scenario) -> Set<String> {
    guard let bound else { return [] }
    var targets: Set<String> = []
    for expectation in scenario.expectations {
      if bound.output(for: expectation) != nil {
        targets.insert(expectation.target)
      } else if expectation.isCallLog, case .signal(.reference(.serviceCalls(let name))) = expectation.source,
        graph.codeServices[name] != nil
      {
        targets.insert(expectation.target)
      }
    }
    return targets
  }

  /// Expectation windows and effects with `at:` act at the start of their frames.
  func scheduleTimedSubscriptions(_ scenario: Scenario) {
    let plan = scenario.plan
    let windowOwner = NodeLabel("expect")
    // A service's call log is recorded from the start, before setup can make a call; a window
    // selects its frames afterwards.
    for (index, expectation) in scenario.expectations.enumerated() where expectation.isCallLog {
      guard case .signal(let signal) = expectation.source else { continue }
      let recorder = Recorder(runtime: runtime, limit: plan.limits.events, location: expectation.location)
      recorders[index] = recorder
      recorder.start(graph.source(for: signal))
    }
    for (index, expectation) in scenario.expectations.enumerated() where !expectation.isCallLog {
      guard let window = expectation.window, case .signal(let signal) = expectation.source else { continue }
      let recorder = Recorder(runtime: runtime, limit: plan.limits.events, location: expectation.location)
      recorders[index] = recorder
      scheduler.schedule(
        at: window.subscribe,
        ClosureAction(owner: windowOwner) { [unowned self] in
          recorder.start(self.source(of: expectation, signal))
        })
      if let end = window.unsubscribe {
        // `library: async`: the window's end cancels the iterating task; the lane records `(;|)`
        // unless the sequence ended before (docs/libraries.md "Cancellation").
        let cancels = plan.profile.consumersPull
        scheduler.schedule(
          at: end,
          ClosureAction(owner: windowOwner) {
            if cancels { recorder.cancel() } else { recorder.dispose() }
          })
      }
    }
    // `library: async`: a marble's `;` cancels the iterating task at the start of its frame, as
    // the package's harness cancels it before the frame's work.
    for (index, expectation) in scenario.expectations.enumerated() {
      guard let cancel = expectation.cancel else { continue }
      scheduler.schedule(
        at: cancel,
        ClosureAction(owner: windowOwner) { [unowned self] in
          self.recorders[index]?.cancel()
        })
    }
    for effect in plan.effects {
      guard let at = effect.at else { continue }
      let observer = EffectObserver(effect: effect, graph: graph)
      effectsRunning.append(observer)
      scheduler.schedule(
        at: at,
        ClosureAction(owner: NodeLabel("effect", at: effect.location)) {
          observer.start()
        })
    }
  }

  /// The hot marbles, then the timeline's actions.
  func scheduleTimeline(_ plan: ScenarioPlan) {
    graph.startHotSources()
    let graph = self.graph
    for action in plan.timeline {
      let owner = NodeLabel("timeline", at: action.location)
      scheduler.schedule(
        at: action.at,
        ClosureAction(owner: owner, isInput: true) {
          graph.tracing?.timeline(action)
          for step in action.actions { graph.perform(step, value: .null, at: action.location) }
        })
    }
  }

  /// Setup at frame 0: named signals (and eager connections), subjects' `subscribeTo`, property
  /// bindings, commands' `enabled`, effects, then the expectations' recorders.
  func connect(_ scenario: Scenario) {
    let plan = scenario.plan
    graph.instantiateNamedSignals()
    for connect in graph.eagerConnections { connect() }
    for subject in plan.subjects {
      guard let signal = subject.subscribeTo, let node = graph.subjects[subject.name] else { continue }
      subscriptions.append(node.connect(to: graph.source(for: signal)))
    }
    let unread = bound?.unreadOutputs(plan, expectations: scenario.expectations) ?? []
    for property in plan.properties where !unread.contains(property.name) {
      guard let binding = property.binding, let node = graph.properties[property.name] else { continue }
      subscriptions.append(node.bind(to: graph.source(for: binding), at: property.location))
    }
    graph.connectCommands()
    for effect in plan.effects where effect.at == nil {
      let observer = EffectObserver(effect: effect, graph: graph)
      effectsRunning.append(observer)
      observer.start()
    }
    if let bound { subscriptions += bound.connectDrives() }
    for (index, expectation) in scenario.expectations.enumerated() where !expectation.isCallLog {
      guard expectation.window == nil, case .signal(let signal) = expectation.source else { continue }
      let recorder = Recorder(runtime: runtime, limit: plan.limits.events, location: expectation.location)
      recorders[index] = recorder
      recorder.start(source(of: expectation, signal))
    }
  }

  /// Runs the scheduler; a limit reached fails the run, naming the node that kept scheduling.
  func runScheduler(_ scenario: Scenario) {
    let plan = scenario.plan
    if !plan.invariants.isEmpty {
      invariants = InvariantMonitor(scenario: scenario, graph: graph)
      invariants?.start(bound: bound?.output(named:))
    }
    let outcome = ScenarioRunner.runScheduler(scheduler, plan: plan, invariants: invariants)
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
  }

  /// An exhaustive run (`exhaustive: true`) fails for each timer still armed, command still
  /// executing and service call in flight at the run's end (docs/semantics.md, "The run's end").
  func checkNothingPending(_ scenario: Scenario) {
    let plan = scenario.plan
    guard plan.exhaustive, !runtime.isFailed else { return }
    let end = max(plan.until ?? 0, runtime.now)
    for armed in scheduler.armedWork {
      runtime.fail(
        atEnd: end, .armedAtEnd(armed.what, of: armed.owner.name, due: armed.frame, end: end), at: armed.owner.location)
    }
    for name in graph.commands.keys.sorted() {
      guard let command = graph.commands[name], command.runningCount > 0 else { continue }
      runtime.fail(atEnd: end, .executingAtEnd(name, command.runningCount, end: end), at: command.owner.location)
    }
    for name in graph.services.keys.sorted() {
      guard let service = graph.services[name] else { continue }
      for (number, frame) in service.callsInFlight.sorted(by: { $0.key < $1.key }) {
        runtime.fail(
          atEnd: end, .callInFlightAtEnd(name, number + 1, made: frame, end: end), at: service.owner.location)
      }
    }
  }

  /// Each expectation compared with what happened.
  func results(_ scenario: Scenario) -> ([ExpectationResult], RunStats) {
    var results: [ExpectationResult] = []
    var stats = RunStats(frames: runtime.now, rejectedExecutions: runtime.rejectedExecutions)
    for (index, expectation) in scenario.expectations.enumerated() {
      switch (expectation.expected, expectation.source) {
      case (.events(let expected), _):
        var actual = recorders[index]?.tape ?? EventTape()
        if expectation.isCallLog, let window = expectation.window { actual = actual.window(window) }
        stats.events += actual.count
        let cancelled = recorders[index]?.cancelled
        var difference = expected.firstDifference(from: actual)
        if difference == nil, cancelled != expectation.cancel {
          // Where the cancellations part: the first event at or after the earlier one.
          let frame = min(cancelled ?? .max, expectation.cancel ?? .max)
          difference = actual.events.firstIndex { $0.frame >= frame } ?? actual.count
        }
        var result = ExpectationResult(
          spec: expectation, actual: .events(actual), passed: difference == nil, firstDifference: difference)
        result.cancelled = cancelled
        result.pulls = graph.pulls[expectation.target]
        results.append(result)
      case (.subscriptions(let expected, _), .subscriptions(let target)):
        let actual = graph.log(of: target)?.entries ?? []
        stats.subscriptions += actual.count
        let difference = ExpectationResult.compare(expected, actual)
        results.append(
          .init(
            spec: expectation, actual: .subscriptions(actual), passed: difference == nil, firstDifference: difference))
      case (.subscriptions, .signal):
        break
      }
    }
    return (results, stats)
  }

  /// What went wrong during the run, as diagnostics at the frame it happened.
  func diagnostics(_ scenario: Scenario) -> [Diagnostic] {
    runtime.issues.map { issue in
      var diagnostic = scenario.file.diagnostic(
        "frame \(issue.frame): \(issue.message)", at: issue.location ?? scenario.location, severity: issue.severity)
      if issue.location == nil { diagnostic.sourceLine = nil }
      return diagnostic
    }
  }

  /// Ends every subscription the run made. The teardown is not part of the run: nothing of it
  /// is traced.
  func tearDown() {
    runtime.tracer = nil
    scheduler.removeAll()
    for effect in effectsRunning { effect.dispose() }
    for recorder in recorders { recorder?.tearDown() }
    invariants?.tearDown()
    for subscription in subscriptions { subscription.dispose() }
    graph.tearDown()
  }
}

extension Diagnostic.Message {
  fileprivate static func notRunUnder(_ library: Library, fileSays said: String) -> Self {
    "not run under '\(library.rawValue)': the file says 'library: \(said)'"
  }

  fileprivate static func armedAtEnd(_ what: String, of owner: String, due: Int, end: Int) -> Self {
    "exhaustive: the run ended at frame \(end) with \(what) of '\(owner)' still armed (due at frame \(due))"
  }

  fileprivate static func executingAtEnd(_ command: String, _ count: Int, end: Int) -> Self {
    let executions = count == 1 ? "1 execution" : "\(count) executions"
    return "exhaustive: the run ended at frame \(end) with command '\(command)' still executing (\(executions))"
  }

  fileprivate static func callInFlightAtEnd(_ service: String, _ number: Int, made: Int, end: Int) -> Self {
    "exhaustive: the run ended at frame \(end) with call \(number) of service '\(service)' never answered (made at frame \(made))"
  }
}
