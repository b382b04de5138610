// Test support for the stand-ins: a scheduler on a virtual clock, advanced by hand, and
// recorders of events against it.

import Foundation
import RxSwift

/// A `SchedulerType` over a virtual clock in milliseconds. Work runs only when the test
/// advances the clock, in order of due time and, at the same time, of scheduling (as RxTest's
/// `TestScheduler`).
final class VirtualScheduler: SchedulerType {
  private final class Item {
    let time: Int
    let order: Int
    let work: () -> Void
    var isCancelled = false

    init(time: Int, order: Int, work: @escaping () -> Void) {
      self.time = time
      self.order = order
      self.work = work
    }
  }

  private(set) var clock: Int
  private var queue: [Item] = []
  private var scheduled = 0

  init(clock: Int = 0) { self.clock = clock }

  var now: RxTime { Date(timeIntervalSince1970: Double(clock) / 1000) }

  func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable) -> any Disposable {
    scheduleRelative(state, dueTime: .milliseconds(0), action: action)
  }

  func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    let result = SerialDisposable()
    let cancel = at(clock + Self.milliseconds(dueTime)) {
      if !result.isDisposed { result.disposable = action(state) }
    }
    return Disposables.create(cancel, result)
  }

  func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping (StateType) -> StateType
  ) -> any Disposable {
    let next = SerialDisposable()
    var state = state
    func tick(at time: Int) {
      next.disposable = at(time) { [self] in
        state = action(state)
        tick(at: clock + Self.milliseconds(period))
      }
    }
    tick(at: clock + Self.milliseconds(startAfter))
    return next
  }

  /// Runs `work` when the clock reaches `time`.
  @discardableResult
  func at(_ time: Int, _ work: @escaping () -> Void) -> any Disposable {
    scheduled += 1
    let item = Item(time: max(time, clock), order: scheduled, work: work)
    let index = queue.firstIndex { ($0.time, $0.order) > (item.time, item.order) } ?? queue.endIndex
    queue.insert(item, at: index)
    return Disposables.create { item.isCancelled = true }
  }

  /// Runs the work due up to `time`, then sets the clock to `time`.
  func advance(to time: Int) {
    while let first = queue.first, first.time <= time {
      queue.removeFirst()
      clock = first.time
      if !first.isCancelled { first.work() }
    }
    clock = max(clock, time)
  }

  /// Runs the work due now.
  func runNow() { advance(to: clock) }

  static func milliseconds(_ interval: RxTimeInterval) -> Int {
    switch interval {
    case .seconds(let value): value * 1_000
    case .milliseconds(let value): value
    case .microseconds(let value): value / 1_000
    case .nanoseconds(let value): value / 1_000_000
    case .never: Int.max / 2
    @unknown default: Int.max / 2
    }
  }
}

/// The events a sequence sent, each with the virtual time it came at: "210 next(2)".
final class Recorder<Element> {
  private(set) var events: [String] = []
  private let scheduler: VirtualScheduler?

  init(_ scheduler: VirtualScheduler? = nil) { self.scheduler = scheduler }

  func observer() -> AnyObserver<Element> {
    AnyObserver { [self] event in
      let text =
        switch event {
        case .next(let value): "next(\(value))"
        case .error(let error): "error(\(error))"
        case .completed: "completed"
        }
      events.append(scheduler.map { "\($0.clock) \(text)" } ?? text)
    }
  }
}

/// An ordered log of what several subscriptions saw.
final class Log {
  private(set) var lines: [String] = []

  func callAsFunction(_ line: String) { lines.append(line) }

  func clear() { lines.removeAll() }
}

/// An event of a test's hot sequence of integers (test arguments must be `Sendable`, and
/// RxSwift's `Event` is not).
enum Marble: Sendable {
  case next(Int)
  case error
  case completed

  var event: Event<Int> {
    switch self {
    case .next(let value): .next(value)
    case .error: .error(TestError())
    case .completed: .completed
    }
  }
}

/// A hot sequence on `scheduler`: each event is sent at its time, whoever listens then.
func hot(_ scheduler: VirtualScheduler, _ marbles: [(Int, Marble)]) -> PublishSubject<Int> {
  let subject = PublishSubject<Int>()
  for (time, marble) in marbles { scheduler.at(time) { subject.on(marble.event) } }
  return subject
}

/// Subscribes to what `make` makes at 200 and disposes at 1000, as RxTest's `start` does; the
/// recorded events.
func record<Element>(
  _ scheduler: VirtualScheduler, _ make: @escaping () -> Observable<Element>
) -> [String] {
  let recorder = Recorder<Element>(scheduler)
  let subscription = SerialDisposable()
  scheduler.at(200) { subscription.disposable = make().subscribe(recorder.observer()) }
  scheduler.at(1000) { subscription.dispose() }
  scheduler.advance(to: 1000)
  return recorder.events
}

struct TestError: Error, CustomStringConvertible {
  var description: String { "TestError" }
}
