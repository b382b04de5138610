// The RxSwift and RxRelay stand-ins against RxSwift's documented behaviour (the timings of
// throttle are those of RxSwift's own Observable+ThrottleTests, in milliseconds).

import RxRelay
import RxSwift
import Testing

@Suite struct RxSwiftStandInTests {
  @Test func combineLatestCombinesTheLatestOfEachOnceBothHaveOne() {
    let a = PublishSubject<Int>()
    let b = PublishSubject<Int>()
    let recorder = Recorder<Int>()
    _ = Observable.combineLatest(a, b) { $0 + $1 }.subscribe(recorder.observer())
    a.onNext(1)
    b.onNext(10)
    a.onNext(2)
    b.onCompleted()
    a.onNext(3)
    #expect(recorder.events == ["next(11)", "next(12)", "next(13)"])
    a.onCompleted()
    #expect(recorder.events.last == "completed")
  }

  /// `Observable.of` runs on the current thread's trampoline: two of them combined interleave,
  /// as in RxSwift, instead of the first running to its end before the second starts.
  @Test func sequencesOnTheTrampolineInterleave() {
    var combined: [String] = []
    _ = Observable.combineLatest(Observable.of(1, 2), Observable.of(10, 20))
      .subscribe(onNext: { combined.append("\($0.0)-\($0.1)") })
    #expect(combined == ["1-10", "2-10", "2-20"])
  }

  @Test func distinctUntilChangedSkipsRepeats() {
    var equal: [Int] = []
    _ = Observable.from([1, 1, 2, 2, 1]).distinctUntilChanged().subscribe(onNext: { equal.append($0) })
    #expect(equal == [1, 2, 1])
    var sameParity: [Int] = []
    _ = Observable.from([1, 3, 4, 6, 7]).distinctUntilChanged { $0 % 2 == $1 % 2 }
      .subscribe(onNext: { sameParity.append($0) })
    #expect(sameParity == [1, 4, 7])
  }

  @Test func skipDropsTheBehaviorRelaysCurrentValue() {
    let relay = BehaviorRelay(value: "a")
    var seen: [String] = []
    _ = relay.skip(1).subscribe(onNext: { seen.append($0) })
    relay.accept("b")
    #expect(seen == ["b"])
  }

  @Test func behaviorRelayReplaysItsValueToEachNewObserver() {
    let relay = BehaviorRelay(value: 1)
    relay.accept(2)
    var first: [Int] = []
    _ = relay.subscribe(onNext: { first.append($0) })
    relay.accept(3)
    var second: [Int] = []
    _ = relay.asObservable().subscribe(onNext: { second.append($0) })
    #expect(first == [2, 3])
    #expect(second == [3])
    #expect(relay.value == 3)
  }

  @Test func bindToAnOptionalRelayWrapsTheElements() {
    let user = BehaviorRelay<String?>(value: nil)
    let subscription = Observable.just("ann").bind(to: user)
    #expect(user.value == "ann")
    subscription.dispose()
  }

  @Test func withLatestFromPairsWithTheLatestOfTheSecond() {
    let taps = PublishRelay<Void>()
    let text = PublishSubject<String>()
    var seen: [String] = []
    _ = taps.withLatestFrom(text).subscribe(onNext: { seen.append($0) })
    var paired: [String] = []
    _ = taps.withLatestFrom(text) { _, text in text.uppercased() }.subscribe(onNext: { paired.append($0) })
    taps.accept(())
    text.onNext("a")
    text.onNext("b")
    taps.accept(())
    #expect(seen == ["b"])
    #expect(paired == ["B"])
  }

