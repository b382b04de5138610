// Stand-in for RxCocoa 6 (part of ReactiveX/RxSwift): the subset of its public API that the
// examples' RxSwift view models and their tests use, because RxSwift is not in this machine's
// package mirror. Written from RxCocoa's documented behaviour; see ../README.md. No UIKit or
// AppKit bindings (ControlEvent, ControlProperty, Binder extensions).
//
// This file: shared sequences (Driver, Signal) and the scheduler they observe on.

import Foundation
import RxRelay
import RxSwift

/// The scheduler shared sequences observe on: the main scheduler, or a test's through `mock`.
public enum SharingScheduler {
  /// Makes the scheduler for a shared sequence being made (by default a `MainScheduler`).
  nonisolated(unsafe) public private(set) static var make: () -> any SchedulerType = { MainScheduler() }

  /// Runs `action` with `scheduler` as the shared sequences' scheduler; for tests only.
  public static func mock(scheduler: any SchedulerType, action: () throws -> Void) rethrows {
    try mock(makeScheduler: { scheduler }, action: action)
  }

  /// Runs `action` with `makeScheduler` making the shared sequences' schedulers; for tests only.
  /// Unlike RxCocoa's, mocks of tests running in parallel take turns (a lock held while
  /// `action` runs), so one test's mock never leaks into another's.
  public static func mock(makeScheduler: @escaping () -> any SchedulerType, action: () throws -> Void) rethrows {
    mocking.lock()
    defer { mocking.unlock() }
    let original = make
    make = makeScheduler
    defer { make = original }
    try action()
  }

  /// Held while a mock runs (recursive: a mock may run inside another).
  private static let mocking = NSRecursiveLock()
}

/// How a kind of shared sequence shares, and where it observes.
public protocol SharingStrategyProtocol {
  /// The scheduler the sequence's elements are observed on.
  static var scheduler: any SchedulerType { get }

  /// Shares `source` as this kind of sequence does.
  static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type that can be turned into a shared sequence.
public protocol SharedSequenceConvertibleType: ObservableConvertibleType {
  associatedtype SharingStrategy: SharingStrategyProtocol

  func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
  public func asObservable() -> Observable<Element> { asSharedSequence().asObservable() }
}

/// A sequence that never fails, is observed on its strategy's scheduler and is shared by its
/// strategy.
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType,
  ObservableConvertibleType
{
  let source: Observable<Element>

  /// `source` shared by the strategy.
  init(_ source: Observable<Element>) { self.source = SharingStrategy.share(source) }

  /// `source` as it is.
  init(raw: Observable<Element>) { self.source = raw }

  /// A shared sequence of `source` as it is: it must already never fail and observe on the
  /// strategy's scheduler.
  public static func createUnsafe<Source: ObservableType>(source: Source) -> SharedSequence<SharingStrategy, Source.Element> {
    SharedSequence<SharingStrategy, Source.Element>(raw: source.asObservable())
  }

  public func asObservable() -> Observable<Element> { source }

  public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }
}

extension SharedSequence {
  public static func empty() -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(raw: Observable.empty().subscribe(on: SharingStrategy.scheduler))
  }

  public static func never() -> SharedSequence<SharingStrategy, Element> { SharedSequence(raw: Observable.never()) }

  public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(raw: Observable.just(element).subscribe(on: SharingStrategy.scheduler))
  }

  public static func deferred(_ observableFactory: @escaping () -> SharedSequence<SharingStrategy, Element>)
    -> SharedSequence<SharingStrategy, Element>
  {
    SharedSequence(Observable.deferred { observableFactory().asObservable() })
  }

  public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler))
  }

  public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(raw: Observable.from(array, scheduler: SharingStrategy.scheduler))
  }
}

// MARK: - Driver and Signal

/// A shared sequence that replays its latest element to each new observer (`share(replay: 1,
/// scope: .whileConnected)`), observed on `SharingScheduler.make()`.
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>

public struct DriverSharingStrategy: SharingStrategyProtocol {
  public static var scheduler: any SchedulerType { SharingScheduler.make() }

  public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
    source.share(replay: 1, scope: .whileConnected)
  }
}

/// A shared sequence that replays nothing (`share(scope: .whileConnected)`), observed on
/// `SharingScheduler.make()`.
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

public struct SignalSharingStrategy: SharingStrategyProtocol {
  public static var scheduler: any SchedulerType { SharingScheduler.make() }

  public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
    source.share(scope: .whileConnected)
  }
}

