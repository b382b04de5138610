/// swift-async-algorithms' `merge` (`Merge/MergeStateMachine.swift`, `MergeStorage.swift`): a
/// child task per base, each pulling its base only while the consumer has demand.
///
/// A base that gave a value is suspended (`childTaskSuspended(_:)`) until the consumer asks
/// again with nothing buffered (`next(for:)` resumes every suspended base, in the order they
/// suspended); a value given while the consumer does not wait in `next()` is buffered
/// (`elementProduced(_:)`), and the consumer takes the buffer first. So a consumer that pulls at
/// once gets every value as it arrives (the default's `merge`), and one that pauses — a slow
/// consumer, a sequential `flatMap` iterating an inner sequence — leaves each base's values
/// waiting in that base behind the one value it gave: after the pause they come one per base
/// per round, not in the order they arrived. A base's end is counted in its own task
/// (`upstreamFinished()`); the merge ends when every base ended and the buffer is empty. A
/// base's failure (`upstreamThrew(_:)`, seen one task hop later, through the task group) fails
/// the merge at once when the consumer waits, else after the buffered values; the other bases
/// are cancelled.
///
/// ```
/// a:                        -1---2-3-|
/// b:                        --x-y-z--|
/// merge                     -1x-y2z3-|     (a consumer that pulls at once: arrival order)
/// ```
public final class AsyncMergeSource: Source {
  fileprivate let inputs: [any Source]
  /// The runtime whose tie-breaker orders the bases resumed together.
  fileprivate weak var runtime: Runtime?

  /// `runtime` lets `explore --orders` vary which resumed base runs first.
  public init(_ inputs: [any Source], runtime: Runtime? = nil) {
    self.inputs = inputs
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = AsyncMergeSubscription(source: self, observer: observer)
    subscription.start()
    return subscription
  }
}

private final class AsyncMergeSubscription: MultiInputSink, Disposable {
  private let source: AsyncMergeSource
  private let inputs: [any Source]
  private let observer: any Observer
  private let links: InputLinks
  /// Each base's events that arrived while it was suspended.
  private let waiting: [PendingQueue<Event>]
  /// Whether each base's task awaits its `next()`.
  private var pulled: [Bool]
  /// The suspended bases, in the order they suspended.
  private var suspended: [Int] = []
  /// The values given while the consumer did not wait.
  private let buffer = PendingQueue<Value>()
  /// Whether the consumer waits in `next()` (the state machine's downstream continuation).
  private var consumerWaits = false
  private var finishedCount = 0
  /// A base's failure, sent once the buffer is empty (`upstreamFailure`).
  private var failure: Event?
  /// Bases are being resumed (one `next(for:)`): a failure waits for the round's values.
  private var resuming = false
  private var lateFailure: Event?
  private var isDone = false
  private let nextPull = NextPull()

  init(source: AsyncMergeSource, observer: any Observer) {
    self.source = source
    inputs = source.inputs
    self.observer = observer
    links = InputLinks(count: inputs.count)
    waiting = inputs.map { _ in PendingQueue<Event>() }
    pulled = Array(repeating: false, count: inputs.count)
  }

  func start() {
    // The task starts at the consumer's first `next()`: every base is pulled then.
    suspended = Array(inputs.indices)
    if FlowrunCore.wantsValue(observer) { consumerNext() } else { awaitDemand() }
    for (index, input) in inputs.enumerated() {
      guard !isDone else { break }
      links.attach(input.subscribe(InputObserver(sink: self, index: index)), to: index)
    }
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    guard pulled[input] else { return waiting[input].append(event) }
    produced(event, by: input)
  }

  /// A pulled base's `next()` returned `event`.
  private func produced(_ event: Event, by input: Int) {
    switch event {
    case .next(let value):
      pulled[input] = false
      suspended.append(input)
      guard consumerWaits else { return buffer.append(value) }
      consumerWaits = false
      observer.receive(event)
      if !resuming, !isDone { consumerAsksAgain() }
    case .completed:
      pulled[input] = false
      links.finish(input)
      finishedCount += 1
      if finishedCount == inputs.count, consumerWaits, buffer.isEmpty { finish(with: event) }
    case .error:
      if resuming {
        if lateFailure == nil { lateFailure = event }
        return
      }
      failed(event)
    }
  }

  private func failed(_ event: Event) {
    guard consumerWaits, buffer.isEmpty else {
      // The other bases are cancelled; the buffered values are still handed out.
      failure = event
      suspended = []
      for index in inputs.indices {
        pulled[index] = false
        waiting[index].removeAll()
      }
      links.disposeAll()
      return
    }
    finish(with: event)
  }

  /// After a value, the consumer calls `next()` again now or at its next pull.
  private func consumerAsksAgain() {
    if FlowrunCore.wantsValue(observer) { consumerNext() } else { awaitDemand() }
  }

  private func awaitDemand() {
    nextPull.onNextPull(of: observer) { [weak self] in
      guard let self, !self.isDone else { return }
      self.consumerNext()
    }
  }

  /// The consumer's `next()`: the buffer first, then the failure or the end, else every
  /// suspended base is resumed and the consumer waits.
  private func consumerNext() {
    if let value = buffer.removeFirst() {
      observer.receive(.next(value))
      if !isDone { consumerAsksAgain() }
      return
    }
    if let failure { return finish(with: failure) }
    if finishedCount == inputs.count { return finish(with: .completed) }
    consumerWaits = true
    let order = ordered(suspended)
    suspended = []
    resuming = true
    for index in order where !isDone && failure == nil {
      pulled[index] = true
      if let event = waiting[index].removeFirst() { produced(event, by: index) }
    }
    resuming = false
    if let event = lateFailure {
      lateFailure = nil
      failed(event)
    }
    guard !isDone else { return }
    if !consumerWaits { consumerAsksAgain() }
  }

  /// The resumed bases in the order they suspended, or, when more than one has an event
  /// waiting, those in the order the run's tie-breaker chooses (`explore --orders`); the
  /// others keep their places.
  private func ordered(_ resumed: [Int]) -> [Int] {
    let ready = resumed.filter { !waiting[$0].isEmpty }
    guard ready.count > 1, let runtime = source.runtime, let tieBreaker = runtime.scheduler.tieBreaker else {
      return resumed
    }
    let owners = ready.map { NodeLabel("merge input \($0 + 1)") }
    guard let chosen = tieBreaker.order(frame: runtime.now, owners: owners) else { return resumed }
    var next = chosen.map { ready[$0] }.makeIterator()
    return resumed.map { waiting[$0].isEmpty ? $0 : next.next() ?? $0 }
  }

  private func finish(with event: Event) {
    isDone = true
    links.disposeAll()
    observer.receive(event)
  }

  func dispose() {
    isDone = true
    links.disposeAll()
  }
}
