/// RxSwift's throttle, which differs from RxJS's `throttleTime` (Throttle.swift) in where a window
/// ends and when a value is sent (docs/libraries.md).
///
/// RxSwift `throttle(d, latest:)`: a value is sent at once when no value was sent in the last
/// `d` frames — the window's end is inclusive; inside the window, with `latest`, the last value
/// is sent when the window ends (and a value arriving exactly then is sent at once; a value after
/// it starts a new window, whose timer replaces the old one). A completion waits for that value;
/// an error goes at once.
///
/// ```
/// source:                 a-b--c-d--|
/// throttle: 3 (rxswift)   a--b-c--d-|
/// ```
extension Source {
  public func rxSwiftThrottle(_ timing: Timing, latest: Bool) -> any Source {
    timed(timing) { RxSwiftThrottleObserver(downstream: $0, timer: $1, latest: latest, runtime: timing.runtime) }
  }
}

private final class RxSwiftThrottleObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let latest: Bool
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  unowned let runtime: Runtime
  let link = UpstreamLink()
  var lastSent: Int?
  var unsent: Value?
  var completed = false

  init(downstream: any Observer, timer: TimerSlot, latest: Bool, runtime: Runtime) {
    self.downstream = downstream
    self.timer = timer
    self.latest = latest
    self.runtime = runtime
  }

  func receive(_ event: Event) {
    guard !link.isFinished, !completed else { return }
    switch event {
    case .next(let value):
      let now = runtime.now
      let remaining = lastSent.map { timer.duration - (now - $0) } ?? 0
      guard remaining > 0 else { return send(value) }
      guard latest else { return }
      let inFlight = unsent != nil
      unsent = value
      guard !inFlight else { return }
      // `cancellable.disposable = d` (a SerialDisposable): a new window's timer disposes the
      // timer of a window whose trailing value was already sent at once.
      timer.cancel()
      timer.schedule(after: remaining, target: self)
    case .error:
      unsent = nil
      timer.cancel()
      link.end(with: event, to: downstream)
    case .completed:
      if unsent != nil {
        completed = true
      } else {
        timer.cancel()
        link.end(with: event, to: downstream)
      }
    }
  }

  private func send(_ value: Value) {
    unsent = nil
    downstream.receive(.next(value))
    lastSent = runtime.now
  }

  func timerFired(_ argument: Int) {
    guard !link.isFinished else { return }
    if let value = unsent { send(value) }
    if completed, !link.isFinished {
      timer.cancel()
      link.end(with: .completed, to: downstream)
    }
  }

  func dispose() {
    timer.cancel()
    unsent = nil
    link.dispose()
  }
}
