/// `observeOn: queue` (`deliverOn`, RAC2): re-delivers each event as a new scheduler action at
/// the same frame, after everything already scheduled for that frame (semantics.md §Ordering).
///
/// Disposing drops the events not yet re-delivered.
///
/// ```
/// source (hot):        -a-b-|
/// timeline at 1:       -t
/// observeOn: main      -a-b-|   (a arrives after the timeline's action of frame 1)
/// ```
public final class ObserveOnSource: Source {
  private let upstream: any Source
  fileprivate let owner: NodeLabel
  fileprivate unowned let runtime: Runtime

  public init(_ upstream: any Source, owner: NodeLabel, runtime: Runtime) {
    self.upstream = upstream
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let observeOn = ObserveOnObserver(downstream: observer, source: self)
    observeOn.link.attach(upstream.subscribe(observeOn))
    return observeOn
  }
}

private final class ObserveOnObserver: Observer, Disposable, TimerTarget {
  let downstream: any Observer
  let source: ObserveOnSource
  let link = UpstreamLink()
  let timers = TimerSlot()
  /// Events waiting for their action, oldest first from `head`.
  var queue: [Event] = []
  var head = 0
  var isDone = false

  init(downstream: any Observer, source: ObserveOnSource) {
    self.downstream = downstream
    self.source = source
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal { link.finish() }
    var events = queue.take()  // changed moved out (Exclusivity.swift)
    events.append(event)
    swap(&events, &queue)
    timers.schedule(after: 0, on: source.runtime, owner: source.owner, target: self)
  }

  func timerFired(_ argument: Int) {
    guard !isDone, !source.runtime.isFailed, head < queue.count else { return }
    let event = queue[head]
    head += 1
    if head == queue.count {
      var events = queue.take()  // changed moved out (Exclusivity.swift)
      events.removeAll(keepingCapacity: true)
      swap(&events, &queue)
      head = 0
    }
    if event.isTerminal { stop() }
    downstream.receive(event)
  }

  private func stop() {
    isDone = true
    timers.cancel()
    _ = queue.take()
  }

  func dispose() {
    stop()
    link.dispose()
  }
}
