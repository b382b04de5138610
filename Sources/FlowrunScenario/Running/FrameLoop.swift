import FlowrunCore

extension ScenarioRunner {
  /// Runs the scheduler; with invariants, frame by frame, checking them after each frame in
  /// which anything happened (frame 0, where the setup happens, always).
  static func runScheduler(
    _ scheduler: VirtualTimeScheduler, plan: ScenarioPlan, invariants: InvariantMonitor?
  ) -> VirtualTimeScheduler.Outcome {
    let limits = plan.limits
    guard let invariants else {
      return scheduler.run(until: plan.until, timeLimit: limits.time, stepLimit: limits.steps)
    }
    var checkedFrameZero = false
    while true {
      guard let next = scheduler.nextFrame else {
        if !checkedFrameZero { invariants.check(frame: 0) }
        return .idle
      }
      if !checkedFrameZero, next > 0 {
        invariants.check(frame: 0)
        checkedFrameZero = true
      }
      if let until = plan.until, next > until { return .reachedEnd }
      let outcome = scheduler.run(until: next, timeLimit: limits.time, stepLimit: limits.steps)
      switch outcome {
      case .reachedEnd, .idle:
        invariants.check(frame: next)
        checkedFrameZero = true
        if outcome == .idle { return .idle }
      case .timeLimit, .stepLimit, .stopped:
        return outcome
      }
    }
  }
}
