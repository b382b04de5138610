/// `delay: d`: every value `d` frames later; the completion follows the last delayed value, or
/// comes at once when no value is pending (RxJS 7). An error is forwarded at once and the pending
/// values dropped.
///
/// ```
/// source:    -a-b-|
/// delay: 2   ---a-(b|)
/// ```
public final class DelaySource: Source {
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
    let delay = DelayObserver(downstream: observer, source: self)
    delay.link.attach(upstream.subscribe(delay))
    return delay
  }
}

private final class DelayObserver: Observer, Disposable, TimerTarget {
  let downstream: any Observer
  let source: DelaySource
  let link = UpstreamLink()
  let timers = TimerSlot()
  /// Values waiting for their timer, oldest first from `head` (all delays are equal, so timers
  /// fire in this order).
  var queue: [Value] = []
  var head = 0
  var sourceCompleted = false
  var isDone = false

  init(downstream: any Observer, source: DelaySource) {
    self.downstream = downstream
    self.source = source
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      var values = queue.take()  // changed moved out (Exclusivity.swift)
      values.append(value)
      swap(&values, &queue)
      timers.schedule(after: source.duration, on: source.runtime, owner: source.owner, target: self)
    case .error:
      end(with: event)
    case .completed:
      link.finish()
      sourceCompleted = true
      if head == queue.count { end(with: .completed) }
    }
  }

  func timerFired(_ argument: Int) {
    guard !isDone, !source.runtime.isFailed, head < queue.count else { return }
    let value = queue[head]
    head += 1
    if head == queue.count {
      var values = queue.take()  // changed moved out (Exclusivity.swift)
      values.removeAll(keepingCapacity: true)
      swap(&values, &queue)
      head = 0
    }
    downstream.receive(.next(value))
    if sourceCompleted, !isDone, head == queue.count { end(with: .completed) }
  }

  private func end(with event: Event) {
    isDone = true
    timers.cancel()
    _ = queue.take()
    link.end(with: event, to: downstream)
  }

  func dispose() {
    isDone = true
    timers.cancel()
    _ = queue.take()
    link.dispose()
  }
}
