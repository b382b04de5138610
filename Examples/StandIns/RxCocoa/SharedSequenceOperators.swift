// Stand-in for RxCocoa 6 (part of ReactiveX/RxSwift), used because RxSwift is not in this
// machine's package mirror; semantics follow RxCocoa's documented behaviour (../README.md).
//
// This file: operators on shared sequences (each result shared again by its strategy), and
// `bind(to:)` for observers.

import RxSwift

extension SharedSequenceConvertibleType {
  private typealias Shared<Result> = SharedSequence<SharingStrategy, Result>

  public func map<Result>(_ selector: @escaping (Element) -> Result) -> SharedSequence<SharingStrategy, Result> {
    Shared(asObservable().map(selector))
  }

  public func compactMap<Result>(_ selector: @escaping (Element) -> Result?) -> SharedSequence<SharingStrategy, Result> {
    Shared(asObservable().compactMap(selector))
  }

  public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
    Shared(asObservable().filter(predicate))
  }

  public func flatMapLatest<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>)
    -> SharedSequence<Sharing, Result>
  {
    SharedSequence<Sharing, Result>(asObservable().flatMapLatest(selector))
  }

  public func flatMap<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>)
    -> SharedSequence<Sharing, Result>
  {
    SharedSequence<Sharing, Result>(asObservable().flatMap(selector))
  }

  public func `do`(
    onNext: ((Element) -> Void)? = nil, afterNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
    afterCompleted: (() -> Void)? = nil, onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> SharedSequence<SharingStrategy, Element> {
    Shared(
      asObservable().do(
        onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
        onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
  }

  public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key)
    -> SharedSequence<SharingStrategy, Element>
  {
    Shared(asObservable().distinctUntilChanged(keySelector))
  }

  public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
    Shared(asObservable().distinctUntilChanged(comparer))
  }

  public func distinctUntilChanged<K>(_ keySelector: @escaping (Element) -> K, comparer: @escaping (K, K) -> Bool)
    -> SharedSequence<SharingStrategy, Element>
  {
    Shared(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
  }

  /// `throttle` on the strategy's scheduler.
  public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
    Shared(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
  }

  /// `debounce` on the strategy's scheduler.
  public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
    Shared(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
  }

  /// `delay` on the strategy's scheduler.
  public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
    Shared(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
  }

  public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) -> A) -> SharedSequence<SharingStrategy, A> {
    SharedSequence<SharingStrategy, A>(asObservable().scan(seed, accumulator: accumulator))
  }

  public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> { Shared(asObservable().skip(count)) }

  public func startWith(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
    Shared(asObservable().startWith(element))
  }

  public func withLatestFrom<SecondO: SharedSequenceConvertibleType, ResultType>(
    _ second: SecondO, resultSelector: @escaping (Element, SecondO.Element) -> ResultType
  ) -> SharedSequence<SharingStrategy, ResultType> where SecondO.SharingStrategy == SharingStrategy {
    SharedSequence<SharingStrategy, ResultType>(
      asObservable().withLatestFrom(second.asSharedSequence(), resultSelector: resultSelector))
  }

  public func withLatestFrom<SecondO: SharedSequenceConvertibleType>(_ second: SecondO)
    -> SharedSequence<SharingStrategy, SecondO.Element>
  {
    SharedSequence<SharingStrategy, SecondO.Element>(asObservable().withLatestFrom(second.asSharedSequence()))
  }
}

extension SharedSequenceConvertibleType where Element: Equatable {
  public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
    let source: Observable<Element> = asObservable().distinctUntilChanged({ $0 }, comparer: { $0 == $1 })
    return SharedSequence(source)
  }
}

extension SharedSequence {
  public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(raw: Observable.merge(sources.map { $0.asObservable() }))
  }

  public static func combineLatest<O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType>(
    _ source1: O1, _ source2: O2, resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy {
    SharedSequence(Observable.combineLatest(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
  }
}

// MARK: - bind(to:) for observers

extension ObservableType {
  /// Sends every event to the observers.
  public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable where Observer.Element == Element {
    subscribe { event in observers.forEach { $0.on(event) } }
  }

  public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable where Observer.Element == Element? {
    map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event) } }
  }

  /// Subscribes with `binder`.
  public func bind<Result>(to binder: (Self) -> Result) -> Result { binder(self) }

  /// Subscribes an element handler; an error traps in debug builds (printed in release builds).
  public func bind(onNext: @escaping (Element) -> Void) -> any Disposable {
    subscribe(
      onNext: onNext,
      onError: { error in
        #if DEBUG
          fatalError("Binding error: \(error)")
        #else
          print("Binding error: \(error)")
        #endif
      })
  }
}
