// Stand-in for RxSwift 6 (ReactiveX/RxSwift), used because RxSwift is not in this machine's
// package mirror; semantics follow RxSwift's documented behaviour (../README.md).
//
// This file: the scheduler protocols, recursive scheduling, the current thread's trampoline
// and the main scheduler.

import Dispatch
import Foundation

public typealias RxTimeInterval = DispatchTimeInterval
public typealias RxTime = Date

/// Runs work: at once, or later on some queue.
public protocol ImmediateSchedulerType {
  func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable) -> any Disposable
}

/// A scheduler with a clock: runs work after a delay and periodically.
public protocol SchedulerType: ImmediateSchedulerType {
  var now: RxTime { get }

  func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable

  func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> any Disposable
}

extension SchedulerType {
  /// Periodic work from relative scheduling: first after `startAfter`, then every `period`.
  public func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> any Disposable {
    let ticker = PeriodicTicker(scheduler: self, state: state, period: period, action: action)
    ticker.tick(after: startAfter)
    return ticker
  }
}

private final class PeriodicTicker<StateType>: Disposable {
  private let scheduler: any SchedulerType
  private let period: RxTimeInterval
  private let action: (StateType) -> StateType
  private var state: StateType
  private let next = SerialDisposable()

  init(scheduler: any SchedulerType, state: StateType, period: RxTimeInterval, action: @escaping (StateType) -> StateType) {
    self.scheduler = scheduler
    self.state = state
    self.period = period
    self.action = action
  }

  func tick(after delay: RxTimeInterval) {
    next.disposable = scheduler.scheduleRelative((), dueTime: delay) { [weak self] _ in
      guard let self, !self.next.isDisposed else { return Disposables.create() }
      self.state = self.action(self.state)
      self.tick(after: self.period)
      return Disposables.create()
    }
  }

  func dispose() { next.dispose() }
}

extension ImmediateSchedulerType {
  /// Runs `action`, which may ask to run again with a new state by calling `recurse`; every
  /// run goes through `schedule`. Disposing stops the runs not yet made.
  public func scheduleRecursive<State>(
    _ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
  ) -> any Disposable {
    let recursion = RecursiveScheduling(scheduler: self, action: action)
    recursion.schedule(state)
    return recursion
  }
}

private final class RecursiveScheduling<State>: Disposable {
  private let scheduler: any ImmediateSchedulerType
  private let action: (State, (State) -> Void) -> Void
  private var pending: [Int: any Disposable] = [:]
  private var nextID = 0
  private var isDisposed = false

  init(scheduler: any ImmediateSchedulerType, action: @escaping (State, (State) -> Void) -> Void) {
    self.scheduler = scheduler
    self.action = action
  }

  func schedule(_ state: State) {
    guard !isDisposed else { return }
    let id = nextID
    nextID += 1
    var ran = false
    let scheduled = scheduler.schedule(state) { [self] state in
      ran = true
      pending[id] = nil
      if !isDisposed { action(state, schedule) }
      return Disposables.create()
    }
    if !ran { pending[id] = scheduled }
  }

  func dispose() {
    isDisposed = true
    let pending = pending
    self.pending = [:]
    for scheduled in pending.values { scheduled.dispose() }
  }
}

/// The current thread's trampoline: the first `schedule` on a thread runs its action at once
/// and then, in order, the actions scheduled meanwhile on the same thread; a `schedule` made
/// while the trampoline runs is queued. Operators' subscriptions and `Observable.of`/`from`
/// run on it, as in RxSwift.
public final class CurrentThreadScheduler: ImmediateSchedulerType, Sendable {
  public static let instance = CurrentThreadScheduler()

  private static let queueKey = "RxSwiftStandIn.CurrentThreadScheduler.queue"

  private init() {}

  /// Whether no trampoline runs on this thread (the next `schedule` runs at once).
  public static var isScheduleRequired: Bool { Thread.current.threadDictionary[queueKey] == nil }

  public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable) -> any Disposable {
    let storage = Thread.current.threadDictionary
    if let queue = storage[Self.queueKey] as? TrampolineQueue {
      let item = TrampolineItem { action(state) }
      queue.items.append(item)
      return item
    }
    let queue = TrampolineQueue()
    storage[Self.queueKey] = queue
    defer { storage.removeObject(forKey: Self.queueKey) }
    let disposable = action(state)
    while !queue.items.isEmpty {
      queue.items.removeFirst().run()
    }
    return disposable
  }
}

private final class TrampolineQueue {
  var items: [TrampolineItem] = []
}

private final class TrampolineItem: Cancelable {
  private var action: (() -> any Disposable)?
  private let result = SingleAssignmentDisposable()

  init(_ action: @escaping () -> any Disposable) { self.action = action }

  var isDisposed: Bool { result.isDisposed }

  func run() {
    guard let action, !result.isDisposed else { return }
    self.action = nil
    result.setDisposable(action())
  }

