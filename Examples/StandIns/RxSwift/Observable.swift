// Stand-in for RxSwift 6 (ReactiveX/RxSwift): the subset of its public API that the examples'
// RxSwift view models and their tests use, because RxSwift is not in this machine's package
// mirror. Written from RxSwift's documented behaviour (names, labels and generic shapes as in
// RxSwift 6.x); see ../README.md for the subset and the known differences.
//
// This file: events, observers, observables and how a subscription is run.

import Foundation

/// A sequence's event: an element, or its end with an error or a completion.
public enum Event<Element> {
  case next(Element)
  case error(any Swift.Error)
  case completed
}

extension Event: CustomDebugStringConvertible {
  public var debugDescription: String {
    switch self {
    case .next(let value): "next(\(value))"
    case .error(let error): "error(\(error))"
    case .completed: "completed"
    }
  }
}

extension Event {
  /// Whether this event ends the sequence (`.error` or `.completed`).
  public var isStopEvent: Bool {
    if case .next = self { return false }
    return true
  }

  /// The element of a `.next` event.
  public var element: Element? {
    if case .next(let value) = self { return value }
    return nil
  }

  /// The error of an `.error` event.
  public var error: (any Swift.Error)? {
    if case .error(let error) = self { return error }
    return nil
  }

  /// Whether this is the `.completed` event.
  public var isCompleted: Bool {
    if case .completed = self { return true }
    return false
  }

  /// The event with its element transformed; a thrown error becomes an `.error` event.
  public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
    switch self {
    case .next(let value):
      do { return .next(try transform(value)) } catch { return .error(error) }
    case .error(let error): return .error(error)
    case .completed: return .completed
    }
  }
}

/// Receives the events of a sequence.
public protocol ObserverType {
  associatedtype Element
  func on(_ event: Event<Element>)
}

extension ObserverType {
  public func onNext(_ element: Element) { on(.next(element)) }
  public func onCompleted() { on(.completed) }
  public func onError(_ error: any Swift.Error) { on(.error(error)) }

  /// This observer, type-erased.
  public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

  /// An observer of `Result` that sends the transformed elements to this observer.
  public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
    AnyObserver { event in self.on(event.map(transform)) }
  }
}

/// A type-erased observer: forwards every event to its handler.
public struct AnyObserver<Element>: ObserverType {
  public typealias EventHandler = (Event<Element>) -> Void

  private let handler: EventHandler

  public init(eventHandler: @escaping EventHandler) { handler = eventHandler }

  public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
    handler = observer.on
  }

  public func on(_ event: Event<Element>) { handler(event) }

  public func asObserver() -> AnyObserver<Element> { self }
}

/// A type that can be turned into an `Observable`.
public protocol ObservableConvertibleType {
  associatedtype Element
  func asObservable() -> Observable<Element>
}

/// A push-based sequence that observers subscribe to.
public protocol ObservableType: ObservableConvertibleType {
  func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Element
}

extension ObservableType {
  public func asObservable() -> Observable<Element> {
    Observable(producer: false, { observer in self.subscribe(observer) })
  }
}

/// RxSwift's observable sequence. Operators make one from a closure that subscribes an
/// observer; subjects are subclasses, as in RxSwift.
///
/// A sequence made by an operator (RxSwift's `Producer`) runs its subscription on the current
/// thread's trampoline (`CurrentThreadScheduler`) when none is running yet, stops forwarding
/// after its first stop event, and disposes its resources then or when its subscription is
/// disposed, whichever is first.
public class Observable<Element>: ObservableType {
  private let body: (AnyObserver<Element>) -> any Disposable
  private let isProducer: Bool

  /// A sequence of an operator (`producer`): trampolined and guarded as described above; or
  /// one whose subscription runs as is (subjects, `just`, `empty`, `never`, `error`, and the
  /// shares of `.whileConnected` scope, which RxSwift does not trampoline either).
  init(producer: Bool, _ body: @escaping (AnyObserver<Element>) -> any Disposable) {
    self.body = body
    isProducer = producer
  }

  /// A sequence of an operator.
  convenience init(_ body: @escaping (AnyObserver<Element>) -> any Disposable) {
    self.init(producer: true, body)
  }

  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    guard isProducer else { return body(AnyObserver(observer)) }
    if CurrentThreadScheduler.isScheduleRequired {
      return CurrentThreadScheduler.instance.schedule(()) { _ in self.run(observer) }
    }
    return run(observer)
  }

  private func run<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Element {
    let guarded = GuardedObserver(observer)
    guarded.setResources(body(AnyObserver(guarded)))
    return guarded
  }

  public func asObservable() -> Observable<Element> { self }
}

