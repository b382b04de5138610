// Stand-in for RxSwift 6 (ReactiveX/RxSwift), used because RxSwift is not in this machine's
// package mirror; semantics follow RxSwift's documented behaviour (../README.md).
//
// This file: the element-by-element operators, flatMap and its kin, catch and do.

/// An operator that turns each event of its source into what it sends downstream.
private final class EventSink<Source, Result>: ObserverType {
  typealias Element = Source

  private let handle: (Event<Source>, AnyObserver<Result>) throws -> Void
  private let observer: AnyObserver<Result>

  init(_ observer: AnyObserver<Result>, _ handle: @escaping (Event<Source>, AnyObserver<Result>) throws -> Void) {
    self.observer = observer
    self.handle = handle
  }

  func on(_ event: Event<Source>) {
    do { try handle(event, observer) } catch { observer.onError(error) }
  }
}

extension ObservableType {
  /// A sequence whose subscription sends each event of this one through `handle`, with the
  /// state `makeState` makes for that subscription; an error `handle` throws ends it.
  private func transform<Result, State>(
    state makeState: @escaping () -> State,
    _ handle: @escaping (inout State, Event<Element>, AnyObserver<Result>) throws -> Void
  ) -> Observable<Result> {
    let source = asObservable()
    return Observable { observer in
      var state = makeState()
      return source.subscribe(EventSink(observer) { event, observer in try handle(&state, event, observer) })
    }
  }

  private func forwardingTerminal<Result>(_ event: Event<Element>, to observer: AnyObserver<Result>) {
    switch event {
    case .next: break
    case .error(let error): observer.onError(error)
    case .completed: observer.onCompleted()
    }
  }

  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
    self.transform(state: {}) { _, event, observer in
      if case .next(let value) = event { observer.onNext(try transform(value)) } else { forwardingTerminal(event, to: observer) }
    }
  }

  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    transform(state: {}) { _, event, observer in
      if case .next(let value) = event {
        if try predicate(value) { observer.onNext(value) }
      } else {
        forwardingTerminal(event, to: observer)
      }
    }
  }

  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
    self.transform(state: {}) { _, event, observer in
      if case .next(let value) = event {
        if let mapped = try transform(value) { observer.onNext(mapped) }
      } else {
        forwardingTerminal(event, to: observer)
      }
    }
  }

  /// Skips an element whose key equals the key of the element before, by `comparer`.
  public func distinctUntilChanged<Key>(
    _ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool
  ) -> Observable<Element> {
    transform(state: { Key?.none }) { lastKey, event, observer in
      guard case .next(let value) = event else { return forwardingTerminal(event, to: observer) }
      let key = try keySelector(value)
      if let previous = lastKey, try comparer(previous, key) { return }
      lastKey = key
      observer.onNext(value)
    }
  }

  public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
    distinctUntilChanged(keySelector, comparer: { $0 == $1 })
  }

  public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
    distinctUntilChanged({ $0 }, comparer: comparer)
  }

  public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
    distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: { $0 == $1 })
  }

  /// Skips the first `count` elements.
  public func skip(_ count: Int) -> Observable<Element> {
    transform(state: { count }) { remaining, event, observer in
      if case .next = event, remaining > 0 {
        remaining -= 1
      } else {
        observer.on(event)
      }
    }
  }

  /// The first `count` elements, then completion.
  public func take(_ count: Int) -> Observable<Element> {
    guard count > 0 else { return Observable.empty() }
    return transform(state: { count }) { remaining, event, observer in
      guard case .next = event else { return observer.on(event) }
      remaining -= 1
      observer.on(event)
      if remaining == 0 { observer.onCompleted() }
    }
  }

  /// Each accumulated value, starting from `seed`.
  public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
    transform(state: { seed }) { accumulated, event, observer in
      guard case .next(let value) = event else { return forwardingTerminal(event, to: observer) }
      accumulated = try accumulator(accumulated, value)
      observer.onNext(accumulated)
    }
  }

  public func scan<A>(into seed: A, accumulator: @escaping (inout A, Element) throws -> Void) -> Observable<A> {
    scan(seed) { accumulated, element in
      var result = accumulated
      try accumulator(&result, element)
      return result
    }
  }

  /// `elements` first, then this sequence's events.
  public func startWith(_ elements: Element...) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      for element in elements { observer.onNext(element) }
      return source.subscribe(observer)
    }
  }

  /// Continues with the sequence `handler` gives for an error.
  public func `catch`(_ handler: @escaping (any Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let recovery = SerialDisposable()
      let subscription = source.subscribe { event in
        guard case .error(let error) = event else { return observer.on(event) }
        do {
          recovery.disposable = try handler(error).subscribe(observer)
        } catch {
          observer.onError(error)
        }
      }
      return Disposables.create(subscription, recovery)
    }
  }

  /// Ends with `element` and completion instead of an error.
  public func catchAndReturn(_ element: Element) -> Observable<Element> {
    `catch` { _ in Observable.just(element) }
  }

  /// Resubscribes after an error, without end.
  public func retry() -> Observable<Element> { retry(Int.max) }

  /// Subscribes up to `maxAttemptCount` times in all while the sequence ends in error.
  public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let current = SerialDisposable()
      var attempts = 0
      func attempt() {
        attempts += 1
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        subscription.setDisposable(
          source.subscribe { event in
            if case .error = event, attempts < maxAttemptCount, !current.isDisposed {
              attempt()
            } else {
              observer.on(event)
            }
          })
      }
      attempt()
      return current
    }
  }

  /// Runs the handlers on the events, the subscription and the disposal; an error a handler
  /// throws ends the sequence with it.
  public func `do`(
    onNext: ((Element) throws -> Void)? = nil,
    afterNext: ((Element) throws -> Void)? = nil,
    onError: ((any Swift.Error) throws -> Void)? = nil,
    afterError: ((any Swift.Error) throws -> Void)? = nil,
    onCompleted: (() throws -> Void)? = nil,
    afterCompleted: (() throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil,
    onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      onSubscribe?()
      let sink = EventSink<Element, Element>(observer) { event, observer in
        switch event {
        case .next(let value):
          try onNext?(value)
          observer.on(event)
          try afterNext?(value)
        case .error(let error):
          try onError?(error)
          observer.on(event)
          try afterError?(error)
        case .completed:
          try onCompleted?()
          observer.on(event)
          try afterCompleted?()
        }
      }
      let subscription = source.subscribe(sink)
      onSubscribed?()
      return Disposables.create {
        subscription.dispose()
        onDispose?()
      }
    }
  }
}