  func dispose() {
    action = nil
    result.dispose()
  }
}

/// Work on the main queue. `schedule` runs the action at once when called on the main queue
/// with nothing of this scheduler still queued there; otherwise it goes through
/// `DispatchQueue.main.async`, as RxSwift's `MainScheduler` does. (The main queue is told by a
/// queue-specific mark, as RxSwift does: on Linux, once `dispatch_main` runs, the main queue's
/// work runs on a thread that is not the main thread.)
public final class MainScheduler: SchedulerType {
  /// The shared main scheduler.
  nonisolated(unsafe) public static let instance = MainScheduler()

  /// A main scheduler that always dispatches asynchronously (RxSwift's is a
  /// `SerialDispatchQueueScheduler` on the main queue; this one is a `MainScheduler`).
  nonisolated(unsafe) public static let asyncInstance = MainScheduler(alwaysAsync: true)

  private let alwaysAsync: Bool
  private let enqueued = EnqueuedCount()

  public convenience init() { self.init(alwaysAsync: false) }

  private init(alwaysAsync: Bool) { self.alwaysAsync = alwaysAsync }

  public var now: RxTime { Date() }

  /// Traps when not on the main queue.
  public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
    if !MainQueueMark.isCurrent {
      fatalError(errorMessage ?? "Executing on background thread. Please use `MainScheduler.instance.schedule` to schedule work on main thread.")
    }
  }

  /// Traps when not on the main thread (not checked on Linux, as in RxSwift).
  public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
    #if !os(Linux)
      if !Thread.isMainThread { fatalError(errorMessage ?? "Running on background thread.") }
    #endif
  }

  public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> any Disposable) -> any Disposable {
    let alreadyQueued = enqueued.increment()
    if !alwaysAsync, alreadyQueued == 0, MainQueueMark.isCurrent {
      let disposable = action(state)
      enqueued.decrement()
      return disposable
    }
    let cancel = SingleAssignmentDisposable()
    let counter = enqueued
    let job = MainQueueJob {
      if !cancel.isDisposed { cancel.setDisposable(action(state)) }
      counter.decrement()
    }
    DispatchQueue.main.async { job.run() }
    return cancel
  }

  public func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    let cancel = SingleAssignmentDisposable()
    guard dueTime != .never else { return cancel }
    let job = MainQueueJob {
      if !cancel.isDisposed { cancel.setDisposable(action(state)) }
    }
    DispatchQueue.main.asyncAfter(deadline: .now() + dueTime) { job.run() }
    return cancel
  }
}

/// Tells whether the current code runs on the main queue.
private enum MainQueueMark {
  static let key: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

/// The number of a main scheduler's jobs on the main queue (read and written from any thread).
private final class EnqueuedCount: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  /// Adds one and returns the count before.
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value - 1
  }

  func decrement() {
    lock.lock()
    value -= 1
    lock.unlock()
  }
}

/// A job sent to the main queue. Its closure captures the scheduled (non-Sendable) action; the
/// main queue runs it once, on the main thread.
private final class MainQueueJob: @unchecked Sendable {
  private let work: () -> Void

  init(_ work: @escaping () -> Void) { self.work = work }

  func run() { work() }
}

extension DispatchTimeInterval {
  /// The interval in seconds (infinite for `.never`).
  var rxSeconds: TimeInterval {
    switch self {
    case .seconds(let value): TimeInterval(value)
    case .milliseconds(let value): TimeInterval(value) / 1_000
    case .microseconds(let value): TimeInterval(value) / 1_000_000
    case .nanoseconds(let value): TimeInterval(value) / 1_000_000_000
    case .never: .infinity
    @unknown default: .infinity
    }
  }

  /// What is left of this interval after `elapsed` seconds, in the interval's own unit rounded
  /// to the nearest (zero when it has all passed), as RxSwift reduces its throttle windows.
  func rxRemaining(after elapsed: TimeInterval) -> DispatchTimeInterval {
    func left(_ value: Int, perSecond: Double) -> Int {
      let remainder = Double(value) - elapsed * perSecond
      return remainder > 0 ? Int(remainder.rounded(.toNearestOrAwayFromZero)) : 0
    }
    switch self {
    case .seconds(let value): return .seconds(left(value, perSecond: 1))
    case .milliseconds(let value): return .milliseconds(left(value, perSecond: 1_000))
    case .microseconds(let value): return .microseconds(left(value, perSecond: 1_000_000))
    case .nanoseconds(let value): return .nanoseconds(left(value, perSecond: 1_000_000_000))
    case .never: return .never
    @unknown default: return .never
    }
  }

  /// Whether the interval is zero long.
  var rxIsNow: Bool {
    switch self {
    case .seconds(let value), .milliseconds(let value), .microseconds(let value), .nanoseconds(let value): value == 0
    case .never: false
    @unknown default: false
    }
  }
}
