/// A `hot` marble: events at absolute frames, shared by all subscribers.
///
/// Its events are read from a packed tape (EventTape.swift) one at a time: `start()`, before
/// frame 0, reserves a sequence number for every event and schedules the first, and each event
/// schedules the next when it is performed, so they run as if all had been scheduled before
/// frame 0 in file order. A subscriber receives only the events after it subscribed — a
/// completed or failed hot marble sends nothing to a later subscriber. Events at negative
/// frames (before `^`) happen before any subscription and reach nobody.
///
/// Under `library: async` (`keepsEventsForLateSubscribers`) the marble is what its producer
/// yields into an `AsyncStream` with the default buffering policy (unbounded), one made at the
/// start of the run for each consumer: a stream keeps what was yielded until its iterator pulls
/// it (SL `AsyncStreamBuffer.swift` `_Storage.yield(_:)`, `finish()`, `next()`), so a
/// subscriber that comes after frame 0 (`chain`'s next base, a sequential `flatMap`'s inner,
/// an expectation's `subscribe:` window) first receives, at once and in order, the events it
/// missed — values, then the end — and then the rest as they happen
/// (docs/libraries.md, `async-hot-input-keeps-values`).
///
/// ```
/// i0:                    -1--|
/// i1:                    a-b---c|
/// i0 chain i1 (async)    -1--(ab)c|     (the default: -1----c|)
/// ```
public final class HotSource: Source, ScheduledAction {
  public let owner: NodeLabel
  public let log = SubscriptionLog()
  public var isInput: Bool { true }
  // Unowned and unchecked: the run's graph owns its runtime and every node that refers to it,
  // and nothing is delivered or disposed once the run returned (Runtime, "Ownership"). Read
  // on every event without a retain (`_withUnsafeGuaranteedRef`): an `unowned` read retains
  // and releases it.
  private let unmanagedRuntime: Unmanaged<Runtime>
  private var runtime: Runtime { unmanagedRuntime.takeUnretainedValue() }
  private let reader: TapeReader
  private let subscribers = SubscriberList<HotSubscription>()
  private var firstSequence = 0
  /// The events sent so far, kept for a later subscriber (`library: async`); nil: not kept.
  private var sent: [Event]?

  public init(
    events: EventTape, owner: NodeLabel, runtime: Runtime, keepsEventsForLateSubscribers: Bool = false
  ) {
    self.reader = TapeReader(events)
    self.owner = owner
    self.unmanagedRuntime = .passUnretained(runtime)
    if keepsEventsForLateSubscribers { sent = [] }
  }

  public convenience init(
    events: [Recorded], owner: NodeLabel, runtime: Runtime, keepsEventsForLateSubscribers: Bool = false
  ) {
    self.init(
      events: EventTape(events), owner: owner, runtime: runtime,
      keepsEventsForLateSubscribers: keepsEventsForLateSubscribers)
  }

  /// Schedules the first event at or after frame 0, and each next one when its predecessor is
  /// performed; call once, before the run, in file order.
  public func start() {
    guard let frame = reader.start(at: 0) else { return }
    firstSequence = runtime.scheduler.reserveSequences(reader.count)
    runtime.scheduler.schedule(at: frame, sequence: firstSequence, self, argument: 0)
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = HotSubscription(
      source: self, observer: observer, logIndex: log.subscribe(at: runtime.now))
    subscribers.append(subscription)
    if let missed = sent, !missed.isEmpty { catchUp(subscription, on: missed) }
    return subscription
  }

  /// Hands a late subscriber the events it missed, as its stream kept them; it stays
  /// subscribed for the rest unless they held the end (or it left meanwhile).
  private func catchUp(_ subscription: HotSubscription, on missed: [Event]) {
    for event in missed where subscription.isActive {
      if event.isTerminal {
        subscription.isActive = false
        subscribers.remove(subscription)
        log.unsubscribe(subscription.logIndex, at: runtime.now)
      }
      subscription.send(event)
    }
  }

  public func perform(_ index: Int) {
    // Passed on as an argument, through which its scheduler is reached without a retain of its
    // own.
    unmanagedRuntime._withUnsafeGuaranteedRef { perform(index, runtime: $0) }
  }

  private func perform(_ index: Int, runtime: Runtime) {
    var following: Int?
    guard let event = reader.advance(following: &following) else { return }
    if let frame = following {
      runtime.scheduler.schedule(at: frame, sequence: firstSequence + index + 1, self, argument: index + 1)
    }
    guard !runtime.isFailed else { return }
    deliver(event, runtime: runtime)
  }

  /// Sends `event` to the current subscribers.
  @inline(__always)
  private func deliver(_ event: Event, runtime: Runtime) {
    runtime.trace(owner, event)
    // Kept before it is sent: a subscriber added while it is sent catches up on it.
    if sent != nil { sent?.append(event) }
    if event.isTerminal {
      // The marble ends, and every subscription with it.
      for subscription in subscribers.removeAll() where subscription.isActive {
        subscription.isActive = false
        log.unsubscribe(subscription.logIndex, at: runtime.now)
        subscription.send(event)
      }
    } else {
      for subscription in subscribers.snapshot where subscription.isActive {
        subscription.send(event)
      }
    }
  }

  fileprivate func remove(_ subscription: HotSubscription) {
    log.unsubscribe(subscription.logIndex, at: runtime.now)
    subscribers.remove(subscription)
  }
}

private final class HotSubscription: Disposable {
  // Unowned: the graph keeps every hot marble for the whole run (to start it), and a subscription
  // is disposed only while the run goes on.
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
