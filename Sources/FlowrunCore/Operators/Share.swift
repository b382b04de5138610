/// `share`, `shareReplay: n`, and RAC2 `replay` / `replayLast` / `replayLazily`: one upstream
/// subscription (a connection) multicast through a subject to every subscriber.
///
/// A subscriber subscribes to the current subject first; the connection is made when the first
/// subscriber arrives (or by `connect()`, for RAC2's eager `replay`). The policy says which
/// subject a connection uses and when the connection resets, so that the next subscriber starts
/// a new one: RxJS 7 `share()` resets on completion, error and when its last subscriber leaves;
/// `shareReplay(n)` only on error; RAC2's replays never.
///
/// ```
/// source (cold):    -a-b-|
/// share, 2 subscribers at 0 and 2:  one subscription of source; the second sees -b-|
/// ```
public final class ShareSource: Source {
  /// Which subject a connection multicasts through, and when it resets.
  public struct Policy: Sendable {
    public var subject: Subject.Kind
    public var resetOnError: Bool
    public var resetOnComplete: Bool
    public var resetOnRefCountZero: Bool
    /// A reset drops the connection but keeps the subject, terminated or not (RxSwift's
    /// `.forever` scope: `multicast(ReplaySubject).refCount()`).
    public var keepsSubject = false
    /// The subject is a RAC2 one (`RACSubject`: no terminated state kept).
    public var isRAC = false
    /// Connects at most once: after the connection was disposed (its last subscriber left) or
    /// ended, no subscriber connects again (ROC `RACMulticastConnection` `-connect`, whose
    /// `hasConnected` is set once).
    public var connectsOnce = false
    /// What the source sends while an explicit `connect()` subscribes it, before any subscriber
    /// arrived, waits for the first subscriber: Combine's subjects ask their upstream for values
    /// only once a downstream asked them (OC `PassthroughSubject.send(subscription:)` requests
    /// `.unlimited` only with downstream demand; `PassthroughSubjectTests.testSendSubscription`,
    /// which also runs against Apple's Combine), so a `Just`, a `Sequence` or a
    /// `CurrentValueSubject`'s current value reaches the first subscriber of a connected
    /// `makeConnectable()` / `multicast`.
    public var holdsUntilFirstSubscriber = false

    /// RxJS 7 `share()`.
    public static let share = Policy(
      subject: .publish, resetOnError: true, resetOnComplete: true, resetOnRefCountZero: true)
    /// RxJS 7 `shareReplay(n)` (refCount false).
    public static func shareReplay(_ count: Int) -> Policy {
      Policy(subject: .replay(count), resetOnError: true, resetOnComplete: false, resetOnRefCountZero: false)
    }
    /// RAC2 `replay` (capacity `.max`), `replayLast` (1) and `replayLazily` (`.max`).
    public static func racReplay(_ capacity: Int) -> Policy {
      Policy(subject: .replay(capacity), resetOnError: false, resetOnComplete: false, resetOnRefCountZero: false)
    }
    /// Combine `share()` (`multicast(subject: PassthroughSubject()).autoconnect()`, OpenCombine
    /// `Publishers.Share.swift`) and `multicast` + `autoconnect`: the subject is made once
    /// (`Publishers.Multicast.swift` `lazySubject`); `Autoconnect` cancels its connection when the
    /// last subscriber leaves and reconnects for the next one, and once the source terminated
    /// the subject answers late subscribers with the terminal event only.
    public static func combine(_ subject: Subject.Kind = .publish) -> Policy {
      var policy = Policy(subject: subject, resetOnError: true, resetOnComplete: true, resetOnRefCountZero: true)
      policy.keepsSubject = true
      policy.holdsUntilFirstSubscriber = true
      return policy
    }
    /// RxSwift `share(replay:scope:)`: `.whileConnected` starts over after the last subscriber
    /// left or the source terminated; `.forever` keeps one subject: it reconnects after the last
    /// subscriber left, and after the source terminated the subject answers late subscribers
    /// (its buffer, then the terminal event) without a new subscription upstream.
    public static func rxSwift(replay: Int, forever: Bool) -> Policy {
      var policy = Policy(
        subject: replay == 0 ? .publish : .replay(replay), resetOnError: true, resetOnComplete: true,
        resetOnRefCountZero: true)
      policy.keepsSubject = forever
      return policy
    }
    /// RxSwift `multicast(subject)`, `publish()`, `replay(n)`, `replayAll()`: one subject for
    /// ever (RxS `Observables/Multicast.swift` `ConnectableObservableAdapter.lazySubject`).
    /// With `refCount()` it connects at the first subscriber and disconnects after the last,
    /// as `share(replay:scope: .forever)` does; without it `connect()` connected it once, for
    /// good.
    public static func rxSwiftMulticast(_ subject: Subject.Kind, refCount: Bool) -> Policy {
      var policy = Policy(
        subject: subject, resetOnError: refCount, resetOnComplete: refCount, resetOnRefCountZero: refCount)
      policy.keepsSubject = true
      return policy
    }
    /// RAC2 `-publish`, `-multicast:`: a `RACMulticastConnection` connects once; `-autoconnect`
    /// connects at the first subscriber and disposes the connection when the last one leaves,
    /// for good (ROC `RACMulticastConnection.m` `-connect`, `-autoconnect`).
    public static func rac2Multicast(_ subject: Subject.Kind, isRAC: Bool, autoconnect: Bool) -> Policy {
      var policy = Policy(
        subject: subject, resetOnError: false, resetOnComplete: false, resetOnRefCountZero: autoconnect)
      policy.keepsSubject = true
      policy.isRAC = isRAC
      policy.connectsOnce = true
      return policy
    }
  }

