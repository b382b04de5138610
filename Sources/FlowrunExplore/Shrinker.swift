import FlowrunScenario

/// Shrinks a failing sample: fewer events, earlier frames, shorter delays, simpler values,
/// shorter runs, until no smaller sample fails the same way.
///
/// Greedy and deterministic: the candidates of the current sample are tried in a fixed order
/// (removals first, then moves, then simpler values), and the first that still fails becomes
/// the current sample; it stops when none does.
struct Shrinker {
  let scenario: Scenario
  let spec: ExploreSpec
  let failure: ExploreFailure
  /// Runs made so far.
  private(set) var runs = 0
  /// The most runs one shrinking may make.
  static let maxRuns = 10_000

  init(scenario: Scenario, spec: ExploreSpec, failure: ExploreFailure) {
    self.scenario = scenario
    self.spec = spec
    self.failure = failure
  }

  struct Shrunk {
    var sample: Sample
    var frame: Int
    var result: ScenarioResult
    var steps: Int
  }

  /// Shrinks `sample`, which failed at `frame` with `result`; every attempt is run by `run`.
  mutating func shrink(_ sample: Sample, frame: Int, result: ScenarioResult, run: VariantRunner) -> Shrunk {
    var best = Shrunk(sample: sample, frame: frame, result: result, steps: 0)
    // A run that ends at the failing frame fails the same way: nothing after it counts.
    var shorter = sample
    shorter.until = min(sample.until, frame)
    if shorter != sample, let (result, frame) = attempt(shorter, run: run) {
      best = Shrunk(sample: shorter, frame: frame, result: result, steps: 1)
    }
    search: while runs < Self.maxRuns {
      for candidate in candidates(of: best.sample) where candidate != best.sample {
        guard runs < Self.maxRuns else { break search }
        guard let (result, frame) = attempt(candidate, run: run) else { continue }
        var accepted = candidate
        accepted.until = min(accepted.until, frame)
        best = Shrunk(sample: accepted, frame: frame, result: result, steps: best.steps + 1)
        continue search
      }
      break
    }
    // The reported run is the one of the final sample (its `until` may have been lowered).
    if let (result, frame) = attempt(best.sample, run: run) {
      best.result = result
      best.frame = frame
    }
    return best
  }

  /// The run of `sample` when it fails the same way.
  private mutating func attempt(_ sample: Sample, run: VariantRunner) -> (ScenarioResult, Int)? {
    runs += 1
    let result = run(scenario.with(sample.variant(of: spec)), nil)
    guard let failed = Explorer.failure(of: result), failed.failure == failure else { return nil }
    return (result, failed.frame)
  }

  /// Smaller samples, most promising first.
  private func candidates(of sample: Sample) -> [Sample] {
    var result: [Sample] = []
    func with(_ change: (inout Sample) -> Void) {
      var copy = sample
      change(&copy)
      for index in copy.inputs.indices { copy.inputs[index].events.sortByFrame() }
      result.append(copy)
    }
    let inputs = sample.inputs.indices
    // Fewer events: a whole input, then one event at a time, then ends and answers.
    for i in inputs where !sample.inputs[i].events.isEmpty || sample.inputs[i].end != nil {
      with {
        $0.inputs[i].events = []
        $0.inputs[i].end = nil
      }
    }
    for i in inputs {
      for j in sample.inputs[i].events.indices.reversed() { with { $0.inputs[i].events.remove(at: j) } }
      if sample.inputs[i].end != nil { with { $0.inputs[i].end = nil } }
      if sample.inputs[i].answers.count > 1 { with { $0.inputs[i].answers.removeLast() } }
    }
    // Earlier frames: the whole timeline at once (events that must stay apart move together),
    // then each event and end, and shorter delays.
    let first = sample.inputs.flatMap { $0.events.map(\.frame) + ($0.end.map { [$0.frame] } ?? []) }.min() ?? 0
    for shift in Self.smaller(first, floor: 0).map({ first - $0 }) {
      with { sample in
        for i in inputs {
          for j in sample.inputs[i].events.indices { sample.inputs[i].events[j].frame -= shift }
          if sample.inputs[i].end != nil { sample.inputs[i].end!.frame -= shift }
        }
      }
    }
    for i in inputs {
      for (j, event) in sample.inputs[i].events.enumerated() {
        for frame in Self.smaller(event.frame, floor: 0) { with { $0.inputs[i].events[j].frame = frame } }
      }
      if let end = sample.inputs[i].end {
        let floor = sample.inputs[i].events.last?.frame ?? 0
        for frame in Self.smaller(end.frame, floor: floor) { with { $0.inputs[i].end?.frame = frame } }
      }
      let lowest = spec.inputs[i].delay.lowerBound
      for (j, answer) in sample.inputs[i].answers.enumerated() {
        for delay in Self.smaller(answer.delay, floor: lowest) { with { $0.inputs[i].answers[j].delay = delay } }
      }
    }
    // Simpler values: earlier in their pool.
    for i in inputs {
      for (j, event) in sample.inputs[i].events.enumerated() {
        for value in Self.smaller(event.value, floor: 0) { with { $0.inputs[i].events[j].value = value } }
      }
      for (j, answer) in sample.inputs[i].answers.enumerated() {
        for value in Self.smaller(answer.value, floor: 0) { with { $0.inputs[i].answers[j].value = value } }
      }
      if let end = sample.inputs[i].end, end.kind == .error, spec.inputs[i].ends.contains(.completed) {
        with { $0.inputs[i].end?.kind = .completed }
      }
    }
    return result
  }

  /// The smaller numbers to try instead of `value`: the floor, half way, one less.
  private static func smaller(_ value: Int, floor: Int) -> [Int] {
    guard value > floor else { return [] }
    var numbers = [floor]
    let half = floor + (value - floor) / 2
    if half > floor { numbers.append(half) }
    if value - 1 > half { numbers.append(value - 1) }
    return numbers
  }
}
