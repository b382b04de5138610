/// `throttle: d` (+ `leading`, `trailing`): a value opens a window of `d` frames; the first value
/// is sent at once (`leading`), and the last one seen inside the window when it closes
/// (`trailing`), which opens a new window (RxJS 7 `throttleTime`).
///
/// On completion with a trailing value pending the result waits for the window to close, sends
/// it, then completes; otherwise it completes at once. An error is forwarded at once.
///
/// ```
/// source:       -a-b-c-----|
/// throttle: 3   -a--b--c---|   (leading and trailing)
/// ```
public final class ThrottleSource: Source {
  private let upstream: any Source
  fileprivate let duration: Int
  fileprivate let leading: Bool
  fileprivate let trailing: Bool
  fileprivate let owner: NodeLabel
  fileprivate unowned let runtime: Runtime

  public init(
    _ upstream: any Source, duration: Int, leading: Bool = true, trailing: Bool = true, owner: NodeLabel,
    runtime: Runtime
  ) {
    self.upstream = upstream
    self.duration = duration
    self.leading = leading
    self.trailing = trailing
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let throttle = ThrottleObserver(downstream: observer, source: self)
    throttle.link.attach(upstream.subscribe(throttle))
    return throttle
  }
}

private final class ThrottleObserver: Observer, Disposable, TimerTarget {
  let downstream: any Observer
  let source: ThrottleSource
  let link = UpstreamLink()
  let window = TimerSlot()
  var pending: Value?
  var sourceCompleted = false
  var isDone = false

  init(downstream: any Observer, source: ThrottleSource) {
    self.downstream = downstream
    self.source = source
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      pending = value
      guard !window.isPending else { return }
      if source.leading { send() } else { openWindow() }
    case .error:
      end(with: event)
    case .completed:
      link.finish()
      sourceCompleted = true
      if !(source.trailing && pending != nil && window.isPending) { end(with: .completed) }
    }
  }

  /// Sends the pending value, opening a window unless the source completed.
  private func send() {
    guard let value = pending else { return }
    pending = nil
    downstream.receive(.next(value))
    if !sourceCompleted, !isDone { openWindow() }
  }

  private func openWindow() {
    window.schedule(after: source.duration, on: source.runtime, owner: source.owner, target: self)
  }

  func timerFired(_ argument: Int) {
    window.cancel()
    guard !isDone, !source.runtime.isFailed, source.trailing else { return }
    send()
    if sourceCompleted, !isDone { end(with: .completed) }
  }

  private func end(with event: Event) {
    isDone = true
    window.cancel()
    pending = nil
    link.end(with: event, to: downstream)
  }

  func dispose() {
    isDone = true
    window.cancel()
    pending = nil
    link.dispose()
  }
}