extension ObservableConvertibleType {
  /// A driver of this sequence: observed on the scheduler `SharingScheduler.make()` gives now,
  /// ending with `onErrorJustReturn` (and completion) instead of an error.
  public func asDriver(onErrorJustReturn: Element) -> Driver<Element> {
    Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catchAndReturn(onErrorJustReturn))
  }

  /// A driver of this sequence that continues with `onErrorDriveWith` instead of an error.
  public func asDriver(onErrorDriveWith: Driver<Element>) -> Driver<Element> {
    Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { _ in onErrorDriveWith.asObservable() })
  }

  /// A driver of this sequence that continues with the driver `onErrorRecover` gives.
  public func asDriver(onErrorRecover: @escaping (_ error: any Swift.Error) -> Driver<Element>) -> Driver<Element> {
    Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { onErrorRecover($0).asObservable() })
  }

  /// A signal of this sequence, ending with `onErrorJustReturn` instead of an error.
  public func asSignal(onErrorJustReturn: Element) -> Signal<Element> {
    Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catchAndReturn(onErrorJustReturn))
  }

  /// A signal of this sequence that continues with `onErrorSignalWith` instead of an error.
  public func asSignal(onErrorSignalWith: Signal<Element>) -> Signal<Element> {
    Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { _ in onErrorSignalWith.asObservable() })
  }

  /// A signal of this sequence that continues with the signal `onErrorRecover` gives.
  public func asSignal(onErrorRecover: @escaping (_ error: any Swift.Error) -> Signal<Element>) -> Signal<Element> {
    Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { onErrorRecover($0).asObservable() })
  }
}

extension BehaviorRelay {
  /// The relay as a driver.
  public func asDriver() -> Driver<Element> { Driver(asObservable().observe(on: DriverSharingStrategy.scheduler)) }
}

extension PublishRelay {
  /// The relay as a signal.
  public func asSignal() -> Signal<Element> { Signal(asObservable().observe(on: SignalSharingStrategy.scheduler)) }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
  public func asDriver() -> Driver<Element> { asSharedSequence() }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
  public func asSignal() -> Signal<Element> { asSharedSequence() }
}

// MARK: - drive and emit

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
  private static var driveMessage: String { "`drive*` family of methods can be only called from `MainThread`." }

  /// Sends the driver's events to the observers.
  public func drive<Observer: ObserverType>(_ observers: Observer...) -> any Disposable where Observer.Element == Element {
    MainScheduler.ensureRunningOnMainThread(errorMessage: Self.driveMessage)
    return asObservable().subscribe { event in observers.forEach { $0.on(event) } }
  }

  public func drive<Observer: ObserverType>(_ observers: Observer...) -> any Disposable where Observer.Element == Element? {
    MainScheduler.ensureRunningOnMainThread(errorMessage: Self.driveMessage)
    return asObservable().map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event) } }
  }

  /// Sends the driver's elements to the relays.
  public func drive(_ relays: BehaviorRelay<Element>...) -> any Disposable {
    MainScheduler.ensureRunningOnMainThread(errorMessage: Self.driveMessage)
    return asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  public func drive(_ relays: BehaviorRelay<Element?>...) -> any Disposable {
    MainScheduler.ensureRunningOnMainThread(errorMessage: Self.driveMessage)
    return asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  public func drive(_ relays: ReplayRelay<Element>...) -> any Disposable {
    MainScheduler.ensureRunningOnMainThread(errorMessage: Self.driveMessage)
    return asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  /// Subscribes handlers of the elements, the completion and the disposal (a driver has no
  /// error).
  public func drive(
    onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    MainScheduler.ensureRunningOnMainThread(errorMessage: Self.driveMessage)
    return asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  public func drive<Object: AnyObject>(
    with object: Object, onNext: ((Object, Element) -> Void)? = nil, onCompleted: ((Object) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil
  ) -> any Disposable {
    MainScheduler.ensureRunningOnMainThread(errorMessage: Self.driveMessage)
    return asObservable().subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes with no handlers.
  public func drive() -> any Disposable { drive(onNext: nil, onCompleted: nil, onDisposed: nil) }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
  public func emit<Observer: ObserverType>(to observers: Observer...) -> any Disposable where Observer.Element == Element {
    asObservable().subscribe { event in observers.forEach { $0.on(event) } }
  }

  public func emit(to relays: PublishRelay<Element>...) -> any Disposable {
    asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  public func emit(to relays: BehaviorRelay<Element>...) -> any Disposable {
    asObservable().subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
  }

  public func emit(
    onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  public func emit() -> any Disposable { emit(onNext: nil, onCompleted: nil, onDisposed: nil) }
}
