// Stand-in for RxRelay 6 (part of ReactiveX/RxSwift): the subset of its public API that the
// examples' RxSwift view models and their tests use, because RxSwift is not in this machine's
// package mirror. Written from RxRelay's documented behaviour; see ../README.md.
//
// Relays are subjects that never end: they only `accept` elements.

import RxSwift

/// Sends what it accepts to its current observers; never ends.
public final class PublishRelay<Element>: ObservableType {
  private let subject = PublishSubject<Element>()

  public init() {}

  public func accept(_ event: Element) { subject.onNext(event) }

  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  public func asObservable() -> Observable<Element> { subject.asObservable() }
}

/// Holds a current value, sent to each new observer and then every accepted one; never ends.
public final class BehaviorRelay<Element>: ObservableType {
  private let subject: BehaviorSubject<Element>

  public init(value: Element) { subject = BehaviorSubject(value: value) }

  public func accept(_ event: Element) { subject.onNext(event) }

  /// The current value.
  public var value: Element {
    // The subject neither ends nor is disposed, so `value()` cannot throw.
    try! subject.value()
  }

  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  public func asObservable() -> Observable<Element> { subject.asObservable() }
}

/// Replays the latest accepted elements (up to its buffer size) to each new observer; never ends.
public final class ReplayRelay<Element>: ObservableType {
  private let subject: ReplaySubject<Element>

  private init(subject: ReplaySubject<Element>) { self.subject = subject }

  public static func create(bufferSize: Int) -> ReplayRelay<Element> {
    ReplayRelay(subject: .create(bufferSize: bufferSize))
  }

  public static func createUnbound() -> ReplayRelay<Element> { ReplayRelay(subject: .createUnbounded()) }

  public func accept(_ event: Element) { subject.onNext(event) }

  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  public func asObservable() -> Observable<Element> { subject.asObservable() }
}

// MARK: - bind(to:)

/// A relay cannot end: binding an error to one traps in debug builds and is printed in release
/// builds, as RxRelay does; a completion is ignored.
private func bindingToRelay<Element>(_ source: Observable<Element>, kind: String, accept: @escaping (Element) -> Void)
  -> any Disposable
{
  source.subscribe { event in
    switch event {
    case .next(let element): accept(element)
    case .error(let error):
      #if DEBUG
        fatalError("Binding error to \(kind) relay: \(error)")
      #else
        print("Binding error to \(kind) relay: \(error)")
      #endif
    case .completed: break
    }
  }
}

extension ObservableType {
  /// Sends the elements to the relays.
  public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
    bindingToRelay(asObservable(), kind: "publish") { element in relays.forEach { $0.accept(element) } }
  }

  public func bind(to relays: PublishRelay<Element?>...) -> any Disposable {
    bindingToRelay(asObservable(), kind: "publish") { element in relays.forEach { $0.accept(element) } }
  }

  public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
    bindingToRelay(asObservable(), kind: "behavior") { element in relays.forEach { $0.accept(element) } }
  }

  public func bind(to relays: BehaviorRelay<Element?>...) -> any Disposable {
    bindingToRelay(asObservable(), kind: "behavior") { element in relays.forEach { $0.accept(element) } }
  }

  public func bind(to relays: ReplayRelay<Element>...) -> any Disposable {
    bindingToRelay(asObservable(), kind: "replay") { element in relays.forEach { $0.accept(element) } }
  }

  public func bind(to relays: ReplayRelay<Element?>...) -> any Disposable {
    bindingToRelay(asObservable(), kind: "replay") { element in relays.forEach { $0.accept(element) } }
  }
}
