/// Combine's throttle, which differs from RxJS's `throttleTime` (Throttle.swift) in where a window
/// ends and when a value is sent (docs/libraries.md).
///
/// Combine `throttle(for: d, latest:)`: every emission is a scheduler action — at once (after the
/// frame's other deliveries) when no value was sent in the last `d` frames, else at the window's
/// end; while one is scheduled, later values replace it (`latest`) or are dropped. A completion or
/// failure follows the scheduled value, or is itself scheduled at once.
extension Source {
  public func combineThrottle(_ timing: Timing, latest: Bool) -> any Source {
    timed(timing) { CombineThrottleObserver(downstream: $0, timer: $1, latest: latest, runtime: timing.runtime) }
  }
}

private final class CombineThrottleObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let latest: Bool
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  unowned let runtime: Runtime
  let link = UpstreamLink()
  var lastEmission: Int?
  var pendingValue: Value?
  var pendingEnd: Event?
  var isDone = false

  init(downstream: any Observer, timer: TimerSlot, latest: Bool, runtime: Runtime) {
    self.downstream = downstream
    self.timer = timer
    self.latest = latest
    self.runtime = runtime
  }

  var hasScheduledOutput: Bool { pendingValue != nil || pendingEnd != nil }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal {
      link.finish()
      if !hasScheduledOutput {
        pendingEnd = event
        timer.schedule(after: 0, target: self)
      } else if pendingEnd == nil {
        pendingEnd = event
      }
      return
    }
    guard case .next(let value) = event else { return }
    if hasScheduledOutput {
      if latest { pendingValue = value }
      return
    }
    let now = runtime.now
    let emission = lastEmission.map { max(now, $0 + timer.duration) } ?? now
    pendingValue = value
    timer.schedule(after: emission - now, target: self)
  }

  func timerFired(_ argument: Int) {
    guard !isDone else { return }
    if pendingValue != nil, pendingEnd == nil { lastEmission = runtime.now }
    let value = pendingValue
    let end = pendingEnd
    pendingValue = nil
    pendingEnd = nil
    if end != nil { isDone = true }
    if let value { downstream.receive(.next(value)) }
    if let end { downstream.receive(end) }
  }

  func dispose() {
    isDone = true
    timer.cancel()
    pendingValue = nil
    pendingEnd = nil
    link.dispose()
  }
}
