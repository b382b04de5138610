// Stand-in for RxSwift 6 (ReactiveX/RxSwift), used because RxSwift is not in this machine's
// package mirror; semantics follow RxSwift's documented behaviour (../README.md).
//
// This file: subjects, and `share(replay:scope:)`.

/// An observable that is also an observer: what it is sent, it sends to its observers.
public protocol SubjectType: ObservableType {
  associatedtype Observer: ObserverType
  func asObserver() -> Observer
}

/// The observers of a subject or a share, in subscription order. An event goes to the
/// observers there were when it was sent.
final class ObserverList<Element> {
  private var entries: [(id: Int, observer: (Event<Element>) -> Void)] = []
  private var nextID = 0

  var isEmpty: Bool { entries.isEmpty }

  func insert(_ observer: @escaping (Event<Element>) -> Void) -> Int {
    nextID += 1
    entries.append((nextID, observer))
    return nextID
  }

  func remove(_ id: Int) { entries.removeAll { $0.id == id } }

  func removeAll() { entries.removeAll() }

  func dispatch(_ event: Event<Element>) {
    for entry in entries { entry.observer(event) }
  }
}

/// What subjects share: observers, the stop event once stopped, disposal, an optional buffer
/// of the latest elements replayed to each new observer (before it joins, as ReplaySubject
/// does), and an optional current value (sent after it joins, as BehaviorSubject does).
final class SubjectState<Element> {
  let observers = ObserverList<Element>()
  var stopEvent: Event<Element>?
  var isDisposed = false
  let bufferLimit: Int?
  var buffer: [Element] = []
  var value: Element?

  init(bufferLimit: Int? = 0, value: Element? = nil) {
    self.bufferLimit = bufferLimit
    self.value = value
  }

  func on(_ event: Event<Element>) {
    guard stopEvent == nil, !isDisposed else { return }
    switch event {
    case .next(let element):
      if value != nil { value = element }
      if bufferLimit != 0 {
        buffer.append(element)
        if let bufferLimit, buffer.count > bufferLimit { buffer.removeFirst(buffer.count - bufferLimit) }
      }
      observers.dispatch(event)
    case .error, .completed:
      stopEvent = event
      let observers = observers
      observers.dispatch(event)
      observers.removeAll()
    }
  }

  func subscribe(_ observer: AnyObserver<Element>, owner: AnyObject) -> any Disposable {
    if isDisposed {
      observer.onError(RxError.disposed(object: owner))
      return Disposables.create()
    }
    for element in buffer { observer.onNext(element) }
    if let stopEvent {
      observer.on(stopEvent)
      return Disposables.create()
    }
    let id = observers.insert(observer.on)
    if let value { observer.onNext(value) }
    return Disposables.create { [weak self] in self?.observers.remove(id) }
  }

  func dispose() {
    isDisposed = true
    observers.removeAll()
    buffer.removeAll()
  }
}

/// Sends what it is sent to its current observers; a late observer gets only the stop event.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable {
  private let state: SubjectState<Element>

  public init() {
    let state = SubjectState<Element>()
    self.state = state
    weak var owner: PublishSubject<Element>?
    super.init(producer: false, { observer in state.subscribe(observer, owner: owner ?? state) })
    owner = self
  }

  public var hasObservers: Bool { !state.observers.isEmpty }
  public var isDisposed: Bool { state.isDisposed }

  public func on(_ event: Event<Element>) { state.on(event) }
  public func asObserver() -> PublishSubject<Element> { self }
  public func dispose() { state.dispose() }
}

/// Holds a current value, sent to each new observer and then every later one.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable {
  private let state: SubjectState<Element>

  public init(value: Element) {
    let state = SubjectState<Element>(value: value)
    self.state = state
    weak var owner: BehaviorSubject<Element>?
    super.init(producer: false, { observer in state.subscribe(observer, owner: owner ?? state) })
    owner = self
  }

  /// The current value; throws the error the subject ended with, or `RxError.disposed`.
  public func value() throws -> Element {
    if state.isDisposed { throw RxError.disposed(object: self) }
    if case .error(let error) = state.stopEvent { throw error }
    return state.value!
  }

  public var hasObservers: Bool { !state.observers.isEmpty }
  public var isDisposed: Bool { state.isDisposed }

  public func on(_ event: Event<Element>) { state.on(event) }
  public func asObserver() -> BehaviorSubject<Element> { self }
  public func dispose() { state.dispose() }
}

