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
public final class TimeoutSource: Source {
  fileprivate let upstream: any Source
  fileprivate let duration: Int
  fileprivate let fallback: (any Source)?
  fileprivate let owner: NodeLabel
  fileprivate unowned let runtime: Runtime

  public init(_ upstream: any Source, duration: Int, fallback: (any Source)?, owner: NodeLabel, runtime: Runtime) {
    self.upstream = upstream
    self.duration = duration
    self.fallback = fallback
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let timeout = TimeoutObserver(downstream: observer, source: self)
    timeout.link.attach(upstream.subscribe(timeout))
    if !timeout.link.isFinished, !timeout.hasSeenValue { timeout.restart() }
    return timeout
  }

  /// The error value of a timeout without a fallback.
  public static let timeoutError = Value.string("timeout")
}

private final class TimeoutObserver: Observer, Disposable, TimerTarget {
  let downstream: any Observer
  let source: TimeoutSource
  let link = UpstreamLink()
  /// The fallback's subscription, once switched.
  let fallbackLink = UpstreamLink()
  let timer = TimerSlot()
  var hasSeenValue = false

  init(downstream: any Observer, source: TimeoutSource) {
    self.downstream = downstream
    self.source = source
  }

  func restart() {
    timer.cancel()
    timer.schedule(after: source.duration, on: source.runtime, owner: source.owner, target: self)
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
    guard !link.isFinished, !source.runtime.isFailed else { return }
    guard let fallback = source.fallback else {
      return link.end(with: .error(TimeoutSource.timeoutError), to: downstream)
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

/// Forwards the fallback's events until it terminates.
private final class FallbackObserver: Observer {
  let downstream: any Observer
  let link: UpstreamLink

  init(downstream: any Observer, link: UpstreamLink) {
    self.downstream = downstream
    self.link = link
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal { link.finish() }
    downstream.receive(event)
  }
}
