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
  /// `FLOWRUN_ASYNC_DIFF_FIRST` run others by hand, and `FLOWRUN_ASYNC_DIFF_SUMMARY` names a file
  /// that receives the counts.
  static let count = environment("FLOWRUN_ASYNC_DIFF_COUNT").flatMap { Int($0) } ?? 1_250
  static let first = environment("FLOWRUN_ASYNC_DIFF_FIRST").flatMap { UInt64($0) } ?? 1

  static func environment(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }

  @Test func flowrunAgreesWithTheRealPackage() throws {
    var agreeing = 0
    var documented: [Difference: Int] = [:]
    var examples: [Difference: UInt64] = [:]
    for seed in Self.first..<Self.first + UInt64(Self.count) {
      let outcome = try Differential.run(seed: seed)
      // The runtime is deterministic: the real pipeline gives the same events when run again.
      let again = try RealPipeline.run(outcome.graph, events: outcome.inputs, tick: outcome.tick)
      #expect(again == outcome.real, "seed \(seed): a second run of the package differs\n\(outcome.report)")
      if outcome.model == outcome.real {
        agreeing += 1
      } else if let difference = Difference(outcome) {
        documented[difference, default: 0] += 1
        if examples[difference] == nil { examples[difference] = seed }
      } else {
        Issue.record(Comment(rawValue: outcome.report))
      }
    }
    if Self.count == 1_250, Self.first == 1 {
      #expect(agreeing >= 1_000, "\(agreeing) agree; documented: \(documented)")
    }
    if let path = Self.environment("FLOWRUN_ASYNC_DIFF_SUMMARY") {
      let kinds = documented.sorted { $0.key.rawValue < $1.key.rawValue }.map {
        "\($0.key.rawValue) \($0.value) (first: seed \(examples[$0.key] ?? 0))"
      }
      let summary = "\(Self.count) graphs, \(agreeing) agreeing, documented: \(kinds.joined(separator: ", "))\n"
      try summary.write(toFile: path, atomically: true, encoding: .utf8)
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
  /// The package's `zip` asks a base for its next element only when it needs one: a base's end
  /// or failure behind values it holds is seen later, or never; flowrun's zip ends at once.
  case zipPullsLazily = "async-diff-zip-pulls-lazily"
  /// `chain`'s second input is an `AsyncStream` that keeps what it was sent before `chain`
  /// reaches it (values, its end); flowrun's hot marble is not subscribed until then and loses
  /// them.
  case chainKeepsLaterValues = "async-diff-chain-keeps-later-values"
  /// A clock-driven step (`debounce`, `chunks`/`chunked` with `every`) whose deadline falls at
  /// the frame of a delivery: the package's order is that of its task hops.
  case deadlineAtADelivery = "async-diff-deadline-at-a-delivery"

  /// The difference that explains `outcome`'s disagreement: recognised by the graph's shape and
  /// by the frame of the first differing event (the earlier of the two sides' events there).
  init?(_ outcome: Outcome) {
    let graph = outcome.graph
    let index = zip(outcome.model, outcome.real).prefix { $0 == $1 }.count
    let differing = [outcome.model, outcome.real].compactMap { index < $0.count ? $0[index].frame : nil }
    guard let frame = differing.min() else { return nil }
    let ends = outcome.inputs.compactMap { $0.last(where: \.event.isTerminal)?.frame }
    switch graph.source {
    case .zip where ends.contains { $0 <= frame }:
      self = .zipPullsLazily
      return
    case .chain:
      // An event of the second input (a value, its end) before the first one's end, which
      // flowrun's hot marble lost.
      if let end = outcome.inputs[0].last(where: \.event.isTerminal)?.frame, frame >= end,
        outcome.inputs[1].contains(where: { $0.frame < end })
      {
        self = .chainKeepsLaterValues
        return
      }
    default: break
    }
    // A deadline at the frame of a delivery. Recognised by the shape alone: the race's effect
    // may show frames later (a value sent early is paired by `adjacentPairs` at the next one).
    if graph.steps.contains(where: \.isClockDriven) {
      self = .deadlineAtADelivery
      return
    }
    return nil
  }
}

extension Graph.Step {
  /// Whether the step sleeps on the clock (`_throttle` only reads it).
  var isClockDriven: Bool {
    switch self {
    case .debounce, .chunksOrEvery, .chunkedEvery: true
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
  static func run(seed: UInt64) throws -> Outcome {
    let graph = Graph.random(seed: seed)
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