/// Replays the latest elements (up to its buffer size) to each new observer, then its stop
/// event if it has ended.
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Disposable {
  private let state: SubjectState<Element>

  private init(bufferLimit: Int?) {
    let state = SubjectState<Element>(bufferLimit: bufferLimit)
    self.state = state
    weak var owner: ReplaySubject<Element>?
    super.init(producer: false, { observer in state.subscribe(observer, owner: owner ?? state) })
    owner = self
  }

  public static func create(bufferSize: Int) -> ReplaySubject<Element> { ReplaySubject(bufferLimit: max(bufferSize, 0)) }

  public static func createUnbounded() -> ReplaySubject<Element> { ReplaySubject(bufferLimit: nil) }

  public var hasObservers: Bool { !state.observers.isEmpty }

  public func on(_ event: Event<Element>) { state.on(event) }
  public func asObserver() -> ReplaySubject<Element> { self }
  public func dispose() { state.dispose() }
}

// MARK: - share

/// How long a share's subject lives.
public enum SubjectLifetimeScope {
  /// Each connection to the source has its own replay buffer: when the source ends, or the last
  /// observer leaves, the buffer goes, and the next observer connects afresh.
  case whileConnected
  /// One subject for all connections: a late observer gets the stale replay, and after the
  /// source has ended, the replay and the stop event without a new subscription to the source.
  case forever
}

extension ObservableType {
  /// Shares one subscription to this sequence among all observers, replaying the latest
  /// `replay` elements to each new one.
  public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
    switch scope {
    case .whileConnected:
      let share = WhileConnectedShare(source: asObservable(), replay: max(replay, 0))
      return Observable(producer: false, share.subscribe)
    case .forever:
      let share = ForeverShare(source: asObservable(), replay: max(replay, 0))
      return Observable(share.subscribe)
    }
  }
}

private final class WhileConnectedShare<Element> {
  private let source: Observable<Element>
  private let replay: Int
  private var connection: Connection?

  init(source: Observable<Element>, replay: Int) {
    self.source = source
    self.replay = replay
  }

  /// One connection to the source: its observers and its replay buffer.
  final class Connection: ObserverType {
    weak var share: WhileConnectedShare<Element>?
    let observers = ObserverList<Element>()
    var buffer: [Element] = []
    let subscription = SingleAssignmentDisposable()
    let replay: Int

    init(share: WhileConnectedShare<Element>, replay: Int) {
      self.share = share
      self.replay = replay
    }

    func on(_ event: Event<Element>) {
      guard !subscription.isDisposed else { return }
      if case .next(let element) = event, replay > 0 {
        buffer.append(element)
        if buffer.count > replay { buffer.removeFirst() }
      }
      if event.isStopEvent { close() }
      observers.dispatch(event)
    }

    func close() {
      if share?.connection === self { share?.connection = nil }
      subscription.dispose()
    }
  }

  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let connection = connection ?? Connection(share: self, replay: replay)
    self.connection = connection
    let isFirst = connection.observers.isEmpty
    for element in connection.buffer { observer.onNext(element) }
    let id = connection.observers.insert(observer.on)
    if isFirst { connection.subscription.setDisposable(source.subscribe(connection)) }
    return Disposables.create { [weak connection] in
      guard let connection else { return }
      connection.observers.remove(id)
      if connection.observers.isEmpty { connection.close() }
    }
  }
}

private final class ForeverShare<Element> {
  private let source: Observable<Element>
  private let subject: Observable<Element>
  private let subjectObserver: AnyObserver<Element>
  private var count = 0
  private var connection: SingleAssignmentDisposable?

  init(source: Observable<Element>, replay: Int) {
    self.source = source
    if replay == 0 {
      let subject = PublishSubject<Element>()
      self.subject = subject
      subjectObserver = AnyObserver(subject)
    } else {
      let subject = ReplaySubject<Element>.create(bufferSize: replay)
      self.subject = subject
      subjectObserver = AnyObserver(subject)
    }
  }

  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    var ended = false
    let subscription = subject.subscribe { event in
      if event.isStopEvent { ended = true }
      observer.on(event)
    }
    if ended { return subscription }
    count += 1
    if count == 1 {
      let connection = SingleAssignmentDisposable()
      self.connection = connection
      connection.setDisposable(source.subscribe(subjectObserver))
    }
    return Disposables.create { [self] in
      subscription.dispose()
      count -= 1
      if count == 0 {
        connection?.dispose()
        connection = nil
      }
    }
  }
}
