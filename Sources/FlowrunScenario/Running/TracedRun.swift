import FlowrunCore

/// A run with its trace: every delivery at every node, in delivery order.
public struct TracedRun: Sendable {
  public let result: ScenarioResult
  public let entries: [TraceEntry]
}

extension ScenarioRunner {
  /// Runs `scenario` with a ``TraceRecorder`` (every step of every chain wrapped) and returns the
  /// result with the recorded trace.
  public static func traced(_ scenario: Scenario) -> TracedRun {
    let recorder = TraceRecorder()
    let result = run(scenario, tracer: recorder)
    return TracedRun(result: result, entries: recorder.entries)
  }
}

extension ScenarioRunner {
  /// Runs `scenario` with code bound into it (as `run(_:boundTo:)`, the model's lane included
  /// when the code fails a bound expectation), tracing the bound run: to draw a code run.
  public static func traced(_ scenario: Scenario, boundTo binding: CodeBinding) -> TracedRun {
    let recorder = TraceRecorder()
    let result = run(scenario, boundTo: binding, tracer: recorder)
    return TracedRun(result: result, entries: recorder.entries)
  }
}
