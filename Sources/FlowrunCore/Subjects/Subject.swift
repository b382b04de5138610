/// An imperative subject (PublishSubject, ReplaySubject, BehaviorSubject, RACSubject).
///
/// It delivers to its current subscribers in subscription order; a subscriber added while a
/// value is being delivered does not receive that value. A terminated subject sends its terminal
/// event to later subscribers (a replay subject its buffer first; a behaviour subject only the
/// terminal event) and ignores what is sent to it after.
///
/// A RAC2 subject (`rac: true`) keeps no terminated state (ReactiveObjC's `RACSubject`): a
/// terminal event goes to the current subscribers, which are then removed, and the subject's
/// connection to its `subscribeTo` signal is disposed; a later subscriber is added like any
/// other and gets what is sent after it subscribed, a new terminal event included, never the
/// earlier one. A RAC2 behaviour subject sends such a subscriber its current value first; a RAC2
/// replay subject (`RACReplaySubject`) does keep the terminated state: it sends its buffer and
/// the first terminal event.
///
/// An RxSwift relay (`ignoresTermination`) never terminates: terminal events sent to it (by
/// `subscribeTo`) are dropped.
///
/// A channel or a stream (`distribution`) gives each value to one consumer, the one that has
/// waited longest (with consumers that pull again at once: in turn, in subscription order), and
/// keeps a value sent while no consumer waits for the next one:
/// - swift-async-algorithms' `AsyncChannel` (`ChannelStateMachine.swift`): every such value
///   waits (its `send` is suspended); finishing drops them; a failure (`AsyncThrowingChannel`)
///   reaches a later consumer, but consumers already waiting finish (`finish(error:)`);
/// - the standard library's `AsyncStream` with its buffering policy: unbounded, the oldest n
///   (later values are dropped) or the newest n (older values are dropped); a terminated stream
///   still hands its buffered values to a consumer, then the terminal event.
public final class Subject: Source, Observer {
  /// How a channel or a stream hands values to its consumers.
  public enum Distribution: Sendable, Equatable {
    case channel
    case stream(BufferingPolicy)
  }

  /// `AsyncStream.Continuation.BufferingPolicy`.
  public enum BufferingPolicy: Sendable, Equatable {
    case unbounded
    case bufferingOldest(Int)
    case bufferingNewest(Int)
  }

  public enum Kind: Sendable, Equatable {
    case publish
    case replay(Int)
    case behavior(Value)

    var isReplay: Bool {
      if case .replay = self { return true }
      return false
    }
  }

  public let owner: NodeLabel
  public let log = SubscriptionLog()
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  private unowned let runtime: Runtime
  private let kind: Kind
  private let isRAC: Bool
  private let ignoresTermination: Bool
  private let distribution: Distribution?
  /// A channel's or a stream's values sent while no consumer waited.
  private var unsent: [Value] = []
  private let subscriptions = SubscriberList<SubjectSubscription>()
  private var buffer: [Value] = []
  private var current: Value
  private var terminal: Event?
  /// A RAC2 subject's connection to its `subscribeTo` signal, disposed when it terminates.
  private var connection: (any Disposable)?

  public init(
    kind: Kind, isRAC: Bool = false, ignoresTermination: Bool = false, distribution: Distribution? = nil,
    owner: NodeLabel,
    runtime: Runtime
  ) {
    self.kind = kind
    self.distribution = distribution
    self.isRAC = isRAC
    self.ignoresTermination = ignoresTermination
    self.owner = owner
    self.runtime = runtime
    if case .behavior(let initial) = kind { current = initial } else { current = .null }
  }

  public var isTerminated: Bool { terminal != nil }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = SubjectSubscription(
      subject: self, observer: observer, logIndex: log.subscribe(at: runtime.now))
    if let terminal, !isRAC || kind.isReplay {
      subscription.isActive = false
      if kind.isReplay {
        for value in buffer { observer.receive(.next(value)) }
      }
      while !unsent.isEmpty { observer.receive(.next(unsent.removeFirst())) }
      log.unsubscribe(subscription.logIndex, at: runtime.now)
      observer.receive(terminal)
      return subscription
    }
    subscriptions.append(subscription)
    while distribution != nil, subscription.isActive, !unsent.isEmpty {
      observer.receive(.next(unsent.removeFirst()))
    }
    switch kind {
    case .publish: break
    case .replay:
      for value in buffer where subscription.isActive { observer.receive(.next(value)) }
    case .behavior:
      observer.receive(.next(current))
    }
    return subscription
  }

  /// Subscribes the subject to `source` (`subscribeTo`); a RAC2 subject disposes this
  /// connection when it terminates.
  public func connect(to source: any Source) -> any Disposable {
    let connection = source.subscribe(self)
    if isRAC {
      if terminal == nil { self.connection = connection } else { connection.dispose() }
    }
    return connection
  }

  /// Sends an event to the subscribers, as `effects`, `timeline` and `subscribeTo` do.
  public func receive(_ event: Event) {
    guard terminal == nil || isRAC, !(ignoresTermination && event.isTerminal), runtime.enter(owner) else { return }
    defer { runtime.exit() }
    runtime.trace(owner, event)
    switch event {
    case .next(let value):
      switch kind {
      case .publish: break
      case .replay(let size):
        var values = buffer.take()  // changed moved out (Exclusivity.swift)
        values.append(value)
        if values.count > size { values.removeFirst(values.count - size) }
        swap(&values, &buffer)
      case .behavior: current = value
      }
      if distribution != nil { return distribute(value) }
      for subscription in subscriptions.snapshot where subscription.isActive {
        subscription.observer.receive(event)
      }
    case .error, .completed:
      var event = event
      if distribution == .channel {
        unsent.removeAll()
        if subscriptions.snapshot.contains(where: \.isActive) { event = .completed }
      }
      if terminal == nil { terminal = event }
      if let connection = connection.take() { connection.dispose() }
      for subscription in subscriptions.removeAll() where subscription.isActive {
        subscription.isActive = false
        log.unsubscribe(subscription.logIndex, at: runtime.now)
        subscription.observer.receive(event)
      }
    }
  }

  /// A channel's value goes to the consumer that waited longest, which then waits again last.
  private func distribute(_ value: Value) {
    guard let consumer = subscriptions.snapshot.first(where: \.isActive) else { return keep(value) }
    subscriptions.remove(consumer)
    subscriptions.append(consumer)
    consumer.observer.receive(.next(value))
  }

  /// Keeps a value no consumer waited for, as the stream's buffering policy says.
  private func keep(_ value: Value) {
    switch distribution {
    case .stream(.bufferingOldest(let limit)):
      if unsent.count < limit { unsent.append(value) }
    case .stream(.bufferingNewest(let limit)):
      guard limit > 0 else { return }
      if unsent.count == limit { unsent.removeFirst() }
      unsent.append(value)
    case .stream(.unbounded), .channel, nil:
      unsent.append(value)
    }
  }

  fileprivate func remove(_ subscription: SubjectSubscription) {
    log.unsubscribe(subscription.logIndex, at: runtime.now)
    subscriptions.remove(subscription)
  }
}

private final class SubjectSubscription: Disposable {
  // Strong: an execution's inner subject lives only as long as someone is subscribed to it.
  let subject: Subject
  let observer: any Observer
  let logIndex: Int
  var isActive = true

  init(subject: Subject, observer: any Observer, logIndex: Int) {
    self.subject = subject
    self.observer = observer
    self.logIndex = logIndex
  }

  func dispose() {
    guard isActive else { return }
    isActive = false
    subject.remove(self)
  }
}
