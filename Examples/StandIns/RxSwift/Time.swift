// Stand-in for RxSwift 6 (ReactiveX/RxSwift), used because RxSwift is not in this machine's
// package mirror; semantics follow RxSwift's documented behaviour (../README.md).
//
// This file: the operators on a scheduler: debounce, throttle, delay, observe(on:) and
// subscribe(on:).

import Foundation

/// Sends an element once `dueTime` has passed without a newer one; completion sends the
/// pending element first.
private final class DebounceSink<Element>: ObserverType {
  private let observer: AnyObserver<Element>
  private let dueTime: RxTimeInterval
  private let scheduler: any SchedulerType
  let timer = SerialDisposable()
  private var pending: Element?
  private var generation = 0

  init(observer: AnyObserver<Element>, dueTime: RxTimeInterval, scheduler: any SchedulerType) {
    self.observer = observer
    self.dueTime = dueTime
    self.scheduler = scheduler
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      generation += 1
      pending = element
      let scheduled = SingleAssignmentDisposable()
      timer.disposable = scheduled
      scheduled.setDisposable(scheduler.scheduleRelative(generation, dueTime: dueTime) { [self] generation in
        if generation == self.generation, let element = pending {
          pending = nil
          observer.onNext(element)
        }
        return Disposables.create()
      })
    case .error(let error):
      pending = nil
      observer.onError(error)
    case .completed:
      if let element = pending {
        pending = nil
        observer.onNext(element)
      }
      observer.onCompleted()
    }
  }
}

/// RxSwift 6's throttle: an element at least `dueTime` after the last one sent goes at once;
/// otherwise, with `latest`, the newest such element goes when `dueTime` has passed since the
/// last one sent (and that sending starts a new window), and without `latest` it is dropped.
/// Completion waits for a pending element.
private final class ThrottleSink<Element>: ObserverType {
  private let observer: AnyObserver<Element>
  private let dueTime: RxTimeInterval
  private let latest: Bool
  private let scheduler: any SchedulerType
  let timer = SerialDisposable()
  private var unsent: Element?
  private var lastSent: RxTime?
  private var completed = false

  init(observer: AnyObserver<Element>, dueTime: RxTimeInterval, latest: Bool, scheduler: any SchedulerType) {
    self.observer = observer
    self.dueTime = dueTime
    self.latest = latest
    self.scheduler = scheduler
  }

  func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      let now = scheduler.now
      let remaining: RxTimeInterval =
        if let lastSent { dueTime.rxRemaining(after: now.timeIntervalSince(lastSent)) } else { .nanoseconds(0) }
      if remaining.rxIsNow { return send(element) }
      guard latest else { return }
      let alreadyScheduled = unsent != nil
      unsent = element
      if alreadyScheduled { return }
      let scheduled = SingleAssignmentDisposable()
      timer.disposable = scheduled
      scheduled.setDisposable(scheduler.scheduleRelative((), dueTime: remaining) { [self] _ in
        if let element = unsent { send(element) }
        if completed { observer.onCompleted() }
        return Disposables.create()
      })
    case .error(let error):
      unsent = nil
      observer.onError(error)
    case .completed:
      if unsent != nil { completed = true } else { observer.onCompleted() }
    }
  }

  private func send(_ element: Element) {
    unsent = nil
    observer.onNext(element)
    lastSent = scheduler.now
  }
}

/// Shifts each element and the completion by `dueTime` from when it arrived; an error goes at
/// once, dropping what is pending.
private final class DelaySink<Element>: ObserverType {
  private let observer: AnyObserver<Element>
  private let dueTime: RxTimeInterval
  private let scheduler: any SchedulerType
  let timer = SerialDisposable()
  private var queue: [(arrival: RxTime, event: Event<Element>)] = []
  private var timerRunning = false

  init(observer: AnyObserver<Element>, dueTime: RxTimeInterval, scheduler: any SchedulerType) {
    self.observer = observer
    self.dueTime = dueTime
    self.scheduler = scheduler
  }

