/// `timeoutRAC: d` (RAC2 `-timeout:onScheduler:`): fails with `"timeout"` unless the source
/// terminates within `d` frames of subscription; values pass through meanwhile.
///
/// The timer starts before the source is subscribed, as in RAC2.
///
/// ```
/// source:         -a-b-c-|
/// timeoutRAC: 4   -a-b#
/// ```
public final class TimeoutRACSource: Source {
  private let upstream: any Source
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
    let timeout = TimeoutRACObserver(downstream: observer, source: self)
    timeout.timer.schedule(after: duration, on: runtime, owner: owner, target: timeout)
    timeout.link.attach(upstream.subscribe(timeout))
    return timeout
  }
}

private final class TimeoutRACObserver: Observer, Disposable, TimerTarget {
  let downstream: any Observer
  let source: TimeoutRACSource
  let link = UpstreamLink()
  let timer = TimerSlot()

  init(downstream: any Observer, source: TimeoutRACSource) {
    self.downstream = downstream
    self.source = source
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
    guard !link.isFinished, !source.runtime.isFailed else { return }
    link.end(with: .error(TimeoutSource.timeoutError), to: downstream)
  }

  func dispose() {
    timer.cancel()
    link.dispose()
  }
}
