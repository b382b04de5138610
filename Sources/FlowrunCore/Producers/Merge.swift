/// `merge` and `concat` of a list: the inputs' values interleaved, at most `concurrent` inputs
/// subscribed at once (the rest wait in order; `concat` is `concurrent: 1`).
///
/// Completes when every input has completed; fails on the first error.
public final class MergeSource: Source {
  fileprivate let inputs: [any Source]
  fileprivate let concurrent: Int

  public init(_ inputs: [any Source], concurrent: Int = .max) {
    self.inputs = inputs
    self.concurrent = max(concurrent, 1)
  }

  /// `concat`: one input after another.
  public static func concat(_ inputs: [any Source]) -> MergeSource {
    MergeSource(inputs, concurrent: 1)
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let flatten = Flatten(observer: observer, concurrent: concurrent)
    for input in inputs {
      guard !flatten.isDone else { break }
      flatten.enqueue(input)
    }
    flatten.outerCompleted()
    return flatten
  }
}

/// Subscribes to inner signals as they arrive, at most `concurrent` at a time, and forwards
/// their values; the engine of `merge`, `concat`, `mergeAll`, `concatAll` and `flatMap`.
///
/// It completes when the outer signal completed and no inner is running or waiting, and fails
/// on the first error of any.
final class Flatten: MultiInputSink, Disposable {
  private let observer: any Observer
  private let concurrent: Int
  private var waiting: [any Source] = []
  private var waitingHead = 0
  private var running: [Int: UpstreamLink] = [:]
  private var nextInput = 0
  private var outerIsDone = false
  private(set) var isDone = false
  /// The result ended on an inner's failure and left the outer subscription running
  /// (`keepsOuterOnInnerFailure`).
  private(set) var keptOuter = false
  /// The failure of a pull source that comes once its waiting values were all taken
  /// (`failAfterWaiting`).
  private var failureAfterWaiting: Value?
  /// The outer sequence's failure that comes once every inner finished (`failAfterInners`).
  private var failureAfterInners: Value?
  /// Disposes the outer subscription when this one ends early.
  let outer = UpstreamLink()
  /// An inner's failure ends the result but leaves the outer subscription alone until it
  /// terminates or the result is disposed (Combine's `flatMap`: OpenCombine
  /// `Publishers.FlatMap.swift` `Outer.receiveInner(completion:_:)` cancels only the other
  /// inners; `FlatMapTests`).
  var keepsOuterOnInnerFailure = false
  /// Called once when an inner finished and a slot is free (a Combine `prepend` waiting for
  /// demand, `DemandingObserver`).
  var onSlotFreed: (() -> Void)?
  /// The standard library's `AsyncFlatMapSequence` (`library: async`): the next inner is made
  /// in the consumer's `next()`, so a waiting inner is subscribed only while the consumer waits
  /// (`DemandingObserver`), else at its next pull. A consumer that pulls at once always waits.
  var pullsOnDemand = false
  private let nextPull = NextPull()

  /// `observer` when it says whether it still takes values (`DemandingObserver`), cast once.
  private let demanding: (any DemandingObserver)?

  init(observer: any Observer, concurrent: Int) {
    self.observer = observer
    self.concurrent = concurrent
    demanding = observer as? any DemandingObserver
  }

  /// Whether every slot is taken (or inners wait for one).
  var isFull: Bool { running.count >= concurrent || waitingHead < waiting.count }

  /// Subscribes `inner` now if a slot is free, else queues it.
  func enqueue(_ inner: any Source) {
    // A downstream that ended while an earlier input delivered during its subscription (a
    // `first` after a `merge` whose first input is a `just`) gets no further input subscribed,
    // as RxJS's closed subscriber and Combine's cancelled `FlatMap` do.
    guard !isDone, demanding?.isOpen ?? true else { return }
    if running.count < concurrent, !(pullsOnDemand && hasWaiting), consumerWaits {
      subscribe(inner)
    } else {
      var queue = waiting.take()  // changed moved out (Exclusivity.swift)
      queue.append(inner)
      swap(&queue, &waiting)
      awaitPullIfNeeded()
    }
  }

  /// Whether a waiting inner may be subscribed now (`pullsOnDemand`).
  private var consumerWaits: Bool { !pullsOnDemand || wantsValue(observer) }

  /// With `pullsOnDemand`, subscribes the waiting inners at the consumer's next pull.
  private func awaitPullIfNeeded() {
    guard pullsOnDemand, !isDone, running.count < concurrent, hasWaiting else { return }
    nextPull.onNextPull(of: observer) { [weak self] in
      guard let self, !self.isDone else { return }
      self.subscribeWaiting()
      self.completeIfFinished()
    }
  }

