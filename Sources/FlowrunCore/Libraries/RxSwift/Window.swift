/// RxSwift `window(timeSpan:count:scheduler:)` and `groupBy(keySelector:)` (with RAC2's
/// `-groupBy:`): the source's values split into inner signals, each a subject sent as a signal
/// value (the Recorder records it from the frame it was sent, as a `!cold` marble).
///
/// `window`: a window is sent at subscription, before the source is subscribed; it completes
/// and the next one is sent when `timeSpan` frames passed or it holds `count` values, and the
/// timer restarts then (RxS `Observables/Window.swift` `WindowTimeCountSink`: `createTimer`
/// per window id). The source's completion or error ends the current window, then the outer.
///
/// ```
/// source:                          -a-b-c---|
/// window: { timeSpan: 4, count: 2 } w-x-y---z|   (w = !cold "-a-(b|)", x = !cold "-c--|" …)
/// ```
///
/// `groupBy`: a value whose key is new opens a group, sent before its first value. On the
/// source's completion or error every group ends before the outer (RxS `GroupBy.swift`
/// `GroupBySink`), or after it with `groupsEndLast` (ROC `-groupBy:transform:`).
extension Source {
  public func window(_ timing: Timing, count: Int) -> any Source {
    OperatorSource(self) { WindowObserver(downstream: $0, timing: timing, count: count) }
  }

  public func groupBy(
    _ key: @escaping Transform, transform: Transform? = nil, groupsEndLast: Bool = false, owner: NodeLabel,
    runtime: Runtime
  ) -> any Source {
    OperatorSource(self) {
      GroupByObserver(
        downstream: $0, key: key, transform: transform, groupsEndLast: groupsEndLast, owner: owner, runtime: runtime)
    }
  }
}

private final class WindowObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let link = UpstreamLink()
  let timer: TimerSlot
  let count: Int
  let owner: NodeLabel
  // Unowned: the run's graph owns its runtime (Runtime, "Ownership").
  unowned let runtime: Runtime
  var window: Subject?
  var received = 0
  var windowID = 0

  init(downstream: any Observer, timing: Timing, count: Int) {
    self.downstream = downstream
    self.timer = TimerSlot(timing)
    self.count = count
    self.owner = timing.owner
    self.runtime = timing.runtime
  }

  func start(_ upstream: any Source) {
    openWindow()
    timer.schedule(argument: windowID, target: self)
    link.attach(upstream.subscribe(self))
  }

  private func openWindow() {
    let subject = Subject(kind: .publish, owner: owner, runtime: runtime)
    window = subject
    downstream.receive(.next(.signal(SignalValue(source: subject))))
  }

  /// Completes the current window and sends the next one; its timer starts now.
  private func nextWindow() {
    received = 0
    windowID += 1
    timer.cancel()
    window?.receive(.completed)
    guard !link.isFinished else { return }
    openWindow()
    timer.schedule(argument: windowID, target: self)
  }

  func timerFired(_ argument: Int) {
    guard !link.isFinished, argument == windowID else { return }
    nextWindow()
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next:
      window?.receive(event)
      received += 1
      if received >= count { nextWindow() }
    case .error, .completed:
      link.finish()
      timer.cancel()
      window?.receive(event)
      window = nil
      downstream.receive(event)
    }
  }

  func dispose() {
    timer.cancel()
    window = nil
    link.dispose()
  }
}

private final class GroupByObserver: UnaryOperator {
  let downstream: any Observer
  let link = UpstreamLink()
  let key: Transform
  let transform: Transform?
  let groupsEndLast: Bool
  let owner: NodeLabel
  // Unowned: the run's graph owns its runtime (Runtime, "Ownership").
  unowned let runtime: Runtime
  var groups: [(key: Value, subject: Subject)] = []
  var index = 0

  init(
    downstream: any Observer, key: @escaping Transform, transform: Transform?, groupsEndLast: Bool, owner: NodeLabel,
    runtime: Runtime
  ) {
    self.downstream = downstream
    self.key = key
    self.transform = transform
    self.groupsEndLast = groupsEndLast
    self.owner = owner
    self.runtime = runtime
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      let position = index
      index += 1
      let groupKey: Value
      var sent = value
      do throws(StepFailure) {
        groupKey = try key(value, position)
        if let transform { sent = try transform(value, position) }
      } catch {
        return end(.error(error.value))
      }
      let subject: Subject
      if let found = groups.first(where: { $0.key == groupKey }) {
        subject = found.subject
      } else {
        subject = Subject(kind: .publish, owner: owner, runtime: runtime)
        groups.append((groupKey, subject))
        downstream.receive(.next(.signal(SignalValue(source: subject))))
      }
      subject.receive(.next(sent))
    case .error, .completed:
      end(event)
    }
  }

  private func end(_ event: Event) {
    link.finish()
    let open = groups.map(\.subject)
    groups = []
    if groupsEndLast { downstream.receive(event) }
    for subject in open { subject.receive(event) }
    if !groupsEndLast { downstream.receive(event) }
  }

  func dispose() {
    groups = []
    link.dispose()
  }
}
