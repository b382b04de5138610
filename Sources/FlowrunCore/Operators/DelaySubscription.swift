/// `delaySubscription: d`: subscribes to the source `d` frames after being subscribed; disposing
/// before then cancels the subscription (RxJS 7).
///
/// ```
/// source (cold):          -a-|
/// delaySubscription: 2    ---a-|
/// ```
public final class DelaySubscriptionSource: Source {
  fileprivate let upstream: any Source
  fileprivate let duration: Int
  fileprivate let owner: NodeLabel
  fileprivate unowned let runtime: Runtime

  public init(_ upstream: any Source, duration: Int, owner: NodeLabel, runtime: Runtime) {
    self.upstream = upstream
    self.duration = duration
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let delayed = DelayedSubscription(downstream: observer, source: self)
    delayed.timer.schedule(after: duration, on: runtime, owner: owner, target: delayed)
    return delayed
  }
}

private final class DelayedSubscription: Observer, Disposable, TimerTarget {
  let downstream: any Observer
  let source: DelaySubscriptionSource
  let link = UpstreamLink()
  let timer = TimerSlot()

  init(downstream: any Observer, source: DelaySubscriptionSource) {
    self.downstream = downstream
    self.source = source
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    guard !link.isFinished, !source.runtime.isFailed else { return }
    link.attach(source.upstream.subscribe(self))
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal { link.finish() }
    downstream.receive(event)
  }

  func dispose() {
    timer.cancel()
    link.dispose()
  }
}
