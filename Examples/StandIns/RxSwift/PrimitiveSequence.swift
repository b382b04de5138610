// Stand-in for RxSwift 6 (ReactiveX/RxSwift), used because RxSwift is not in this machine's
// package mirror; semantics follow RxSwift's documented behaviour (../README.md).
//
// This file: the traits Single and Maybe, and `asSingle()` / `asMaybe()`.

/// A sequence with a trait that restricts its events (RxSwift's `PrimitiveSequence`).
public struct PrimitiveSequence<Trait, Element> {
  let source: Observable<Element>

  init(raw: Observable<Element>) { source = raw }
}

/// A type that is a primitive sequence.
public protocol PrimitiveSequenceType {
  associatedtype Trait
  associatedtype Element

  var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
  public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
  public func asObservable() -> Observable<Element> { source }
}

/// The trait of a sequence of exactly one element or an error.
public enum SingleTrait {}
/// Exactly one element, or an error.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>
/// What a single ends with.
public typealias SingleEvent<Element> = Result<Element, any Swift.Error>

/// The trait of a sequence of at most one element, or an error.
public enum MaybeTrait {}
/// One element, no element, or an error.
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// What a maybe ends with.
public enum MaybeEvent<Element> {
  case success(Element)
  case error(any Swift.Error)
  case completed
}

// MARK: - Single

extension PrimitiveSequence where Trait == SingleTrait {
  public typealias SingleObserver = (SingleEvent<Element>) -> Void

  /// A single whose subscription runs `subscribe` with the function to end it by.
  public static func create(subscribe: @escaping (@escaping SingleObserver) -> any Disposable) -> Single<Element> {
    Single(
      raw: Observable.create { observer in
        subscribe { event in
          switch event {
          case .success(let element):
            observer.onNext(element)
            observer.onCompleted()
          case .failure(let error):
            observer.onError(error)
          }
        }
      })
  }

  public static func just(_ element: Element) -> Single<Element> { Single(raw: .just(element)) }

  public static func just(_ element: Element, scheduler: any ImmediateSchedulerType) -> Single<Element> {
    Single(raw: .just(element, scheduler: scheduler))
  }

  public static func error(_ error: any Swift.Error) -> Single<Element> { Single(raw: .error(error)) }

  public static func never() -> Single<Element> { Single(raw: .never()) }

  public static func deferred(_ singleFactory: @escaping () throws -> Single<Element>) -> Single<Element> {
    Single(raw: .deferred { try singleFactory().asObservable() })
  }

  /// Subscribes a handler of the one event the single ends with.
  public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> any Disposable {
    var ended = false
    return source.subscribe { event in
      guard !ended else { return }
      switch event {
      case .next(let element):
        ended = true
        observer(.success(element))
      case .error(let error):
        ended = true
        observer(.failure(error))
      case .completed:
        ended = true
        observer(.failure(RxError.noElements))
      }
    }
  }

  /// Subscribes handlers of the element, the error and the disposal. An error without
  /// `onFailure` is reported as unhandled.
  public func subscribe(
    onSuccess: ((Element) -> Void)? = nil,
    onFailure: ((any Swift.Error) -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    let disposed: any Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
    let subscription = subscribe { (event: SingleEvent<Element>) in
      switch event {
      case .success(let element): onSuccess?(element)
      case .failure(let error):
        if let onFailure { onFailure(error) } else { reportUnhandledError(error) }
      }
      disposed.dispose()
    }
    return Disposables.create(subscription, disposed)
  }

  /// `subscribe(onSuccess:onFailure:onDisposed:)` with an unretained `object` passed to each
  /// handler.
  public func subscribe<Object: AnyObject>(
    with object: Object,
    onSuccess: ((Object, Element) -> Void)? = nil,
    onFailure: ((Object, any Swift.Error) -> Void)? = nil,
    onDisposed: ((Object) -> Void)? = nil
  ) -> any Disposable {
    subscribe(
      onSuccess: { [weak object] element in if let object { onSuccess?(object, element) } },
      onFailure: { [weak object] error in if let object { onFailure?(object, error) } },
      onDisposed: { [weak object] in if let object { onDisposed?(object) } })
  }

  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
    Single<Result>(raw: source.map(transform))
  }

