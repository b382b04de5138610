/// A `hot` marble: events at absolute frames, shared by all subscribers.
///
/// All events are scheduled before frame 0 (`start()`), in file order. A subscriber receives
/// only the events after it subscribed — a completed or failed hot marble sends nothing to a
/// later subscriber. Events at negative frames (before `^`) happen before any subscription and
/// reach nobody.
public final class HotSource: Source, ScheduledAction {
  public let owner: NodeLabel
  public let log = SubscriptionLog()
  private unowned let runtime: Runtime
  private let events: [Recorded]
  private var subscriptions: [HotSubscription] = []
  private var firstSequence = 0

  public init(events: [Recorded], owner: NodeLabel, runtime: Runtime) {
    // Shared, not copied, when nothing is before `^`.
    self.events = events.allSatisfy { $0.frame >= 0 } ? events : events.filter { $0.frame >= 0 }
    self.owner = owner
    self.runtime = runtime
  }

  /// Schedules every event; call once, before the run, in file order.
  public func start() {
    guard !events.isEmpty else { return }
    firstSequence = runtime.scheduler.reserveSequences(events.count)
    runtime.scheduler.schedule(at: events[0].frame, sequence: firstSequence, self, argument: 0)
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = HotSubscription(
      source: self, observer: observer, logIndex: log.subscribe(at: runtime.now))
    subscriptions.append(subscription)
    return subscription
  }

  public func perform(_ index: Int) {
    let event = events[index].event
    if index + 1 < events.count {
      runtime.scheduler.schedule(
        at: events[index + 1].frame, sequence: firstSequence + index + 1, self, argument: index + 1)
    }
    guard !runtime.isFailed else { return }
    runtime.trace(owner, event)
    let current = subscriptions
    if event.isTerminal {
      subscriptions.removeAll()
      for subscription in current where subscription.isActive {
        subscription.isActive = false
        log.unsubscribe(subscription.logIndex, at: runtime.now)
        subscription.observer.receive(event)
      }
    } else {
      for subscription in current where subscription.isActive {
        subscription.observer.receive(event)
      }
    }
  }

  fileprivate func remove(_ subscription: HotSubscription) {
    log.unsubscribe(subscription.logIndex, at: runtime.now)
    subscriptions.removeAll { $0 === subscription }
  }
}

private final class HotSubscription: Disposable {
  unowned let source: HotSource
  let observer: any Observer
  let logIndex: Int
  var isActive = true

  init(source: HotSource, observer: any Observer, logIndex: Int) {
    self.source = source
    self.observer = observer
    self.logIndex = logIndex
  }

  func dispose() {
    guard isActive else { return }
    isActive = false
    source.remove(self)
  }
}
