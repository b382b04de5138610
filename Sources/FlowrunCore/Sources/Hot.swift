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
    // Changed moved out of the property, like every change of `subscriptions`, so that reading
    // it per event needs no dynamic exclusivity check (Exclusivity.swift).
    var list = subscriptions.take()
    list.append(subscription)
    swap(&list, &subscriptions)
    return subscription
  }

  public func perform(_ index: Int) {
    // Each read of an `unowned` reference retains it: read it once, and pass it on as an
    // argument, through which its scheduler is reached without a retain of its own.
    perform(index, runtime: runtime)
  }

  private func perform(_ index: Int, runtime: Runtime) {
    if index + 1 < events.count {
      runtime.scheduler.schedule(
        at: events[index + 1].frame, sequence: firstSequence + index + 1, self, argument: index + 1)
    }
    guard !runtime.isFailed else { return }
    deliver(events[index].event, runtime: runtime)
  }

  /// Sends `event` to the current subscribers.
  @inline(__always)
  private func deliver(_ event: Event, runtime: Runtime) {
    runtime.trace(owner, event)
    if event.isTerminal {
      // The marble ends, and every subscription with it.
      let ending = subscriptions.take()
      for subscription in ending where subscription.isActive {
        subscription.isActive = false
        log.unsubscribe(subscription.logIndex, at: runtime.now)
        subscription.send(event)
      }
    } else {
      // A snapshot: a subscriber added during the delivery does not get this event, one
      // removed during it is skipped (`isActive`).
      let current = subscriptions
      for subscription in current where subscription.isActive {
        subscription.send(event)
      }
    }
  }

  fileprivate func remove(_ subscription: HotSubscription) {
    log.unsubscribe(subscription.logIndex, at: runtime.now)
    var list = subscriptions.take()
    list.removeAll { $0 === subscription }
    swap(&list, &subscriptions)
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

  /// Sends `event` to the observer (a method, so that the observer is used without a retain).
  func send(_ event: Event) {
    observer.receive(event)
  }

  func dispose() {
    guard isActive else { return }
    isActive = false
    source.remove(self)
  }
}