/// The observer an operator's sink sends to, and the subscription it returns: forwards events
/// until the first stop event or disposal, and then disposes the sink's resources (RxSwift's
/// `Sink` with its `SinkDisposer`).
private final class GuardedObserver<Observer: ObserverType>: ObserverType, Cancelable {
  typealias Element = Observer.Element

  private let observer: Observer
  private var resources: (any Disposable)?
  private var stopped = false
  private(set) var isDisposed = false

  init(_ observer: Observer) { self.observer = observer }

  func on(_ event: Event<Element>) {
    guard !stopped, !isDisposed else { return }
    if event.isStopEvent { stopped = true }
    observer.on(event)
    if stopped { dispose() }
  }

  func setResources(_ disposable: any Disposable) {
    if isDisposed { disposable.dispose() } else { resources = disposable }
  }

  func dispose() {
    guard !isDisposed else { return }
    isDisposed = true
    let resources = resources
    self.resources = nil
    resources?.dispose()
  }
}

/// The observer of the closure-based `subscribe` methods: stops at the first stop event.
final class ClosureObserver<Element>: ObserverType {
  private let handler: (Event<Element>) -> Void
  private var stopped = false

  init(_ handler: @escaping (Event<Element>) -> Void) { self.handler = handler }

  func on(_ event: Event<Element>) {
    guard !stopped else { return }
    if event.isStopEvent { stopped = true }
    handler(event)
  }
}

extension ObservableType {
  /// Subscribes an event handler.
  public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> any Disposable {
    subscribe(ClosureObserver(on))
  }

  /// Subscribes handlers for the elements, the error, the completion and the disposal. An error
  /// without `onError` is reported as unhandled (printed in debug builds, as RxSwift's default
  /// error handler does).
  public func subscribe(
    onNext: ((Element) -> Void)? = nil,
    onError: ((any Swift.Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    let disposed: any Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
    let observer = ClosureObserver<Element> { event in
      switch event {
      case .next(let value): onNext?(value)
      case .error(let error):
        if let onError { onError(error) } else { reportUnhandledError(error) }
        disposed.dispose()
      case .completed:
        onCompleted?()
        disposed.dispose()
      }
    }
    return Disposables.create(asObservable().subscribe(observer), disposed)
  }

  /// `subscribe(onNext:onError:onCompleted:onDisposed:)` with an unretained `object` passed to
  /// each handler.
  public func subscribe<Object: AnyObject>(
    with object: Object,
    onNext: ((Object, Element) -> Void)? = nil,
    onError: ((Object, any Swift.Error) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil
  ) -> any Disposable {
    subscribe(
      onNext: { [weak object] value in if let object { onNext?(object, value) } },
      onError: { [weak object] error in if let object { onError?(object, error) } },
      onCompleted: { [weak object] in if let object { onCompleted?(object) } },
      onDisposed: { [weak object] in if let object { onDisposed?(object) } })
  }
}

func reportUnhandledError(_ error: any Swift.Error) {
  #if DEBUG
    print("Unhandled error happened: \(error)")
  #endif
}

/// RxSwift's errors. (`Error` must be `Sendable`; `disposed(object:)` carries the disposed
/// object as RxSwift's does, so the conformance is unchecked.)
public enum RxError: Swift.Error, @unchecked Sendable, CustomDebugStringConvertible {
  case unknown
  case disposed(object: AnyObject)
  case overflow
  case argumentOutOfRange
  case noElements
  case moreThanOneElement
  case timeout

  public var debugDescription: String {
    switch self {
    case .unknown: "Unknown error occurred."
    case .disposed(let object): "Object `\(object)` was already disposed."
    case .overflow: "Arithmetic overflow occurred."
    case .argumentOutOfRange: "Argument out of range."
    case .noElements: "Sequence doesn't contain any elements."
    case .moreThanOneElement: "Sequence contains more than one element."
    case .timeout: "Sequence timeout."
    }
  }
}

/// The `rx` namespace of a type's reactive extensions.
public struct Reactive<Base> {
  public let base: Base

  public init(_ base: Base) { self.base = base }
}

/// A type with reactive extensions under `rx`.
public protocol ReactiveCompatible {
  associatedtype ReactiveBase

  static var rx: Reactive<ReactiveBase>.Type { get set }
  var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
  public static var rx: Reactive<Self>.Type {
    get { Reactive<Self>.self }
    set {}
  }

  public var rx: Reactive<Self> {
    get { Reactive(self) }
    set {}
  }
}

extension NSObject: ReactiveCompatible {}
