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
/// Combine's `flatMap(maxPublishers:)` (`FlattenPolicy.combine(maxPublishers:)`) asks upstream for one value per free
/// slot: a value that a push source sends while every slot is taken is dropped, not queued; the
/// values a pull source (`just`, `of`, a `prepend`) sends while being subscribed wait for a slot,
/// as a `Sequence` waits for demand.
/// How a `flatMap` runs its inners: RxJS 7's `mergeMap` (the default), Combine's
/// `flatMap(maxPublishers:)`, or the standard library's `AsyncSequence.flatMap`.
public struct FlattenPolicy: Sendable, Equatable {
  /// What a value does when every slot is taken.
  public enum WhenFull: Sendable, Equatable {
    /// It waits for a slot, in order.
    case waits
    /// A value a push source sends is dropped (Combine's demand: one value per free slot); the
    /// values a pull source sends while being subscribed still wait.
    case isDropped
  }

  /// What an inner's failure does to the upstream subscription.
  public enum InnerFailure: Sendable, Equatable {
    /// It ends the result and cancels the upstream.
    case cancelsUpstream
    /// It ends the result; the upstream stays subscribed (`Flatten.keepsOuterOnInnerFailure`).
    case keepsUpstream
  }

  /// When the next inner is made and the base pulled.
  public enum Pace: Sendable, Equatable {
    /// As the upstream pushes its values.
    case pushed
    /// At the consumer's pull, one inner at a time; the base is pulled only when the inner
    /// ended, so its failure comes after the inners of the values before it
    /// (`Flatten.pullsOnDemand`, `Flatten.failAfterInners`).
    case pulledByConsumer
  }

  /// The inners that run at once (at least 1).
  public var concurrent: Int
  public var whenFull: WhenFull
  public var innerFailure: InnerFailure
  public var pace: Pace

  /// RxJS 7 `mergeMap(project, concurrent)` (`concatMap` with one).
  public static func merge(concurrent: Int = .max) -> FlattenPolicy {
    FlattenPolicy(concurrent: concurrent, whenFull: .waits, innerFailure: .cancelsUpstream, pace: .pushed)
  }

  /// Combine `flatMap(maxPublishers: .max(n))`: a value pushed while n inners run is dropped;
  /// an inner failure leaves the upstream subscribed.
  public static func combine(maxPublishers: Int) -> FlattenPolicy {
    FlattenPolicy(concurrent: maxPublishers, whenFull: .isDropped, innerFailure: .keepsUpstream, pace: .pushed)
  }

  /// Combine `flatMap` with `.unlimited` demand (or, with `concurrent:`, values that wait for a
  /// slot): an inner failure leaves the upstream subscribed.
  public static func combine(concurrent: Int = .max) -> FlattenPolicy {
    FlattenPolicy(concurrent: concurrent, whenFull: .waits, innerFailure: .keepsUpstream, pace: .pushed)
  }

  /// The standard library's `AsyncSequence.flatMap`: one inner at a time, made at the consumer's
  /// pull, the base's failure after the inners before it.
  public static let asyncSequence = FlattenPolicy(
    concurrent: 1, whenFull: .waits, innerFailure: .cancelsUpstream, pace: .pulledByConsumer)
}

extension Source {
  public func flatMap(_ policy: FlattenPolicy = .merge(), _ project: @escaping Projection) -> any Source {
    let concurrent = max(policy.concurrent, 1)
    let drops = policy.whenFull == .isDropped
    let pulled = policy.pace == .pulledByConsumer
    return OperatorSource(self) {
      let flatten = Flatten(observer: $0, concurrent: concurrent)
      flatten.keepsOuterOnInnerFailure = policy.innerFailure == .keepsUpstream
      flatten.pullsOnDemand = pulled
      let outer = FlattenOuter(flatten: flatten, project: project, exhausting: drops, queuesWhileSubscribing: drops)
      outer.failureWaits = pulled
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
/// The standard library's `flatMap` (`FlattenPolicy.asyncSequence`, `failureWaits`) pulls its
/// base only when no inner runs.
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
