/// swift-async-algorithms' `_throttle(for:clock:latest:)` (`AsyncThrottleSequence.swift`,
/// `Iterator.next()`): an iterator that pulls its base only while its own consumer waits in
/// `next()`.
///
/// The throttle has no timer of its own. Each `next()` starts from the last emission (`start =
/// last`) and pulls base values, reducing them (`latest: true` keeps the newest, `latest:
/// false` the first), until one is pulled at least `d` frames after that start (or it is the
/// very first value): that reduction is sent. When the base finishes with a pending reduction,
/// the throttle waits until `d` frames after the last emission, then sends it; the next pull
/// gets the end. A failure drops the pending value and is sent at once.
///
/// A consumer that pulls at once keeps the throttle pulling, so each value is reduced when it
/// arrives. A slow consumer (`DemandingObserver`, `consumer: { busy: n }`) leaves the base's
/// values waiting in the base (a marble keeps them, as the package's validation inputs do);
/// at its next pull they are pulled one by one at that frame, measured from the last emission.
///
/// ```
/// source:                       abcdefghijkl|
/// throttle: 3 (latest: true)    a--d--g--j--(l|)
/// throttle: 3 (latest: false)   a--b--e--h--(k|)
/// source:                       a-b-c-d-e-f-|
/// throttle: 5, consumer busy 2  a-----d-----(f|)   (at 2 the pull reduces b, c arrives at 4
///                               only 4 frames after a, d at 6 is sent as the reduction b..d)
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
  /// The frame the current `next()` measures from (`start`).
  var start = 0
  /// The reduction of the values pulled in this `next()` (`reduced`).
  var reduced: Value?
  /// Whether the throttle is in `next()`, pulling its base.
  var pulling = false
  /// The base's events that arrived while the throttle was not pulling: they wait in the base.
  let waiting = PendingQueue<Event>()
  /// The base returned nil: the next pull gets the end.
  var baseEnded = false
  /// Sleeping until `d` frames after the last emission, to send the pending reduction.
  var finishing = false
  /// Reentrancy guard of `drain()`.
  var draining = false
  /// The wait for the consumer's next pull after a value.
  let nextPull = NextPull()

  init(downstream: any Observer, timer: TimerSlot, latest: Bool, runtime: Runtime) {
    self.downstream = downstream
    self.timer = timer
    self.latest = latest
    self.runtime = runtime
  }

  func start(_ upstream: any Source) {
    pull()
    link.attach(upstream.subscribe(self))
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    waiting.append(event)
    drain()
  }

  /// The consumer calls `next()`.
  private func pull() {
    guard !link.isFinished || baseEnded else { return }
    if baseEnded {
      guard !finishing else { return }
      baseEnded = false
      link.finish()
      return downstream.receive(.completed)
    }
    pulling = true
    reduced = nil
    start = lastEmission ?? runtime.now
    drain()
  }

  /// Takes the waiting base events while the throttle pulls.
  private func drain() {
    guard !draining else { return }
    draining = true
    defer { draining = false }
    while pulling, !link.isFinished, let event = waiting.removeFirst() {
      take(event)
    }
  }

  private func take(_ event: Event) {
    switch event {
    case .next(let value):
      let reduction = latest ? value : (reduced ?? value)
      let now = runtime.now
      guard lastEmission == nil || now - start >= timer.duration else {
        reduced = reduction
        return
      }
      lastEmission = now
      reduced = nil
      send(reduction)
    case .error:
      pulling = false
      reduced = nil
      link.end(with: event, to: downstream)
    case .completed:
      pulling = false
      guard reduced != nil, let last = lastEmission else { return link.end(with: event, to: downstream) }
      baseEnded = true
      let remaining = timer.duration - (runtime.now - last)
      guard remaining > 0 else { return flush() }
      finishing = true
      timer.schedule(after: remaining, target: self)
    }
  }

  /// Returns `value` from `next()`; the consumer pulls again at once or when it wants to.
  private func send(_ value: Value) {
    pulling = false
    downstream.receive(.next(value))
    guard !link.isFinished || baseEnded else { return }
    if FlowrunCore.wantsValue(downstream) { return pull() }
    nextPull.onNextPull(of: downstream) { [weak self] in self?.pull() }
  }

  /// The pending reduction after the sleep: sent, and the end follows at the next pull.
  private func flush() {
    finishing = false
    let value = reduced
    reduced = nil
    guard let value else { return pull() }
    send(value)
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
    baseEnded = false
    waiting.removeAll()
    link.dispose()
  }
}