extension ObservableType where Element: Equatable {
  /// Skips an element equal to the element before.
  public func distinctUntilChanged() -> Observable<Element> { distinctUntilChanged({ $0 }, comparer: { $0 == $1 }) }
}

// MARK: - withLatestFrom

/// Pairs each element of the first sequence with the latest of the second (subscribed first);
/// an element before the second has one is dropped.
private final class WithLatestFromSink<First, Second, Result> {
  private let observer: AnyObserver<Result>
  private let resultSelector: (First, Second) throws -> Result
  private var latest: Second?

  init(observer: AnyObserver<Result>, resultSelector: @escaping (First, Second) throws -> Result) {
    self.observer = observer
    self.resultSelector = resultSelector
  }

  func first(_ event: Event<First>) {
    switch event {
    case .next(let value):
      guard let latest else { return }
      do { observer.onNext(try resultSelector(value, latest)) } catch { observer.onError(error) }
    case .error(let error): observer.onError(error)
    case .completed: observer.onCompleted()
    }
  }

  func second(_ event: Event<Second>) {
    switch event {
    case .next(let value): latest = value
    case .error(let error): observer.onError(error)
    case .completed: break
    }
  }
}

extension ObservableType {
  public func withLatestFrom<Source: ObservableConvertibleType, ResultType>(
    _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType
  ) -> Observable<ResultType> {
    let first = asObservable()
    let second = second.asObservable()
    return Observable { observer in
      let sink = WithLatestFromSink(observer: observer, resultSelector: resultSelector)
      let secondSubscription = second.subscribe { sink.second($0) }
      let firstSubscription = first.subscribe { sink.first($0) }
      return Disposables.create(firstSubscription, secondSubscription)
    }
  }

  public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Source.Element> {
    withLatestFrom(second) { $1 }
  }
}

// MARK: - flatMap, flatMapLatest, concatMap

