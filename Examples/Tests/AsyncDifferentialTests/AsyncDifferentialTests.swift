import FlowrunCore
import FlowrunScenario
import Foundation
import Testing

/// flowrun's `library: async` checked against the real swift-async-algorithms 1.1.4 and the
/// standard library's `AsyncSequence` operators (docs/libraries.md, "The differential"): random
/// graphs (``Graph``), each run by flowrun's model and by the real operators on the
/// deterministic async runtime (``RealPipeline``); their events must be the same, except for
/// graphs of a documented difference (``Difference``), counted apart.
@Suite struct AsyncDifferentialTests {
  /// How many graphs `swift test` runs (seeds 1…1,250); `FLOWRUN_ASYNC_DIFF_COUNT` and
  /// `FLOWRUN_ASYNC_DIFF_FIRST` run others by hand, `FLOWRUN_ASYNC_DIFF_SUMMARY` names a file
  /// that receives the counts and `FLOWRUN_ASYNC_DIFF_REPORTS` one that receives the report of
  /// every documented difference (its seed, both sides' events, its scenario).
  static let count = environment("FLOWRUN_ASYNC_DIFF_COUNT").flatMap { Int($0) } ?? 1_250
  static let first = environment("FLOWRUN_ASYNC_DIFF_FIRST").flatMap { UInt64($0) } ?? 1

  static func environment(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }

  @Test func flowrunAgreesWithTheRealPackage() throws {
    let counts = try Self.check(seeds: Self.first..<Self.first + UInt64(Self.count), extended: false)
    if Self.count == 1_250, Self.first == 1 {
      #expect(counts.agreeing >= 1_000, "\(counts.agreeing) agree; documented: \(counts.documented)")
    }
    try Self.write(counts, summary: "FLOWRUN_ASYNC_DIFF_SUMMARY", reports: "FLOWRUN_ASYNC_DIFF_REPORTS")
  }

  /// How many graphs of the extended mix (``Graph/extended(seed:)``: `flatMap`,
  /// `flatMapLatest`, `interval`, same-frame inputs) `swift test` runs;
  /// `FLOWRUN_ASYNC_DIFF_EXTENDED_COUNT` runs another number by hand.
  static let extendedCount = environment("FLOWRUN_ASYNC_DIFF_EXTENDED_COUNT").flatMap { Int($0) } ?? 400

  @Test func flowrunAgreesOnTheExtendedMix() throws {
    let counts = try Self.check(seeds: 1..<1 + UInt64(Self.extendedCount), extended: true)
    if Self.extendedCount == 400 {
      #expect(counts.agreeing >= 200, "\(counts.agreeing) agree; documented: \(counts.documented)")
    }
    try Self.write(
      counts, summary: "FLOWRUN_ASYNC_DIFF_EXTENDED_SUMMARY", reports: "FLOWRUN_ASYNC_DIFF_EXTENDED_REPORTS")
  }

  /// What a run of seeds found: the agreeing graphs and the documented differences.
  struct Counts {
    var graphs = 0
    var agreeing = 0
    var documented: [Difference: Int] = [:]
    var examples: [Difference: UInt64] = [:]
    var reports: [String] = []
  }

  /// Runs the graphs of `seeds` on both sides; an unexplained disagreement is an issue.
  static func check(seeds: Range<UInt64>, extended: Bool) throws -> Counts {
    var counts = Counts()
    for seed in seeds {
      counts.graphs += 1
      let outcome = try Differential.run(seed: seed, extended: extended)
      // The runtime is deterministic: the real pipeline gives the same events when run again.
      let again = try RealPipeline.run(outcome.graph, events: outcome.inputs, tick: outcome.tick)
      #expect(again == outcome.real, "seed \(seed): a second run of the package differs\n\(outcome.report)")
      if outcome.model == outcome.real {
        counts.agreeing += 1
      } else if let difference = Difference(outcome) {
        counts.documented[difference, default: 0] += 1
        if counts.examples[difference] == nil { counts.examples[difference] = seed }
        counts.reports.append("\(difference.rawValue): \(outcome.report)")
      } else {
        Issue.record(Comment(rawValue: outcome.report))
      }
    }
    return counts
  }

  /// Writes the counts and the reports to the files the environment variables name.
  static func write(_ counts: Counts, summary: String, reports: String) throws {
    if let path = environment(summary) {
      let kinds = counts.documented.sorted { $0.key.rawValue < $1.key.rawValue }.map {
        "\($0.key.rawValue) \($0.value) (first: seed \(counts.examples[$0.key] ?? 0))"
      }
      let text = "\(counts.graphs) graphs, \(counts.agreeing) agreeing, documented: \(kinds.joined(separator: ", "))\n"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
    if let path = environment(reports) {
      try counts.reports.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
  }
}

extension AsyncDifferentialTests {
  /// Seed 311 (`merge` under `chunks` and `chunks(ofCount:or:)`, whose timer is merged with
  /// its base) blocked the run's thread for ever on `merge`'s lock while the runtime let
  /// another job run before a task that had suspended, holding the lock, to hop to the generic
  /// executor (docs/testing-real-code.md, "How it is deterministic"). It runs to its end, on a
  /// thread of its own so that a regression fails here instead of hanging the suite.
  @Test func mergeHoldingItsLockAcrossAHopDoesNotBlockTheRun() {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      _ = try? Differential.run(seed: 311)
      done.signal()
    }
    thread.start()
    #expect(done.wait(timeout: .now() + 120) == .success, "seed 311 did not end within 120 s")
  }

  /// Every documented difference has its row in docs/libraries.md.
  @Test func everyDifferenceIsDocumented() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../../docs/libraries.md"
    ).standardizedFileURL
    let text = try String(contentsOf: docs, encoding: .utf8)
    for difference in Difference.allCases {
      #expect(text.contains("(`\(difference.rawValue)`) |"), "docs/libraries.md has no row '\(difference.rawValue)'")
    }
  }
}