  @Test func flatMapLatestDisposesThePreviousInnerBeforeSubscribingTheNext() {
    let outer = PublishSubject<Int>()
    let inners = [PublishSubject<String>(), PublishSubject<String>()]
    let log = Log()
    let subscription = outer.flatMapLatest { index in
      inners[index].do(onSubscribe: { log("subscribe \(index)") }, onDispose: { log("dispose \(index)") })
    }
    .subscribe(onNext: { log("next \($0)") })
    outer.onNext(0)
    inners[0].onNext("a")
    outer.onNext(1)
    inners[0].onNext("stale")
    inners[1].onNext("b")
    #expect(log.lines == ["subscribe 0", "next a", "dispose 0", "subscribe 1", "next b"])
    #expect(!inners[0].hasObservers)
    subscription.dispose()
    #expect(!inners[1].hasObservers)
  }

  /// RxSwift's Observable+ThrottleTests, with milliseconds for its virtual ticks: subscribed at
  /// 200, the hot source's events at their times.
  @Test(arguments: [
    (
      false, [(150, Marble.next(1)), (210, .next(2)), (250, .next(3)), (310, .next(4)), (350, .next(5)), (410, .next(6)),
              (450, .next(7)), (500, .completed)],
      ["210 next(2)", "410 next(6)", "500 completed"]
    ),
    (
      true, [(150, Marble.next(1)), (210, .next(2)), (250, .next(3)), (310, .next(4)), (350, .next(5)), (410, .next(6)),
             (450, .next(7)), (500, .completed)],
      ["210 next(2)", "410 next(6)", "610 next(7)", "610 completed"]
    ),
    (
      true, [(150, Marble.next(1)), (210, .next(2)), (250, .next(3)), (310, .next(4)), (350, .next(5)), (410, .next(6)),
             (450, .next(7)), (900, .completed)],
      ["210 next(2)", "410 next(6)", "610 next(7)", "900 completed"]
    ),
    (
      true, [(150, Marble.next(1)), (210, .next(2)), (250, .next(3)), (310, .next(4)), (350, .next(5)),
             (410, .error), (450, .next(7))],
      ["210 next(2)", "410 error(TestError)"]
    ),
    (
      true, [(150, Marble.next(1)), (210, .next(2)), (250, .next(3)), (310, .next(4)), (350, .next(5)), (410, .next(6)),
             (450, .next(7))],
      ["210 next(2)", "410 next(6)", "610 next(7)"]
    ),
  ] as [(Bool, [(Int, Marble)], [String])])
  func throttleTiming(latest: Bool, source: [(Int, Marble)], expected: [String]) {
    let scheduler = VirtualScheduler()
    let xs = hot(scheduler, source)
    let events = record(scheduler) { xs.throttle(.milliseconds(200), latest: latest, scheduler: scheduler) }
    #expect(events == expected)
  }

  @Test(arguments: [
    (
      20, [(150, Marble.next(1)), (250, .next(2)), (350, .next(3)), (450, .next(4)), (550, .completed)],
      ["270 next(2)", "370 next(3)", "470 next(4)", "550 completed"]
    ),
    (
      100, [(210, Marble.next(1)), (220, .next(2)), (400, .next(3)), (450, .completed)],
      ["320 next(2)", "450 next(3)", "450 completed"]
    ),
    (200, [(250, Marble.next(2)), (300, .next(3)), (350, .next(4)), (550, .completed)], ["550 next(4)", "550 completed"]),
    (100, [(250, Marble.next(2)), (300, .error)], ["300 error(TestError)"]),
  ] as [(Int, [(Int, Marble)], [String])])
  func debounceTiming(dueTime: Int, source: [(Int, Marble)], expected: [String]) {
    let scheduler = VirtualScheduler()
    let xs = hot(scheduler, source)
    let events = record(scheduler) { xs.debounce(.milliseconds(dueTime), scheduler: scheduler) }
    #expect(events == expected)
  }

  @Test(arguments: [
    ([(210, Marble.next(1)), (250, .next(2)), (300, .completed)], ["310 next(1)", "350 next(2)", "400 completed"]),
    ([(210, Marble.next(1)), (250, .error)], ["250 error(TestError)"]),
  ] as [([(Int, Marble)], [String])])
  func delayShiftsElementsButNotErrors(source: [(Int, Marble)], expected: [String]) {
    let scheduler = VirtualScheduler()
    let xs = hot(scheduler, source)
    #expect(record(scheduler) { xs.delay(.milliseconds(100), scheduler: scheduler) } == expected)
  }