  public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
    Single<Result>(raw: source.flatMap { try selector($0).asObservable() })
  }

  public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
    Maybe<Result>(raw: source.flatMap { try selector($0).asObservable() })
  }

  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
    Maybe<Result>(raw: source.compactMap(transform))
  }

  public func `catch`(_ handler: @escaping (any Swift.Error) throws -> Single<Element>) -> Single<Element> {
    Single(raw: source.catch { try handler($0).asObservable() })
  }

  public func catchAndReturn(_ element: Element) -> Single<Element> { Single(raw: source.catchAndReturn(element)) }

  public func retry(_ maxAttemptCount: Int) -> Single<Element> { Single(raw: source.retry(maxAttemptCount)) }

  public func `do`(
    onSuccess: ((Element) throws -> Void)? = nil,
    afterSuccess: ((Element) throws -> Void)? = nil,
    onError: ((any Swift.Error) throws -> Void)? = nil,
    afterError: ((any Swift.Error) throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil,
    onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Single<Element> {
    Single(
      raw: source.do(
        onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
        onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
  }

  public func observe(on scheduler: any ImmediateSchedulerType) -> Single<Element> {
    Single(raw: source.observe(on: scheduler))
  }

  public func subscribe(on scheduler: any ImmediateSchedulerType) -> Single<Element> {
    Single(raw: source.subscribe(on: scheduler))
  }

  public func delay(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Single<Element> {
    Single(raw: source.delay(dueTime, scheduler: scheduler))
  }

  /// The element as a maybe.
  public func asMaybe() -> Maybe<Element> { Maybe(raw: source) }
}

// MARK: - Maybe

extension PrimitiveSequence where Trait == MaybeTrait {
  public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

  /// A maybe whose subscription runs `subscribe` with the function to end it by.
  public static func create(subscribe: @escaping (@escaping MaybeObserver) -> any Disposable) -> Maybe<Element> {
    Maybe(
      raw: Observable.create { observer in
        subscribe { event in
          switch event {
          case .success(let element):
            observer.onNext(element)
            observer.onCompleted()
          case .error(let error): observer.onError(error)
          case .completed: observer.onCompleted()
          }
        }
      })
  }

  public static func just(_ element: Element) -> Maybe<Element> { Maybe(raw: .just(element)) }
  public static func empty() -> Maybe<Element> { Maybe(raw: .empty()) }
  public static func error(_ error: any Swift.Error) -> Maybe<Element> { Maybe(raw: .error(error)) }
  public static func never() -> Maybe<Element> { Maybe(raw: .never()) }

  /// Subscribes a handler of the one event the maybe ends with.
  public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> any Disposable {
    var ended = false
    return source.subscribe { event in
      guard !ended else { return }
      ended = true
      switch event {
      case .next(let element): observer(.success(element))
      case .error(let error): observer(.error(error))
      case .completed: observer(.completed)
      }
    }
  }

  /// Subscribes handlers of the element, the error, the completion without element and the
  /// disposal.
  public func subscribe(
    onSuccess: ((Element) -> Void)? = nil,
    onError: ((any Swift.Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    let disposed: any Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
    let subscription = subscribe { (event: MaybeEvent<Element>) in
      switch event {
      case .success(let element): onSuccess?(element)
      case .error(let error):
        if let onError { onError(error) } else { reportUnhandledError(error) }
      case .completed: onCompleted?()
      }
      disposed.dispose()
    }
    return Disposables.create(subscription, disposed)
  }

  public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<Result> {
    Maybe<Result>(raw: source.map(transform))
  }

  public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
    Maybe<Result>(raw: source.flatMap { try selector($0).asObservable() })
  }

  public func catchAndReturn(_ element: Element) -> Maybe<Element> { Maybe(raw: source.catchAndReturn(element)) }
}

// MARK: - asSingle, asMaybe

extension ObservableType {
  /// The one element of this sequence, sent when it completes; `RxError.noElements` if it
  /// completes without one, `RxError.moreThanOneElement` at a second element.
  public func asSingle() -> Single<Element> {
    Single(raw: atMostOne(requireOne: true))
  }

  /// The element of this sequence if it has one, sent when it completes;
  /// `RxError.moreThanOneElement` at a second element.
  public func asMaybe() -> Maybe<Element> {
    Maybe(raw: atMostOne(requireOne: false))
  }

  private func atMostOne(requireOne: Bool) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      var element: Element?
      return source.subscribe { event in
        switch event {
        case .next(let value):
          if element != nil { return observer.onError(RxError.moreThanOneElement) }
          element = value
        case .error(let error): observer.onError(error)
        case .completed:
          if let element {
            observer.onNext(element)
            observer.onCompleted()
          } else if requireOne {
            observer.onError(RxError.noElements)
          } else {
            observer.onCompleted()
          }
        }
      }
    }
  }
}
