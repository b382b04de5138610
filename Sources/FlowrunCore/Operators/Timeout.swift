/// `timeout: d` (+ `fallback: signal`): fails with `"timeout"` — or switches to the fallback —
/// when `d` frames pass without a value, counted from subscription and from each value (RxJS 7
/// `timeout({ each: d, with })`).
///
/// The source is subscribed first, then the timer starts; each value is forwarded before the
/// timer restarts. On timeout the source is unsubscribed before the fallback is subscribed.
///
/// ```
/// source:      -a-----b-|
/// timeout: 3   -a---#        (error value "timeout")
/// ```
extension Source {
  public func timeout(_ timing: Timing, fallback: (any Source)?) -> any Source {
    timed(timing) { TimeoutObserver(downstream: $0, timer: $1, fallback: fallback) }
  }
}

extension Value {
  /// The error value of a timeout without a fallback.
  public static let timeoutError = Value.string("timeout")
}

private final class TimeoutObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let fallback: (any Source)?
  let link = UpstreamLink()
  /// The fallback's subscription, once switched.
  let fallbackLink = UpstreamLink()
  var hasSeenValue = false

  init(downstream: any Observer, timer: TimerSlot, fallback: (any Source)?) {
    self.downstream = downstream
    self.timer = timer
    self.fallback = fallback
  }

  func start(_ upstream: any Source) {
    link.attach(upstream.subscribe(self))
    if !link.isFinished, !hasSeenValue { restart() }
  }

  func restart() {
    timer.cancel()
    timer.schedule(target: self)
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    timer.cancel()
    if event.isTerminal {
      link.finish()
      return downstream.receive(event)
    }
    hasSeenValue = true
    downstream.receive(event)
    if !link.isFinished { restart() }
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    guard !link.isFinished else { return }
    guard let fallback else {
      return link.end(with: .error(.timeoutError), to: downstream)
    }
    link.dispose()
    fallbackLink.attach(fallback.subscribe(FallbackObserver(downstream: downstream, link: fallbackLink)))
  }

  func dispose() {
    timer.cancel()
    link.dispose()
    fallbackLink.dispose()
  }
}