/// Subscribes the inner sequence of each element at once and forwards all their elements;
/// completes when the source and every inner sequence have completed.
private final class FlatMapSink<Source, Inner: ObservableConvertibleType>: ObserverType {
  typealias Element = Source

  private let observer: AnyObserver<Inner.Element>
  private let selector: (Source) throws -> Inner
  /// At most `maxActive` inner sequences run at once; the others wait in `waiting`.
  private let maxActive: Int
  private var waiting: [Observable<Inner.Element>] = []
  let group = CompositeDisposable()
  private var active = 0
  private var sourceDone = false

  init(observer: AnyObserver<Inner.Element>, maxActive: Int, selector: @escaping (Source) throws -> Inner) {
    self.observer = observer
    self.maxActive = maxActive
    self.selector = selector
  }

  func on(_ event: Event<Source>) {
    switch event {
    case .next(let value):
      do {
        let inner = try selector(value).asObservable()
        if active < maxActive { subscribe(inner) } else { waiting.append(inner) }
      } catch {
        observer.onError(error)
      }
    case .error(let error): observer.onError(error)
    case .completed:
      sourceDone = true
      if active == 0 { observer.onCompleted() }
    }
  }

  private func subscribe(_ inner: Observable<Inner.Element>) {
    active += 1
    let subscription = SingleAssignmentDisposable()
    guard let key = group.insert(subscription) else { return }
    subscription.setDisposable(
      inner.subscribe { [self] event in
        guard case .completed = event else { return observer.on(event) }
        group.remove(for: key)
        if !waiting.isEmpty {
          active -= 1
          subscribe(waiting.removeFirst())
        } else {
          active -= 1
          if sourceDone, active == 0 { observer.onCompleted() }
        }
      })
  }
}

/// Follows the inner sequence of the latest element only: a new element disposes the previous
/// inner subscription before subscribing the new one.
private final class FlatMapLatestSink<Source, Inner: ObservableConvertibleType>: ObserverType {
  typealias Element = Source

  private let observer: AnyObserver<Inner.Element>
  private let selector: (Source) throws -> Inner
  let inner = SerialDisposable()
  private var latestID = 0
  private var hasLatest = false
  private var sourceDone = false

  init(observer: AnyObserver<Inner.Element>, selector: @escaping (Source) throws -> Inner) {
    self.observer = observer
    self.selector = selector
  }

  func on(_ event: Event<Source>) {
    switch event {
    case .next(let value):
      let next: Observable<Inner.Element>
      do { next = try selector(value).asObservable() } catch { return observer.onError(error) }
      latestID += 1
      hasLatest = true
      let id = latestID
      let subscription = SingleAssignmentDisposable()
      inner.disposable = subscription
      subscription.setDisposable(next.subscribe { [self] event in innerEvent(event, id: id) })
    case .error(let error): observer.onError(error)
    case .completed:
      sourceDone = true
      if !hasLatest { observer.onCompleted() }
    }
  }

  private func innerEvent(_ event: Event<Inner.Element>, id: Int) {
    guard id == latestID else { return }
    guard case .completed = event else { return observer.on(event) }
    hasLatest = false
    if sourceDone { observer.onCompleted() }
  }
}

extension ObservableType {
  public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
    -> Observable<Source.Element>
  {
    let source = asObservable()
    return Observable { observer in
      let sink = FlatMapSink(observer: observer, maxActive: .max, selector: selector)
      return Disposables.create(source.subscribe(sink), sink.group)
    }
  }

  /// Like `flatMap`, one inner sequence at a time, in the order of the elements.
  public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
    -> Observable<Source.Element>
  {
    let source = asObservable()
    return Observable { observer in
      let sink = FlatMapSink(observer: observer, maxActive: 1, selector: selector)
      return Disposables.create(source.subscribe(sink), sink.group)
    }
  }

  public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
    -> Observable<Source.Element>
  {
    let source = asObservable()
    return Observable { observer in
      let sink = FlatMapLatestSink(observer: observer, selector: selector)
      return Disposables.create(source.subscribe(sink), sink.inner)
    }
  }
}

extension ObservableType where Element: ObservableConvertibleType {
  /// The elements of all the inner sequences.
  public func merge() -> Observable<Element.Element> { flatMap { $0 } }

  /// The elements of the latest inner sequence.
  public func switchLatest() -> Observable<Element.Element> { flatMapLatest { $0 } }
}
