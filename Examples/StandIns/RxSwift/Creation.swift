// Stand-in for RxSwift 6 (ReactiveX/RxSwift), used because RxSwift is not in this machine's
// package mirror; semantics follow RxSwift's documented behaviour (../README.md).
//
// This file: making sequences, and the operators that combine several (combineLatest, merge,
// concat, amb).

import Foundation

extension ObservableType {
  /// A sequence whose subscription runs `subscribe` with the observer.
  public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> any Disposable) -> Observable<Element> {
    Observable(subscribe)
  }

  /// One element, then completion, at subscription.
  public static func just(_ element: Element) -> Observable<Element> {
    Observable(producer: false, { observer in
      observer.onNext(element)
      observer.onCompleted()
      return Disposables.create()
    })
  }

  /// One element, then completion, sent through `scheduler`.
  public static func just(_ element: Element, scheduler: any ImmediateSchedulerType) -> Observable<Element> {
    Observable { observer in
      scheduler.schedule(()) { _ in
        observer.onNext(element)
        observer.onCompleted()
        return Disposables.create()
      }
    }
  }

  /// Completion at subscription.
  public static func empty() -> Observable<Element> {
    Observable(producer: false, { observer in
      observer.onCompleted()
      return Disposables.create()
    })
  }

  /// A sequence that never sends anything.
  public static func never() -> Observable<Element> {
    Observable(producer: false, { _ in Disposables.create() })
  }

  /// The error at subscription.
  public static func error(_ error: any Swift.Error) -> Observable<Element> {
    Observable(producer: false, { observer in
      observer.onError(error)
      return Disposables.create()
    })
  }

  /// The elements one by one through `scheduler` (by default the current thread's trampoline),
  /// then completion.
  public static func of(_ elements: Element..., scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance)
    -> Observable<Element>
  {
    sequence(elements, scheduler: scheduler)
  }

  public static func from(_ array: [Element], scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance)
    -> Observable<Element>
  {
    sequence(array, scheduler: scheduler)
  }

  public static func from<Sequence: Swift.Sequence>(
    _ sequence: Sequence, scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Observable<Element> where Sequence.Element == Element {
    self.sequence(Array(sequence), scheduler: scheduler)
  }

  /// The element if there is one, then completion.
  public static func from(optional: Element?) -> Observable<Element> {
    Observable(producer: false, { observer in
      if let optional { observer.onNext(optional) }
      observer.onCompleted()
      return Disposables.create()
    })
  }

  private static func sequence(_ elements: [Element], scheduler: any ImmediateSchedulerType) -> Observable<Element> {
    Observable { observer in
      scheduler.scheduleRecursive(0) { index, recurse in
        if index < elements.count {
          observer.onNext(elements[index])
          recurse(index + 1)
        } else {
          observer.onCompleted()
        }
      }
    }
  }

  /// The sequence `observableFactory` makes for each subscription.
  public static func deferred(_ observableFactory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
    Observable { observer in
      do {
        return try observableFactory().subscribe(observer)
      } catch {
        observer.onError(error)
        return Disposables.create()
      }
    }
  }
}

extension ObservableType where Element: FixedWidthInteger {
  /// 0 after `dueTime`, then 1, 2, … every `period` if one is given (else completion).
  public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: any SchedulerType)
    -> Observable<Element>
  {
    Observable { observer in
      guard let period else {
        return scheduler.scheduleRelative((), dueTime: dueTime) { _ in
          observer.onNext(0)
          observer.onCompleted()
          return Disposables.create()
        }
      }
      return scheduler.schedulePeriodic(Element(0), startAfter: dueTime, period: period) { count in
        observer.onNext(count)
        return count &+ 1
      }
    }
  }

  /// 0, 1, 2, … every `period`.
  public static func interval(_ period: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
    timer(period, period: period, scheduler: scheduler)
  }
}

// MARK: - combineLatest

/// combineLatest's state over type-erased sources: once every source has an element, each
/// element of any source sends the combination of the latest ones. Completes when all sources
/// have completed, or when an element arrives while the sources that have none have completed.
private final class CombineLatestSink<Result> {
  private let observer: AnyObserver<Result>
  private let combine: ([Any]) throws -> Result
  private var latest: [Any?]
  private var done: [Bool]
  private var valueCount = 0
  private var doneCount = 0