  func on(_ event: Event<Element>) {
    if case .error = event {
      queue.removeAll()
      timer.dispose()
      return observer.on(event)
    }
    queue.append((scheduler.now, event))
    if !timerRunning { schedule(after: dueTime) }
  }

  private func schedule(after delay: RxTimeInterval) {
    timerRunning = true
    timer.disposable = scheduler.scheduleRelative((), dueTime: delay) { [self] _ in
      timerRunning = false
      guard !queue.isEmpty else { return Disposables.create() }
      observer.on(queue.removeFirst().event)
      if let next = queue.first {
        schedule(after: dueTime.rxRemaining(after: scheduler.now.timeIntervalSince(next.arrival)))
      }
      return Disposables.create()
    }
  }
}

/// Sends the events through `scheduler.schedule`, in order: one scheduled run per event, the
/// next one scheduled when a run leaves events behind (RxSwift's `ObserveOnSink`).
private final class ObserveOnSink<Element>: ObserverType {
  private let observer: AnyObserver<Element>
  private let scheduler: any ImmediateSchedulerType
  private var queue: [Event<Element>] = []
  private var running = false
  let scheduled = SerialDisposable()

  init(observer: AnyObserver<Element>, scheduler: any ImmediateSchedulerType) {
    self.observer = observer
    self.scheduler = scheduler
  }

  func on(_ event: Event<Element>) {
    queue.append(event)
    guard !running else { return }
    running = true
    scheduled.disposable = scheduler.scheduleRecursive(()) { [self] _, recurse in
      guard !queue.isEmpty, !scheduled.isDisposed else {
        running = false
        return
      }
      observer.on(queue.removeFirst())
      if queue.isEmpty { running = false } else { recurse(()) }
    }
  }
}

extension ObservableType {
  /// Sends an element only after `dueTime` without a newer one.
  public func debounce(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = DebounceSink(observer: observer, dueTime: dueTime, scheduler: scheduler)
      return Disposables.create(source.subscribe(sink), sink.timer)
    }
  }

  /// Sends the first element of each `dueTime` window and, with `latest`, the newest element of
  /// the window when it ends, so that no two elements are sent less than `dueTime` apart.
  public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: any SchedulerType)
    -> Observable<Element>
  {
    let source = asObservable()
    return Observable { observer in
      let sink = ThrottleSink(observer: observer, dueTime: dueTime, latest: latest, scheduler: scheduler)
      return Disposables.create(source.subscribe(sink), sink.timer)
    }
  }

  /// The sequence shifted `dueTime` later; errors are not delayed.
  public func delay(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = DelaySink(observer: observer, dueTime: dueTime, scheduler: scheduler)
      return Disposables.create(source.subscribe(sink), sink.timer)
    }
  }

  /// Sends the events to the observer through `scheduler`, in order. On a `MainScheduler` each
  /// event is scheduled by itself (at once when already on the main thread with nothing queued),
  /// as RxSwift does for its serial dispatch queue schedulers.
  public func observe(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
    let source = asObservable()
    if let main = scheduler as? MainScheduler {
      return Observable { observer in
        let cancel = SingleAssignmentDisposable()
        let subscription = source.subscribe { event in
          _ = main.schedule(event) { event in
            if !cancel.isDisposed { observer.on(event) }
            return Disposables.create()
          }
        }
        return Disposables.create(subscription, cancel)
      }
    }
    return Observable { observer in
      let sink = ObserveOnSink(observer: observer, scheduler: scheduler)
      return Disposables.create(source.subscribe(sink), sink.scheduled)
    }
  }

  /// Subscribes to (and disposes) this sequence through `scheduler`.
  public func subscribe(on scheduler: any ImmediateSchedulerType) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let subscription = SerialDisposable()
      let scheduled = SingleAssignmentDisposable()
      subscription.disposable = scheduled
      scheduled.setDisposable(scheduler.schedule(()) { _ in
        subscription.disposable = ScheduledDisposable(scheduler: scheduler, disposable: source.subscribe(observer))
        return Disposables.create()
      })
      return subscription
    }
  }
}
