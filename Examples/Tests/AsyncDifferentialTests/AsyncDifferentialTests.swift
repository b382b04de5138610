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
  /// How many graphs `swift test` runs; `FLOWRUN_ASYNC_DIFF_COUNT` runs more by hand.
  static let count = ProcessInfo.processInfo.environment["FLOWRUN_ASYNC_DIFF_COUNT"].flatMap { Int($0) } ?? 1_000
  /// The first seed (`FLOWRUN_ASYNC_DIFF_FIRST`, default 1).
  static let first = ProcessInfo.processInfo.environment["FLOWRUN_ASYNC_DIFF_FIRST"].flatMap { UInt64($0) } ?? 1

  @Test func flowrunAgreesWithTheRealPackage() throws {
    var agreeing = 0
    var documented: [Difference: Int] = [:]
    for seed in Self.first..<Self.first + UInt64(Self.count) {
      if ProcessInfo.processInfo.environment["FLOWRUN_ASYNC_DIFF_TRACE"] != nil { FileHandle.standardError.write(Data("seed \(seed)\n\(Graph.random(seed: seed).scenarioText(seed: seed))".utf8)) }
      let outcome = try Differential.run(seed: seed)
      if outcome.model == outcome.real {
        agreeing += 1
      } else if let difference = outcome.difference {
        documented[difference, default: 0] += 1
      } else {
        Issue.record(Comment(rawValue: outcome.report))
      }
    }
    #expect(agreeing >= Self.count * 9 / 10, "\(agreeing) of \(Self.count) agree; documented: \(documented)")
    if let path = ProcessInfo.processInfo.environment["FLOWRUN_ASYNC_DIFF_SUMMARY"] {
      let summary = "\(Self.count) graphs, \(agreeing) agreeing, documented: \(documented.sorted { $0.key.rawValue < $1.key.rawValue })\n"
      try summary.write(toFile: path, atomically: true, encoding: .utf8)
    }
  }
}

/// A difference between flowrun and the package that docs/libraries.md explains.
enum Difference: String, Sendable, Hashable {
  case none
}

/// One graph run on both sides.
struct Outcome {
  var seed: UInt64
  var graph: Graph
  var text: String
  var model: [Recorded]
  var real: [Recorded]

  /// The documented difference that explains the disagreement, if any.
  var difference: Difference? { nil }

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
      throw ModelError(description: "seed \(seed): no events for 'out' (\(result.diagnostics.map(\.rendered)))\n\(text)")
    }
    let inputs = graph.inputs.indices.map { tapes["i\($0)"] ?? [] }
    let real = try RealPipeline.run(graph, events: inputs, tick: Int64(scenario.tick.nanoseconds))
    return Outcome(seed: seed, graph: graph, text: text, model: model, real: real)
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