  init(arity: Int, observer: AnyObserver<Result>, combine: @escaping ([Any]) throws -> Result) {
    self.observer = observer
    self.combine = combine
    latest = Array(repeating: nil, count: arity)
    done = Array(repeating: false, count: arity)
  }

  func next(_ index: Int, _ value: Any) {
    if latest[index] == nil { valueCount += 1 }
    latest[index] = value
    if valueCount == latest.count {
      do { observer.onNext(try combine(latest.map { $0! })) } catch { observer.onError(error) }
    } else if done.indices.allSatisfy({ $0 == index || done[$0] }) {
      observer.onCompleted()
    }
  }

  func fail(_ error: any Swift.Error) { observer.onError(error) }

  func complete(_ index: Int) {
    guard !done[index] else { return }
    done[index] = true
    doneCount += 1
    if doneCount == done.count { observer.onCompleted() }
  }
}

/// The observer of one source of combineLatest.
private final class CombineLatestSlot<Element, Result>: ObserverType {
  private let sink: CombineLatestSink<Result>
  private let index: Int

  init(_ sink: CombineLatestSink<Result>, index: Int) {
    self.sink = sink
    self.index = index
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next(let value): sink.next(index, value)
    case .error(let error): sink.fail(error)
    case .completed: sink.complete(index)
    }
  }
}

private func combineLatestObservable<Result>(
  _ sources: [(CombineLatestSink<Result>, Int) -> any Disposable], combine: @escaping ([Any]) throws -> Result
) -> Observable<Result> {
  Observable { observer in
    let sink = CombineLatestSink(arity: sources.count, observer: observer, combine: combine)
    return Disposables.create(sources.enumerated().map { index, subscribe in subscribe(sink, index) })
  }
}

private func slot<Source: ObservableType, Result>(_ source: Source) -> (CombineLatestSink<Result>, Int) -> any Disposable {
  { sink, index in source.subscribe(CombineLatestSlot<Source.Element, Result>(sink, index: index)) }
}

extension ObservableType {
  public static func combineLatest<O1: ObservableType, O2: ObservableType>(
    _ source1: O1, _ source2: O2, resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
  ) -> Observable<Element> {
    combineLatestObservable([slot(source1), slot(source2)]) { values in
      try resultSelector(values[0] as! O1.Element, values[1] as! O2.Element)
    }
  }

  public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
    _ source1: O1, _ source2: O2, _ source3: O3,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
  ) -> Observable<Element> {
    combineLatestObservable([slot(source1), slot(source2), slot(source3)]) { values in
      try resultSelector(values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element)
    }
  }

  public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
  ) -> Observable<Element> {
    combineLatestObservable([slot(source1), slot(source2), slot(source3), slot(source4)]) { values in
      try resultSelector(
        values[0] as! O1.Element, values[1] as! O2.Element, values[2] as! O3.Element, values[3] as! O4.Element)
    }
  }

  /// The latest elements of all the sources, combined by `resultSelector`.
  public static func combineLatest<Collection: Swift.Collection>(
    _ collection: Collection, resultSelector: @escaping ([Collection.Element.Element]) throws -> Element
  ) -> Observable<Element> where Collection.Element: ObservableType {
    combineLatestObservable(collection.map { slot($0) }) { values in
      try resultSelector(values.map { $0 as! Collection.Element.Element })
    }
  }
}

extension ObservableType where Element == Any {
  public static func combineLatest<O1: ObservableType, O2: ObservableType>(_ source1: O1, _ source2: O2)
    -> Observable<(O1.Element, O2.Element)>
  {
    Observable.combineLatest(source1, source2) { ($0, $1) }
  }

  public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
    _ source1: O1, _ source2: O2, _ source3: O3
  ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
    Observable.combineLatest(source1, source2, source3) { ($0, $1, $2) }
  }

  public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
    Observable.combineLatest(source1, source2, source3, source4) { ($0, $1, $2, $3) }
  }
}

