/// `delaySubscription: d`: subscribes to the source `d` frames after being subscribed; disposing
/// before then cancels the subscription (RxJS 7).
///
/// ```
/// source (cold):          -a-|
/// delaySubscription: 2    ---a-|
/// ```
extension Source {
  public func delaySubscription(_ timing: Timing) -> any Source {
    timed(timing) { DelayedSubscription(downstream: $0, timer: $1) }
  }
}

private final class DelayedSubscription: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let link = UpstreamLink()
  /// The source the timer subscribes to.
  var upstream: (any Source)?

  init(downstream: any Observer, timer: TimerSlot) {
    self.downstream = downstream
    self.timer = timer
  }

  func start(_ upstream: any Source) {
    self.upstream = upstream
    timer.schedule(target: self)
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    guard !link.isFinished, let upstream else { return }
    link.attach(upstream.subscribe(self))
  }

  func receive(_ event: Event) {
    link.forward(event, to: downstream)
  }

  func dispose() {
    timer.cancel()
    link.dispose()
  }
}
