/// `delay: d`: every value `d` frames later; the completion follows the last delayed value, or
/// comes at once when no value is pending (RxJS 7). An error is forwarded at once and the pending
/// values dropped.
///
/// ```
/// source:    -a-b-|
/// delay: 2   ---a-(b|)
/// ```
extension Source {
  public func delay(_ timing: Timing) -> any Source {
    timed(timing) { DelayObserver(downstream: $0, timers: $1) }
  }
}

private final class DelayObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timers: TimerSlot
  let link = UpstreamLink()
  /// Values waiting for their timer, oldest first (all delays are equal, so timers fire in this
  /// order).
  let queue = PendingQueue<Value>()
  var sourceCompleted = false
  var isDone = false

  init(downstream: any Observer, timers: TimerSlot) {
    self.downstream = downstream
    self.timers = timers
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      queue.append(value)
      timers.schedule(target: self)
    case .error:
      end(with: event)
    case .completed:
      link.finish()
      sourceCompleted = true
      if queue.isEmpty { end(with: .completed) }
    }
  }

  func timerFired(_ argument: Int) {
    guard !isDone, let value = queue.removeFirst() else { return }
    downstream.receive(.next(value))
    if sourceCompleted, !isDone, queue.isEmpty { end(with: .completed) }
  }

  private func end(with event: Event) {
    isDone = true
    timers.cancel()
    queue.removeAll()
    link.end(with: event, to: downstream)
  }

  func dispose() {
    isDone = true
    timers.cancel()
    queue.removeAll()
    link.dispose()
  }
}
