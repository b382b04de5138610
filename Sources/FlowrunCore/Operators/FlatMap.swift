/// Makes the inner signal of an outer value and its index (`flatMap`, `switchMap` …).
public typealias Projection = (Value, Int) throws(StepFailure) -> any Source

/// `flatMap: template` (+ `concurrent: n`), `concatMap`, `mergeAll`, `concatAll`: each outer
/// value becomes an inner signal whose values are merged into the result.
///
/// At most `concurrent` inners run at once; the rest wait in order (`concatMap` is
/// `concurrent: 1`). The result completes when the outer signal and every inner have completed,
/// and fails on the first error.
///
/// ```
/// outer:            -a-----b---|
/// inner (per v):    --v|
/// flatMap:          ---a-----b-|
/// ```
///
/// Combine's `flatMap(maxPublishers:)` (`dropsWhenFull`) asks upstream for one value per free
/// slot: a value that a push source sends while every slot is taken is dropped, not queued; the
/// values a pull source (`just`, `of`, a `prepend`) sends while being subscribed wait for a slot,
/// as a `Sequence` waits for demand.
extension Source {
  /// `keepsOuterOnInnerFailure`: Combine's `flatMap`, whose inner failure does not cancel the
  /// upstream (`Flatten.keepsOuterOnInnerFailure`). The standard library's async `flatMap`
  /// (`concurrent: 1`) is both: `pullsOnDemand`, its next inner is made at the consumer's pull
  /// (`Flatten.pullsOnDemand`), and `outerFailureWaits`, it pulls its base only when the inner
  /// ended, so the base's failure comes after the inners of the values before it
  /// (`Flatten.failAfterInners`).
  public func flatMap(
    concurrent: Int = .max, dropsWhenFull: Bool = false, keepsOuterOnInnerFailure: Bool = false,
    pullsOnDemand: Bool = false, outerFailureWaits: Bool = false, _ project: @escaping Projection
  ) -> any Source {
    let concurrent = max(concurrent, 1)
    return OperatorSource(self) {
      let flatten = Flatten(observer: $0, concurrent: concurrent)
      flatten.keepsOuterOnInnerFailure = keepsOuterOnInnerFailure
      flatten.pullsOnDemand = pullsOnDemand
      let outer = FlattenOuter(
        flatten: flatten, project: project, exhausting: dropsWhenFull, queuesWhileSubscribing: dropsWhenFull)
      outer.failureWaits = outerFailureWaits
      return outer
    }
  }
}

/// The outer subscription of `flatMap` and `exhaustMap`: projects each outer value into the
/// inner it hands to `flatten` — unless `exhausting` and every slot is taken.
final class FlattenOuter: OperatorSubscription, Observer {
  let flatten: Flatten
  let project: Projection
  let exhausting: Bool
  /// Values sent while upstream is being subscribed wait for a slot even when `exhausting`.
  let queuesWhileSubscribing: Bool
  var isSubscribing = false
  /// The outer's failure waits for the inners that run or wait (`outerFailureWaits`).
  var failureWaits = false
  var index = 0

  init(flatten: Flatten, project: @escaping Projection, exhausting: Bool, queuesWhileSubscribing: Bool = false) {
    self.flatten = flatten
    self.project = project
    self.exhausting = exhausting
    self.queuesWhileSubscribing = queuesWhileSubscribing
  }

  func start(_ upstream: any Source) {
    isSubscribing = true
    flatten.outer.attach(upstream.subscribe(self))
    isSubscribing = false
  }

  func receive(_ event: Event) {
    guard !flatten.isDone else {
      // An outer kept after an inner failed (Combine) ends its subscription when it terminates.
      if event.isTerminal { flatten.outer.finish() }
      return
    }
    switch event {
    case .next(let value):
      if exhausting, flatten.isFull, !(queuesWhileSubscribing && isSubscribing) { return }
      do throws(StepFailure) {
        let inner = try project(value, index)
        index += 1
        flatten.enqueue(inner)
      } catch {
        flatten.fail(error.value)
      }
    case .error(let error):
      if failureWaits, flatten.hasInners { return flatten.failAfterInners(error) }
      flatten.outer.finish()
      if exhausting, queuesWhileSubscribing, isSubscribing, flatten.hasWaiting {
        flatten.failAfterWaiting(error)
      } else {
        flatten.fail(error)
      }
    case .completed:
      flatten.outerCompleted()
    }
  }

  func dispose() {
    flatten.dispose()
  }
}

/// Combine's `flatMap(maxPublishers:)` wants a value while a slot is free, and again when an
/// inner finishes (OpenCombine `Publishers.FlatMap.swift` `requestOneMorePublisher`). Once an
/// inner failed, a Combine `flatMap` keeps its upstream subscription, which goes on as before
/// (its values are ignored): a `flatMap` above it still subscribes its inners
/// (`Outer.receiveInner(completion:_:)` cancels only the other inners).
///
/// The standard library's `flatMap` (`failureWaits`) pulls its base only when no inner runs.
extension FlattenOuter: DemandingObserver {
  private var outerIsKept: Bool { flatten.keptOuter && !flatten.outer.isFinished }
  var wantsValue: Bool {
    if failureWaits { return !flatten.isDone && !flatten.hasInners }
    return flatten.isDone ? outerIsKept && !exhausting : !(exhausting && flatten.isFull)
  }
  var isOpen: Bool { !flatten.isDone || outerIsKept }
  /// Once ended it wants nothing more, not even with its outer kept (an ended `FlatMap` requests
  /// no more publishers), so `resume` is never called.
  func whenWanting(_ resume: @escaping () -> Void) {
    guard !flatten.isDone else { return }
    guard exhausting || failureWaits else { return resume() }
    if failureWaits, !flatten.hasInners { return resume() }
    flatten.onSlotFreed = resume
  }
}

/// The inner signal a higher-order value carries, or a failure when it is not a signal.
public func innerSignal(of value: Value, operator name: String) throws(StepFailure) -> any Source {
  if case .signal(let signal) = value, let source = signal.source { return source }
  if case .signal(let signal) = value, let events = signal.events {
    return RecordedSource(events: events)
  }
  throw StepFailure(.string("'\(name)' needs signal values, got \(value.kindName)"))
}

/// A signal known only by its recorded events, replayed synchronously (a recorded `!cold`
/// value cannot be scheduled without a runtime).
final class RecordedSource: Source {
  let events: [Recorded]

  init(events: [Recorded]) {
    self.events = events
  }

  func subscribe(_ observer: any Observer) -> any Disposable {
    ImmediateSource(events: events.map(\.event)).subscribe(observer)
  }
}