/// A difference between flowrun and the package that docs/libraries.md explains ("The
/// differential"), recognised by the graph's shape.
enum Difference: String, Sendable, Hashable, CaseIterable {
  /// A clock-driven step (`debounce`, `chunks`/`chunked` with `every`) whose deadline falls at
  /// the frame of a delivery: the package's order is that of its task hops.
  case deadlineAtADelivery = "async-diff-deadline-at-a-delivery"
  /// Values that arrive in one frame without a suspension between them — a group of one input,
  /// or what `chain`'s second input kept, handed over when `chain` reaches it — meet a
  /// `buffer(policy:)` that drops: the buffer's task fills its buffer before the consumer's task
  /// takes the next value; flowrun's consumer takes each one first.
  case burstThroughABuffer = "async-diff-burst-through-a-buffer"
  /// Two inputs send in the same frame: flowrun delivers them in file order, each to its end;
  /// the package's order is that of its task hops (a base's failure reaches `merge`'s or
  /// `combineLatest`'s task one hop after a value).
  case sameFrameInputs = "async-diff-same-frame-inputs"

  /// The difference that explains `outcome`'s disagreement: recognised by the graph's shape and
  /// by the frame of the first differing event (the earlier of the two sides' events there).
  init?(_ outcome: Outcome) {
    let graph = outcome.graph
    let index = zip(outcome.model, outcome.real).prefix { $0 == $1 }.count
    let differing = [outcome.model, outcome.real].compactMap { index < $0.count ? $0[index].frame : nil }
    guard let frame = differing.min() else { return nil }
    let senders = outcome.inputs.filter { $0.contains { $0.frame == frame } }.count
    if graph.steps.contains(where: \.dropsFromABurst) {
      // The frame `chain` reaches its second input (the first input's end), or a frame where
      // one input sends more than one event.
      let reached = graph.source == .chain(2) && outcome.inputs[0].last(where: \.event.isTerminal)?.frame == frame
      if reached || outcome.inputs.contains(where: { $0.filter { $0.frame == frame }.count > 1 }) {
        self = .burstThroughABuffer
        return
      }
    }
    // A deadline at the frame of a delivery. Recognised by the shape alone: the race's effect
    // may show frames later (a value sent early is paired by `adjacentPairs` at the next one).
    if graph.steps.contains(where: \.isClockDriven) || graph.source.isClockDriven {
      self = .deadlineAtADelivery
      return
    }
    guard senders > 1 else { return nil }
    self = .sameFrameInputs
  }
}

extension Graph.Source {
  /// Whether the source sleeps on the clock (`interval`).
  var isClockDriven: Bool {
    if case .interval = self { return true }
    return false
  }
}

extension Graph.Step {
  /// Whether the step is a `buffer(policy:)` that drops values when full.
  var dropsFromABurst: Bool {
    switch self {
    case .buffer(.bufferingOldest), .buffer(.bufferingNewest): true
    default: false
    }
  }

  /// Whether the step sleeps on the clock (`_throttle` only reads it; a `flatMap`'s cold inner
  /// sequence sleeps until each of its frames).
  var isClockDriven: Bool {
    switch self {
    case .debounce, .chunksOrEvery, .chunkedEvery, .flatMap: true
    default: false
    }
  }
}

/// One graph run on both sides.
struct Outcome {
  var seed: UInt64
  var graph: Graph
  var text: String
  var inputs: [[Recorded]]
  var tick: Int64
  var model: [Recorded]
  var real: [Recorded]

  var report: String {
    """
    seed \(seed): flowrun and the package disagree
    flowrun: \(Differential.describe(model))
    package: \(Differential.describe(real))
    \(text)
    """
  }
}

enum Differential {
  struct ModelError: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs the graph of `seed` on both sides.
  static func run(seed: UInt64, extended: Bool = false) throws -> Outcome {
    let graph = extended ? Graph.extended(seed: seed) : Graph.random(seed: seed)
    let text = graph.scenarioText(seed: seed)
    let loaded = ScenarioLoader.load(path: "async-differential-\(seed).yaml", bytes: Array(text.utf8))
    guard let scenario = loaded.scenarios.first, loaded.diagnostics.allSatisfy({ $0.severity != .error }) else {
      throw ModelError(description: "seed \(seed) does not load:\n\(loaded.diagnostics.map(\.rendered))\n\(text)")
    }
    let result = ScenarioRunner.run(scenario)
    var tapes: [String: [Recorded]] = [:]
    for expectation in result.expectations {
      if case .events(let tape) = expectation.actual { tapes[expectation.spec.target] = tape.events }
    }
    guard let model = tapes["out"] else {
      throw ModelError(
        description: "seed \(seed): no events for 'out' (\(result.diagnostics.map(\.rendered)))\n\(text)")
    }
    let inputs = graph.inputs.indices.map { tapes["i\($0)"] ?? [] }
    let tick = Int64(scenario.tick.nanoseconds)
    let real = try RealPipeline.run(graph, events: inputs, tick: tick)
    return Outcome(seed: seed, graph: graph, text: text, inputs: inputs, tick: tick, model: model, real: real)
  }

  static func describe(_ events: [Recorded]) -> String {
    events.map { recorded in
      switch recorded.event {
      case .next(let value): "\(recorded.frame):\(value)"
      case .completed: "\(recorded.frame):|"
      case .error(let value): "\(recorded.frame):#\(value)"
      }
    }.joined(separator: " ")
  }
}
