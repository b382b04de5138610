/// A `cold` marble: every subscription replays the events from its own subscription frame.
///
/// All of a subscription's events are scheduled when it subscribes (an event at offset 0 is a
/// scheduled action at the subscription frame, never delivered inside `subscribe`).
public final class ColdSource: Source {
  public let owner: NodeLabel
  public let log: SubscriptionLog
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  fileprivate unowned let runtime: Runtime
  fileprivate let events: [Recorded]

  /// `events` have frames relative to the subscription (≥ 0), in order. Sources made from the
  /// same marble step may share one `log`.
  public init(
    events: [Recorded], owner: NodeLabel, runtime: Runtime, log: SubscriptionLog = SubscriptionLog()
  ) {
    self.events = events
    self.owner = owner
    self.runtime = runtime
    self.log = log
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = ColdSubscription(source: self, observer: observer)
    subscription.start()
    return subscription
  }
}

private final class ColdSubscription: ScheduledAction, Disposable {
  private let source: ColdSource
  private let observer: any Observer
  private var logIndex = 0
  private var startFrame = 0
  private var firstSequence = 0
  private var isActive = true

  var owner: NodeLabel { source.owner }
  /// A cold marble is an answer from outside the graph (a service's or a command's stub).
  var isInput: Bool { true }

  init(source: ColdSource, observer: any Observer) {
    self.source = source
    self.observer = observer
  }

  func start() {
    let runtime = source.runtime
    startFrame = runtime.now
    logIndex = source.log.subscribe(at: startFrame)
    guard let first = source.events.first else { return }
    firstSequence = runtime.scheduler.reserveSequences(source.events.count)
    runtime.scheduler.schedule(
      at: startFrame.addingClamped(first.frame), sequence: firstSequence, self, argument: 0)
  }

  func perform(_ index: Int) {
    guard isActive else { return }
    // Each read of an `unowned` reference retains it: read it once, and pass it on as an
    // argument, through which its scheduler is reached without a retain of its own.
    perform(index, runtime: source.runtime)
  }

  private func perform(_ index: Int, runtime: Runtime) {
    guard !runtime.isFailed else { return }
    let events = source.events
    if index + 1 < events.count {
      runtime.scheduler.schedule(
        at: startFrame.addingClamped(events[index + 1].frame), sequence: firstSequence + index + 1,
        self, argument: index + 1)
    }
    let event = events[index].event
    runtime.trace(source.owner, event)
    if event.isTerminal {
      isActive = false
      source.log.unsubscribe(logIndex, at: runtime.now)
    }
    observer.receive(event)
  }

  func dispose() {
    guard isActive else { return }
    isActive = false
    source.log.unsubscribe(logIndex, at: source.runtime.now)
  }
}