  private let upstream: any Source
  private let policy: Policy
  private var hasConnected = false
  private let owner: NodeLabel
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  private unowned let runtime: Runtime
  private var subject: Subject?
  private var connection: Connection?
  private var refCount = 0
  /// Counts resets; a subscription made before the last reset no longer counts.
  private var generation = 0
  /// While an explicit `connect()` subscribes the source with no subscriber
  /// (`Policy.holdsUntilFirstSubscriber`), what it sends; the first subscriber gets it.
  private var held: [Event]?
  /// `connect()` made the connection: it outlives its subscribers.
  private var connectedExplicitly = false

  public init(_ upstream: any Source, policy: Policy, owner: NodeLabel, runtime: Runtime) {
    self.upstream = upstream
    self.policy = policy
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    refCount += 1
    let subject = currentSubject()
    let subscription = ShareSubscription(source: self, generation: generation, inner: subject.subscribe(observer))
    if let events = held {
      held = nil
      for event in events { subject.receive(event) }
    }
    // A kept subject that terminated has answered the subscriber itself (RxSwift's
    // `RefCountSink.run` returns before `connect()` once the sink is disposed): no reconnection.
    guard !(policy.keepsSubject && subject.isTerminated) else { return subscription }
    if connection == nil, refCount > 0, self.subject === subject { open() }
    return subscription
  }

  /// Subscribes upstream unless connected, for good: the connection does not end when the last
  /// subscriber leaves (Combine's `connect()`, whose cancellable alone cancels it); RAC2
  /// `replay` and Combine's `makeConnectable` / `multicast` without `autoconnect` call this
  /// during setup.
  public func connect() {
    connectedExplicitly = true
    open()
  }

  private func open() {
    guard connection == nil, !(policy.connectsOnce && hasConnected) else { return }
    hasConnected = true
    let subject = currentSubject()
    let connection = Connection(source: self, subject: subject)
    self.connection = connection
    let holds = policy.holdsUntilFirstSubscriber && refCount == 0
    if holds { held = [] }
    connection.link.attach(upstream.subscribe(connection))
    if holds, held?.isEmpty == true { held = nil }
  }

  /// Sends `event` to the connection's subject, or keeps it for the first subscriber while an
  /// explicit `connect()` subscribes the source.
  fileprivate func deliver(_ event: Event, to subject: Subject) {
    if held != nil, subject === self.subject {
      held?.append(event)
    } else {
      subject.receive(event)
    }
  }

  private func currentSubject() -> Subject {
    if let subject { return subject }
    let subject = Subject(kind: policy.subject, isRAC: policy.isRAC, owner: owner, runtime: runtime)
    self.subject = subject
    return subject
  }

  fileprivate func connectionEnded(_ connection: Connection, with event: Event) {
    guard self.connection === connection else { return }
    let reset = event == .completed ? policy.resetOnComplete : policy.resetOnError
    if reset { self.reset() }
  }

  fileprivate func unsubscribed(generation: Int) {
    guard generation == self.generation else { return }
    refCount -= 1
    guard refCount == 0, policy.resetOnRefCountZero, !connectedExplicitly, let connection, !connection.link.isFinished
    else { return }
    reset()
    connection.link.dispose()
  }

  private func reset() {
    connection = nil
    if !policy.keepsSubject { subject = nil }
    refCount = 0
    generation += 1
  }
}

/// One connection: forwards upstream's events to its subject.
///
/// A connection can outlive its share: RAC2's replays and `shareReplay` never disconnect, so
/// the upstream keeps delivering to the connection after the chain that made the share was
/// released (a command's `work` whose execution ended early, by `takeUntil`). Its reference to
/// the share is therefore weak: once the share is gone, events still reach the subject, which no
/// subscriber reads any more.
private final class Connection: Observer {
  weak var source: ShareSource?
  let subject: Subject
  let link = UpstreamLink()

  init(source: ShareSource, subject: Subject) {
    self.source = source
    self.subject = subject
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    if event.isTerminal {
      link.finish()
      source?.connectionEnded(self, with: event)
    }
    if let source { source.deliver(event, to: subject) } else { subject.receive(event) }
  }
}

private final class ShareSubscription: Disposable {
  private var source: ShareSource?
  private let generation: Int
  private let inner: any Disposable

  init(source: ShareSource, generation: Int, inner: any Disposable) {
    self.source = source
    self.generation = generation
    self.inner = inner
  }

  func dispose() {
    guard let source else { return }
    self.source = nil
    inner.dispose()
    source.unsubscribed(generation: generation)
  }
}