extension ObservableType {
  /// The latest elements of all the sources, as arrays.
  public static func combineLatest<Collection: Swift.Collection>(_ collection: Collection) -> Observable<[Element]>
  where Collection.Element: ObservableType, Collection.Element.Element == Element {
    Observable<[Element]>.combineLatest(collection) { $0 }
  }
}

// MARK: - merge, concat, amb

/// Forwards the elements of all its sources; completes when all have completed.
private final class MergeSink<Element>: ObserverType {
  private let observer: AnyObserver<Element>
  private var active: Int

  init(observer: AnyObserver<Element>, count: Int) {
    self.observer = observer
    active = count
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next, .error: observer.on(event)
    case .completed:
      active -= 1
      if active == 0 { observer.onCompleted() }
    }
  }
}

extension ObservableType {
  /// The elements of all `sources` as they come.
  public static func merge<Collection: Swift.Collection>(_ sources: Collection) -> Observable<Element>
  where Collection.Element == Observable<Element> {
    let sources = Array(sources)
    return Observable { observer in
      guard !sources.isEmpty else {
        observer.onCompleted()
        return Disposables.create()
      }
      let sink = MergeSink(observer: observer, count: sources.count)
      let group = CompositeDisposable()
      for source in sources { _ = group.insert(source.subscribe(sink)) }
      return group
    }
  }

  public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
    merge(sources[...])
  }

  public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
    merge(sources[...])
  }
}

/// Subscribes the sources one after the other. A source that completes during its own
/// subscription has its successor subscribed after that subscription returns, not inside it.
private final class ConcatSink<Element>: ObserverType {
  private let observer: AnyObserver<Element>
  private var sources: IndexingIterator<[Observable<Element>]>
  let current = SerialDisposable()
  private var subscribing = false
  private var moveRequested = false

  init(observer: AnyObserver<Element>, sources: [Observable<Element>]) {
    self.observer = observer
    self.sources = sources.makeIterator()
  }

  func moveNext() {
    moveRequested = true
    guard !subscribing else { return }
    subscribing = true
    while moveRequested, !current.isDisposed {
      moveRequested = false
      guard let source = sources.next() else {
        observer.onCompleted()
        break
      }
      let subscription = SingleAssignmentDisposable()
      current.disposable = subscription
      subscription.setDisposable(source.subscribe(self))
    }
    subscribing = false
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next, .error: observer.on(event)
    case .completed: moveNext()
    }
  }
}

extension ObservableType {
  /// The elements of each sequence in turn, the next one subscribed when the one before has
  /// completed.
  public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
  where Sequence.Element == Observable<Element> {
    let sources = Array(sequence)
    return Observable { observer in
      let sink = ConcatSink(observer: observer, sources: sources)
      sink.moveNext()
      return sink.current
    }
  }

  public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
    concat(sources)
  }

  /// This sequence's elements, then `second`'s.
  public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
  where Source.Element == Element {
    Observable.concat([asObservable(), second.asObservable()])
  }
}

/// Mirrors the first source to send an event and disposes the others.
private final class AmbSink<Element> {
  private let observer: AnyObserver<Element>
  var subscriptions: [SingleAssignmentDisposable] = []
  private var winner: Int?

  init(observer: AnyObserver<Element>) { self.observer = observer }

  func on(_ event: Event<Element>, from index: Int) {
    if winner == nil {
      winner = index
      for (other, subscription) in subscriptions.enumerated() where other != index { subscription.dispose() }
    }
    if winner == index { observer.on(event) }
  }
}

extension ObservableType {
  /// The sequence of whichever of `sequence` sends an event first.
  public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
  where Sequence.Element == Observable<Element> {
    let sources = Array(sequence)
    return Observable { observer in
      let sink = AmbSink(observer: observer)
      sink.subscriptions = sources.map { _ in SingleAssignmentDisposable() }
      for (index, source) in sources.enumerated() {
        sink.subscriptions[index].setDisposable(source.subscribe { event in sink.on(event, from: index) })
      }
      return Disposables.create(sink.subscriptions)
    }
  }

  /// This sequence or `right`, whichever sends an event first.
  public func amb<O2: ObservableType>(_ right: O2) -> Observable<Element> where O2.Element == Element {
    Observable.amb([asObservable(), right.asObservable()])
  }
}
