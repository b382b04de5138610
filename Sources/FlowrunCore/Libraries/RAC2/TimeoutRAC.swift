/// `timeoutRAC: d` (RAC2 `-timeout:onScheduler:`): fails with `"timeout"` unless the source
/// terminates within `d` frames of subscription; values pass through meanwhile.
///
/// The timer starts before the source is subscribed, as in RAC2.
///
/// ```
/// source:         -a-b-c-|
/// timeoutRAC: 4   -a-b#
/// ```
extension Source {
  public func timeoutRAC(_ timing: Timing) -> any Source {
    timed(timing) { TimeoutRACObserver(downstream: $0, timer: $1) }
  }
}

private final class TimeoutRACObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let link = UpstreamLink()

  init(downstream: any Observer, timer: TimerSlot) {
    self.downstream = downstream
    self.timer = timer
  }

  func start(_ upstream: any Source) {
    timer.schedule(target: self)
    link.attach(upstream.subscribe(self))
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal {
      timer.cancel()
      link.finish()
    }
    downstream.receive(event)
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    guard !link.isFinished else { return }
    link.end(with: .error(.timeoutError), to: downstream)
  }

  func dispose() {
    timer.cancel()
    link.dispose()
  }
}
