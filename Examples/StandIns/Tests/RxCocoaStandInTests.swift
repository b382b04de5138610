// The RxCocoa stand-in: a Driver observes on the scheduler `SharingScheduler.make()` gave when
// it was made, and shares with a replay of one. `SharingScheduler` is global, so these tests
// run one at a time.

import Foundation
import RxCocoa
import RxRelay
import RxSwift
import Testing

@Suite(.serialized) struct RxCocoaStandInTests {
  @Test func aDriverMadeUnderTheMockDeliversOnTheMockedScheduler() {
    let scheduler = VirtualScheduler()
    let relay = BehaviorRelay(value: 1)
    var driver: Driver<Int>?
    SharingScheduler.mock(scheduler: scheduler) { driver = relay.asDriver() }
    var first: [Int] = []
    _ = driver?.asObservable().subscribe(onNext: { first.append($0) })
    #expect(first.isEmpty)
    scheduler.runNow()
    #expect(first == [1])
    relay.accept(2)
    #expect(first == [1])
    scheduler.runNow()
    #expect(first == [1, 2])
    // The share replays the latest element at once to a later subscriber.
    var second: [Int] = []
    _ = driver?.asObservable().subscribe(onNext: { second.append($0) })
    #expect(second == [2])
  }

  @Test func asDriverEndsWithItsReturnValueInsteadOfAnError() {
    let scheduler = VirtualScheduler()
    let subject = PublishSubject<String>()
    var driver: Driver<String>?
    SharingScheduler.mock(makeScheduler: { scheduler }) {
      driver = subject.map { "www:\($0)" }.asDriver(onErrorJustReturn: "")
    }
    let recorder = Recorder<String>(scheduler)
    _ = driver?.asObservable().subscribe(recorder.observer())
    scheduler.advance(to: 10)
    subject.onNext("a")
    subject.onError(TestError())
    scheduler.runNow()
    #expect(recorder.events == ["10 next(www:a)", "10 next()", "10 completed"])
  }

  /// What a Driver made outside a mock observes on (`MainScheduler()`, RxCocoa's default): off
  /// the main queue, it delivers later, on the main queue. (The default itself is not read
  /// here: another test's mock may be in force while this one runs.)
  @Test func theMainSchedulerDeliversLaterOnTheMainQueueFromAnotherThread() async throws {
    try #require(!MainQueue.isCurrent)
    let seen = Seen()
    // Hold the main queue (on Linux another thread serves it) until the subscription is made.
    let hold = DispatchSemaphore(value: 0)
    DispatchQueue.main.async { hold.wait() }
    let subscription = Observable.just("x").observe(on: MainScheduler())
      .subscribe(onNext: { seen.add($0, onMain: MainQueue.isCurrent) })
    #expect(seen.values.isEmpty)
    hold.signal()
    // Up to a minute on a loaded machine; at once, most often.
    for _ in 0..<6000 where seen.values.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    #expect(seen.values == ["x"])
    #expect(seen.allOnMain)
    subscription.dispose()
  }

  @MainActor @Test func theMainSchedulerRunsAtOnceOnTheMainQueue() {
    #expect(MainQueue.isCurrent)
    var seen: [Int] = []
    _ = Observable.just(1).observe(on: MainScheduler.instance).subscribe(onNext: { seen.append($0) })
    #expect(seen == [1])
  }

  /// `drive` asks for the main thread (checked on Apple platforms, as RxCocoa does).
  @MainActor @Test func driveSendsToARelay() {
    let scheduler = VirtualScheduler()
    let source = BehaviorRelay(value: 3)
    let target = BehaviorRelay(value: 0)
    var driver: Driver<Int>?
    SharingScheduler.mock(scheduler: scheduler) { driver = source.asDriver().map { $0 * 2 }.distinctUntilChanged() }
    _ = driver?.drive(target)
    scheduler.runNow()
    #expect(target.value == 6)
  }
}

/// Whether code runs on the main queue (on Linux the main queue's work does not run on the main
/// thread, so `Thread.isMainThread` cannot tell).
private enum MainQueue {
  static let key: DispatchSpecificKey<Int> = {
    let key = DispatchSpecificKey<Int>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

/// What a subscription on the main queue saw, read from the test's thread.
private final class Seen: @unchecked Sendable {
  private let lock = NSLock()
  private var storedValues: [String] = []
  private var onMain = true

  func add(_ value: String, onMain: Bool) {
    lock.lock()
    storedValues.append(value)
    self.onMain = self.onMain && onMain
    lock.unlock()
  }

  var values: [String] {
    lock.lock()
    defer { lock.unlock() }
    return storedValues
  }

  var allOnMain: Bool {
    lock.lock()
    defer { lock.unlock() }
    return onMain
  }
}