  @Test func intervalTicksEveryPeriod() {
    let scheduler = VirtualScheduler()
    let events = record(scheduler) { Observable<Int>.interval(.milliseconds(100), scheduler: scheduler).take(3) }
    #expect(events == ["300 next(0)", "400 next(1)", "500 next(2)", "500 completed"])
  }

  @Test func observeOnDeliversThroughTheSchedulerInOrder() {
    let scheduler = VirtualScheduler()
    var seen: [Int] = []
    _ = Observable.from([1, 2, 3]).observe(on: scheduler).subscribe(onNext: { seen.append($0) })
    #expect(seen.isEmpty)
    scheduler.runNow()
    #expect(seen == [1, 2, 3])
  }

  @Test(arguments: [
    ("one", "success(1)"),
    ("none", "failure(\(RxError.noElements))"),
    ("two", "failure(\(RxError.moreThanOneElement))"),
    ("error", "failure(TestError)"),
  ])
  func asSingle(source: String, expected: String) {
    let sources: [String: Observable<Int>] = [
      "one": .just(1), "none": .empty(), "two": .of(1, 2), "error": .error(TestError()),
    ]
    var outcome = ""
    _ = sources[source]!.asSingle()
      .subscribe(onSuccess: { outcome = "success(\($0))" }, onFailure: { outcome = "failure(\($0))" })
    #expect(outcome == expected)
  }

  @Test func asSingleSucceedsOnlyAtCompletionAndAsMaybeCompletesEmpty() {
    let subject = PublishSubject<Int>()
    var outcome: [String] = []
    _ = subject.asSingle().subscribe(onSuccess: { outcome.append("success \($0)") })
    subject.onNext(7)
    #expect(outcome.isEmpty)
    subject.onCompleted()
    #expect(outcome == ["success 7"])
    var maybe: [String] = []
    _ = Observable<Int>.empty().asMaybe()
      .subscribe(onSuccess: { maybe.append("success \($0)") }, onCompleted: { maybe.append("completed") })
    #expect(maybe == ["completed"])
  }

  @Test func singleCreateAndDisposal() {
    var disposed = false
    var results: [String] = []
    let single = Single<Int>.create { single in
      single(.success(1))
      single(.success(2))
      return Disposables.create { disposed = true }
    }
    _ = single.map { $0 * 10 }.subscribe(onSuccess: { results.append("\($0)") })
    #expect(results == ["10"])
    #expect(disposed)
  }

  @Test func shareWhileConnectedReplaysToLateObserversAndReconnectsAfterTheEnd() {
    var subscriptions = 0
    let source = PublishSubject<Int>()
    let shared = Observable.deferred {
      subscriptions += 1
      return source.asObservable()
    }
    .share(replay: 1, scope: .whileConnected)
    var first: [Int] = []
    let a = shared.subscribe(onNext: { first.append($0) })
    source.onNext(1)
    var second: [Int] = []
    let b = shared.subscribe(onNext: { second.append($0) })
    #expect(first == [1] && second == [1] && subscriptions == 1)
    a.dispose()
    b.dispose()
    var third: [Int] = []
    _ = shared.subscribe(onNext: { third.append($0) })
    #expect(third.isEmpty && subscriptions == 2)
  }

  @Test func disposablesDisposeOnce() {
    var count = 0
    let once = Disposables.create { count += 1 }
    let serial = SerialDisposable()
    serial.disposable = once
    serial.disposable = Disposables.create()
    once.dispose()
    #expect(count == 1 && once.isDisposed)
    let composite = CompositeDisposable()
    let key = composite.insert(Disposables.create { count += 10 })
    composite.dispose()
    #expect(count == 11 && key != nil)
    #expect(composite.insert(Disposables.create { count += 100 }) == nil && count == 111)
  }
}
