public import FlowrunCore
public import FlowrunScenario

/// What `flowrun explore` was asked for, for one scenario.
public struct ExploreOptions: Sendable, Equatable {
  /// Generated runs per scenario (and at most this many same-frame orders).
  public var runs = 1_000
  public var seed: UInt64 = 0
  /// Also explore the orders of the inputs due in the same frame (`--orders`).
  public var orders = false

  public init(runs: Int = 1_000, seed: UInt64 = 0, orders: Bool = false) {
    self.runs = runs
    self.seed = seed
    self.orders = orders
  }
}

/// What failed in a run: an invariant (by its index in the scenario), or the run itself (a
/// run-time error: a binding that received an error, a failing effect, a limit).
public enum ExploreFailure: Hashable, Sendable {
  case invariant(Int)
  case runError
}

/// A same-frame order in which an invariant fails: at `frame`, the inputs due ran as
/// `failing` instead of `written` (each named by its node and line).
public struct OrderChoice: Sendable, Equatable {
  public let frame: Int
  public let written: [String]
  public let failing: [String]
}

/// A run in which the scenario failed, shrunk when it was generated.
public struct Counterexample: Sendable {
  /// Where the failing run came from.
  public enum Origin: Sendable, Equatable {
    /// The scenario as written fails (`flowrun run` fails too).
    case written
    /// The `run`-th generated run (from 1).
    case generated(run: Int)
    /// The written timeline in another same-frame order (`--orders`).
    case order([OrderChoice])
  }

  public let origin: Origin
  public let failure: ExploreFailure
  /// The frame at which it failed.
  public let frame: Int
  /// The run of the counterexample as reported (the shrunk one for a generated run).
  public let result: ScenarioResult
  /// The generated inputs (nil for the written timeline and for orders).
  public let variant: ScenarioVariant?
  /// Successful shrinking steps, and the events, ends and answers before and after them.
  public let shrinkSteps: Int
  public let sizeBefore: Int
  public let sizeAfter: Int
  let sample: Sample?
}

/// The generated inputs of a counterexample as lanes: a hot marble's events, a timeline
/// input's actions (each carrying its value), and each service's answers call by call.
package struct CounterexampleInputs {
  /// A hot marble or timeline input, with its events at absolute frames.
  package struct Lane {
    package var input: ExploreSpec.Input
    package var events: [Recorded]
  }

  /// A service and its answers, each counted from its call.
  package struct Answers {
    package var input: ExploreSpec.Input
    package var answers: [[Recorded]]
  }

  package var lanes: [Lane] = []
  package var answers: [Answers] = []

  package init(_ counterexample: Counterexample, spec: ExploreSpec?) {
    guard let sample = counterexample.sample, let spec else { return }
    for (input, drawn) in zip(spec.inputs, sample.inputs) {
      if input.kind == .service {
        answers.append(Answers(input: input, answers: drawn.answers.map { Sample.answer($0, of: input) }))
      } else {
        lanes.append(Lane(input: input, events: Sample.events(drawn, of: input)))
      }
    }
  }
}

/// What exploring one scenario found.
public struct Exploration: Sendable {
  public let scenario: Scenario
  /// Generated runs made (the first failing one included).
  public let runs: Int
  /// Same-frame orders tried (`--orders`).
  public let orderRuns: Int
  /// Runs made while shrinking.
  public let shrinkRuns: Int
  public let counterexample: Counterexample?
  /// True when there was nothing to explore: no `explore:` and no `--orders`.
  public let skipped: Bool
}

/// Runs one variant of a scenario (a generated timeline, or the written one in a same-frame
/// order given by the tie-breaker): the declared graph by default (`ScenarioRunner.run`), or
/// the graph with code bound into it (`FlowrunTesting`'s `ScenarioCheck.explore`).
public typealias VariantRunner = (_ variant: Scenario, _ order: (any TieBreaker)?) -> ScenarioResult

