/// Combine `timeout(_:scheduler:customError:)` (`timeout: { for: d, customError: v }`): a clock
/// started at subscription and restarted by every value; when it runs out the source is
/// cancelled and the result finishes — or fails with `customError`. Values and the source's
/// completion are re-delivered as new scheduler actions at the same frame (OpenCombine
/// `Publishers.Timeout`).
///
/// ```
/// source:              -a------
/// timeout: { for: 3 }  -a--|
/// ```
extension Source {
  public func combineTimeout(_ timing: Timing, customError: Value?) -> any Source {
    timed(timing) {
      CombineTimeoutObserver(
        downstream: $0, clock: $1, deliveries: TimerSlot(Timing(0, owner: timing.owner, runtime: timing.runtime)),
        customError: customError)
    }
  }
}

private final class CombineTimeoutObserver: UnaryOperator, TimerTarget {
  private static let timedOut = 0
  private static let delivery = 1

  let downstream: any Observer
  let clock: TimerSlot
  let deliveries: TimerSlot
  let customError: Value?
  let link = UpstreamLink()
  /// Events waiting for their delivery action, oldest first.
  let queue = PendingQueue<Event>()
  var isDone = false

  init(downstream: any Observer, clock: TimerSlot, deliveries: TimerSlot, customError: Value?) {
    self.downstream = downstream
    self.clock = clock
    self.deliveries = deliveries
    self.customError = customError
  }

  func start(_ upstream: any Source) {
    clock.schedule(argument: Self.timedOut, target: self)
    link.attach(upstream.subscribe(self))
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    clock.cancel()
    if event.isTerminal {
      link.finish()
    } else {
      clock.schedule(argument: Self.timedOut, target: self)
    }
    queue.append(event)
    deliveries.schedule(argument: Self.delivery, target: self)
  }

  func timerFired(_ argument: Int) {
    guard !isDone else { return }
    if argument == Self.delivery {
      guard let event = queue.removeFirst() else { return }
      if event.isTerminal { isDone = true }
      return downstream.receive(event)
    }
    guard !link.isFinished else { return }
    isDone = true
    clock.cancel()
    queue.removeAll()
    link.end(with: customError.map(Event.error) ?? .completed, to: downstream)
  }

  func dispose() {
    isDone = true
    clock.cancel()
    deliveries.cancel()
    queue.removeAll()
    link.dispose()
  }
}
