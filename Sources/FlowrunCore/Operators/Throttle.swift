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
extension Source {
  public func throttle(_ timing: Timing, leading: Bool = true, trailing: Bool = true) -> any Source {
    timed(timing) { ThrottleObserver(downstream: $0, window: $1, leading: leading, trailing: trailing) }
  }
}

private final class ThrottleObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let window: TimerSlot
  let leading: Bool
  let trailing: Bool
  let link = UpstreamLink()
  var pending: Value?
  var sourceCompleted = false
  var isDone = false

  init(downstream: any Observer, window: TimerSlot, leading: Bool, trailing: Bool) {
    self.downstream = downstream
    self.window = window
    self.leading = leading
    self.trailing = trailing
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      pending = value
      guard !window.isPending else { return }
      if leading { send() } else { openWindow() }
    case .error:
      end(with: event)
    case .completed:
      link.finish()
      sourceCompleted = true
      if !(trailing && pending != nil && window.isPending) { end(with: .completed) }
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
    window.schedule(target: self)
  }

  func timerFired(_ argument: Int) {
    window.cancel()
    guard !isDone, trailing else { return }
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
