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
extension Source {
  /// Re-delivers on the scheduler of `runtime`, charged to `owner`.
  public func observeOn(owner: NodeLabel, runtime: Runtime) -> any Source {
    timed(Timing(0, owner: owner, runtime: runtime)) { ObserveOnObserver(downstream: $0, timers: $1) }
  }
}

private final class ObserveOnObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timers: TimerSlot
  let link = UpstreamLink()
  /// Events waiting for their action, oldest first.
  let queue = PendingQueue<Event>()
  var isDone = false

  init(downstream: any Observer, timers: TimerSlot) {
    self.downstream = downstream
    self.timers = timers
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal { link.finish() }
    queue.append(event)
    timers.schedule(target: self)
  }

  func timerFired(_ argument: Int) {
    guard !isDone, let event = queue.removeFirst() else { return }
    if event.isTerminal { stop() }
    downstream.receive(event)
  }

  private func stop() {
    isDone = true
    timers.cancel()
    queue.removeAll()
  }

  func dispose() {
    stop()
    link.dispose()
  }
}