/// Explores scenarios: generated inputs, shrinking, same-frame orders.
public enum Explorer {
  /// Explores `scenario`: its written timeline, with `--orders` that timeline's same-frame
  /// orders, then `options.runs` generated runs; stops at the first failure and shrinks it.
  /// Every run, shrinking's included, is made by `run` (the declared graph by default).
  public static func explore(
    _ scenario: Scenario, options: ExploreOptions,
    run: VariantRunner = { ScenarioRunner.run($0, order: $1) }
  ) -> Exploration {
    let spec = scenario.explore
    guard spec != nil || options.orders else {
      return Exploration(scenario: scenario, runs: 0, orderRuns: 0, shrinkRuns: 0, counterexample: nil, skipped: true)
    }
    let written = scenario.with(ScenarioVariant())
    let first = run(written, nil)
    if let failed = failure(of: first) {
      let counterexample = Counterexample(
        origin: .written, failure: failed.failure, frame: failed.frame, result: first, variant: nil, shrinkSteps: 0,
        sizeBefore: 0, sizeAfter: 0, sample: nil)
      return Exploration(
        scenario: scenario, runs: 0, orderRuns: 0, shrinkRuns: 0, counterexample: counterexample, skipped: false)
    }
    var orderRuns = 0
    if options.orders {
      let (found, count) = exploreOrders(written, limit: options.runs, run: run)
      orderRuns = count
      if let found {
        return Exploration(
          scenario: scenario, runs: 0, orderRuns: orderRuns, shrinkRuns: 0, counterexample: found, skipped: false)
      }
    }
    guard let spec else {
      return Exploration(
        scenario: scenario, runs: 0, orderRuns: orderRuns, shrinkRuns: 0, counterexample: nil, skipped: false)
    }
    for number in stride(from: 1, through: options.runs, by: 1) {
      var random = RandomSource(seed: options.seed, run: number)
      let sample = Sample(spec: spec, random: &random)
      let result = run(scenario.with(sample.variant(of: spec)), nil)
      guard let failed = failure(of: result) else { continue }
      var shrinker = Shrinker(scenario: scenario, spec: spec, failure: failed.failure)
      let shrunk = shrinker.shrink(sample, frame: failed.frame, result: result, run: run)
      let counterexample = Counterexample(
        origin: .generated(run: number), failure: failed.failure, frame: shrunk.frame, result: shrunk.result,
        variant: shrunk.sample.variant(of: spec), shrinkSteps: shrunk.steps, sizeBefore: sample.size,
        sizeAfter: shrunk.sample.size, sample: shrunk.sample)
      return Exploration(
        scenario: scenario, runs: number, orderRuns: orderRuns, shrinkRuns: shrinker.runs,
        counterexample: counterexample,
        skipped: false)
    }
    return Exploration(
      scenario: scenario, runs: options.runs, orderRuns: orderRuns, shrinkRuns: 0, counterexample: nil, skipped: false)
  }

  /// The first failure of a run: the invariant that failed first (the earliest frame, then
  /// file order), else a run-time error.
  public static func failure(of result: ScenarioResult) -> (failure: ExploreFailure, frame: Int)? {
    var first: (failure: ExploreFailure, frame: Int)?
    for (index, invariant) in result.invariants.enumerated() {
      guard let violation = invariant.violation else { continue }
      if first == nil || violation.frame < first!.frame { first = (.invariant(index), violation.frame) }
    }
    if first == nil, result.status == .error { first = (.runError, result.stats.frames) }
    return first
  }

  /// Tries the same-frame orders of the written run, depth first, up to `limit` runs.
  private static func exploreOrders(
    _ written: Scenario, limit: Int, run: VariantRunner
  ) -> (Counterexample?, Int) {
    var script: [Int] = []
    var runs = 0
    while runs < limit {
      let chooser = OrderScript(script: script)
      let result = run(written, chooser)
      runs += 1
      if let failed = failure(of: result) {
        let counterexample = Counterexample(
          origin: .order(chooser.choices), failure: failed.failure, frame: failed.frame, result: result, variant: nil,
          shrinkSteps: 0, sizeBefore: 0, sizeAfter: 0, sample: nil)
        return (counterexample, runs)
      }
      guard let next = chooser.nextScript() else { break }
      script = next
    }
    return (nil, runs)
  }
}
