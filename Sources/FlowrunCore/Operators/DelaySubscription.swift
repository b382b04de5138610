/// `delaySubscription: d`: subscribes to the source `d` frames after being subscribed; disposing
/// before then cancels the subscription (RxJS 7).
///
/// ```
/// source (cold):          -a-|
/// delaySubscription: 2    ---a-|
/// ```
///
/// Combine's `subscribe(on:)` (`subscribesWhenCancelled`) subscribes the source in its
/// scheduled action even when the downstream cancelled before it ran, and the cancelled
/// downstream cancels that subscription at once: the source's log shows `(^!)` (OpenCombine
/// `Publishers.SubscribeOn.swift`: `cancel()` before the subscription arrived does nothing, the
/// scheduled `upstream.subscribe(inner)` still runs, and a subscriber that was cancelled cancels
/// the subscription it then receives).
extension Source {
  public func delaySubscription(_ timing: Timing, subscribesWhenCancelled: Bool = false) -> any Source {
    timed(timing) {
      DelayedSubscription(downstream: $0, timer: $1, subscribesWhenCancelled: subscribesWhenCancelled)
    }
  }
}

private final class DelayedSubscription: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let link = UpstreamLink()
  /// The source the timer subscribes to.
  var upstream: (any Source)?
  let subscribesWhenCancelled: Bool

  init(downstream: any Observer, timer: TimerSlot, subscribesWhenCancelled: Bool) {
    self.downstream = downstream
    self.timer = timer
    self.subscribesWhenCancelled = subscribesWhenCancelled
  }

  func start(_ upstream: any Source) {
    self.upstream = upstream
    timer.schedule(target: self)
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    guard let upstream, !link.isFinished || subscribesWhenCancelled else { return }
    self.upstream = nil
    link.attach(upstream.subscribe(self))
  }

  func receive(_ event: Event) {
    link.forward(event, to: downstream)
  }

  func dispose() {
    if !subscribesWhenCancelled || upstream == nil { timer.cancel() }
    link.dispose()
  }
}
