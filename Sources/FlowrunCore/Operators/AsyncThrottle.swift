/// swift-async-algorithms' `_throttle(for:clock:latest:)` (`AsyncThrottleSequence.swift`,
/// `Iterator.next()`), for a consumer that calls `next()` again as soon as it has a value.
///
/// The throttle has no timer of its own: it is an iterator that pulls its base. The first value
/// is sent at once. A later value is sent at once when at least `d` frames have passed since the
/// last emission; a value that arrives earlier is reduced into the pending one (`latest: true`
/// keeps the newest, `latest: false` the first of the window), and the pending value is sent
/// with the value that arrives once the window has passed. When the base finishes with a
/// pending value, the throttle waits until `d` frames after the last emission, then sends it
/// and finishes; a failure drops the pending value and is sent at once.
///
/// ```
/// source:                       abcdefghijkl|
/// throttle: 3 (latest: true)    a--d--g--j--(l|)
/// throttle: 3 (latest: false)   a--b--e--h--(k|)
/// ```
extension Source {
  public func asyncThrottle(_ timing: Timing, latest: Bool) -> any Source {
    timed(timing) { AsyncThrottleObserver(downstream: $0, timer: $1, latest: latest, runtime: timing.runtime) }
  }
}

private final class AsyncThrottleObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let latest: Bool
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  unowned let runtime: Runtime
  let link = UpstreamLink()
  /// The frame of the last emission (`last`).
  var lastEmission: Int?
  /// The reduction of the values that arrived inside the window (`reduced`).
  var reduced: Value?
  /// The base finished while a value was pending: the timer sends it, then the completion.
  var finishing = false

  init(downstream: any Observer, timer: TimerSlot, latest: Bool, runtime: Runtime) {
    self.downstream = downstream
    self.timer = timer
    self.latest = latest
    self.runtime = runtime
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      let reduction = latest ? value : (reduced ?? value)
      let now = runtime.now
      if let last = lastEmission, now - last < timer.duration {
        reduced = reduction
        return
      }
      reduced = nil
      lastEmission = now
      downstream.receive(.next(reduction))
    case .error:
      reduced = nil
      link.end(with: event, to: downstream)
    case .completed:
      guard reduced != nil, let last = lastEmission else { return link.end(with: event, to: downstream) }
      let remaining = timer.duration - (runtime.now - last)
      guard remaining > 0 else { return flush() }
      link.finish()
      finishing = true
      timer.schedule(after: remaining, target: self)
    }
  }

  private func flush() {
    let value = reduced
    reduced = nil
    finishing = false
    link.finish()
    if let value { downstream.receive(.next(value)) }
    downstream.receive(.completed)
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    guard finishing else { return }
    flush()
  }

  func dispose() {
    timer.cancel()
    reduced = nil
    finishing = false
    link.dispose()
  }
}