  /// Subscribes waiting inners while a slot is free (and the consumer waits); once none wait,
  /// a failure kept for after them comes, and once none run either, the outer failure kept for
  /// after the inners (`failAfterInners`). False when such a failure ended the result.
  @discardableResult
  private func subscribeWaiting() -> Bool {
    while running.count < concurrent, waitingHead < waiting.count, !isDone, consumerWaits {
      let next = waiting[waitingHead]
      waitingHead += 1
      subscribe(next)
    }
    if waitingHead == waiting.count {
      _ = waiting.take()  // emptied outside any access (Exclusivity.swift)
      waitingHead = 0
      if let failure = failureAfterWaiting {
        failureAfterWaiting = nil
        fail(failure)
        return false
      }
    }
    if running.isEmpty, !hasWaiting, let failure = failureAfterInners {
      failureAfterInners = nil
      fail(failure)
      return false
    }
    awaitPullIfNeeded()
    return true
  }

  /// Whether inners wait for a slot.
  var hasWaiting: Bool { waitingHead < waiting.count }

  /// The outer signal, a pull source, failed while values it sent wait for a slot: the failure
  /// comes once the last of them took one (Combine's `Record` and `Publishers.Sequence` send
  /// their completion right after the last value requested: OpenCombine
  /// `Publishers.Sequence.swift` `Inner.request(_:)`; a `flatMap(maxPublishers:)` requests one
  /// more value per finished inner).
  func failAfterWaiting(_ error: Value) {
    failureAfterWaiting = error
  }

  /// Whether an inner runs or waits for a slot.
  var hasInners: Bool { !running.isEmpty || hasWaiting }

  /// The outer sequence failed while inners run or wait: the failure comes once the last of
  /// them finished (the standard library's `flatMap` pulls its base only then, and the base
  /// keeps the failure behind its values: `AsyncFlatMapSequence.swift` `Iterator.next()`).
  func failAfterInners(_ error: Value) {
    failureAfterInners = error
    outer.finish()
  }

  /// The outer signal completed: complete once every inner has.
  func outerCompleted() {
    outerIsDone = true
    outer.finish()
    completeIfFinished()
  }

  /// Fails with `error` (from the outer signal or an operator step).
  func fail(_ error: Value) {
    guard !isDone else { return }
    end()
    observer.receive(.error(error))
  }

  private func subscribe(_ inner: any Source) {
    let index = nextInput
    nextInput += 1
    let link = UpstreamLink()
    setRunning(index, link)
    link.attach(inner.subscribe(InputObserver(sink: self, index: index)))
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone, let link = link(of: input) else { return }
    switch event {
    case .next:
      observer.receive(event)
    case .error:
      link.finish()
      setRunning(input, nil)
      end(keepingOuter: keepsOuterOnInnerFailure)
      observer.receive(event)
    case .completed:
      // The finished input's chain is torn down before the next input is subscribed (RxJS
      // `mergeInternals` subscribes it in the finished inner's finalizer).
      link.dispose()
      setRunning(input, nil)
      guard subscribeWaiting() else { return }
      if !isDone, !isFull, let resume = onSlotFreed {
        onSlotFreed = nil
        resume()
      }
      completeIfFinished()
    }
  }

  func accepts(from input: Int) -> Bool {
    !isDone && (demanding?.isOpen ?? true)
  }

  private func completeIfFinished() {
    guard !isDone, outerIsDone, running.isEmpty, waitingHead == waiting.count else { return }
    isDone = true
    observer.receive(.completed)
  }

  private func end(keepingOuter: Bool = false) {
    isDone = true
    keptOuter = keepingOuter
    if !keepingOuter { outer.dispose() }
    // Taken out, leaving none (Exclusivity.swift).
    var inners: [Int: UpstreamLink] = [:]
    swap(&inners, &running)
    _ = waiting.take()
    for (_, link) in inners.sorted(by: { $0.key < $1.key }) {
      link.dispose()
    }
  }

  func dispose() {
    // A kept outer (Combine) is never cancelled once the result ended: Combine's subscribers
    // drop a finished subscription without cancelling it.
    guard !isDone else { return }
    end()
  }

  /// The link of running input `index`, looked up in a copy of the table: the lookup (a call)
  /// spans no access to `running` (Exclusivity.swift).
  private func link(of index: Int) -> UpstreamLink? {
    let table = running
    return table[index]
  }

  /// Sets (or, with nil, removes) the link of running input `index`; the table is changed
  /// moved out of the property (Exclusivity.swift).
  private func setRunning(_ index: Int, _ link: UpstreamLink?) {
    var table: [Int: UpstreamLink] = [:]
    swap(&table, &running)
    table[index] = link
    swap(&table, &running)
  }
}
