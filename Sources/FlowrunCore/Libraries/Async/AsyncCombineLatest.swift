import OrderedCollections

/// swift-async-algorithms' `combineLatest` (`CombineLatest/CombineLatestStateMachine.swift`:
/// `next(for:)`, `childTaskSuspended(baseIndex:continuation:)`, `elementProduced(_:)`,
/// `upstreamFinished(baseIndex:)`, `upstreamThrew(_:)`): a child task per base pulls it, and
/// only while the consumer waits in `next()` (`combining`).
///
/// - `combining`: every base's value is kept as its latest; when every base has one, the
///   combination is returned and the state is `waitingForDemand`. The base that gave it
///   suspends (its next value waits in the base); a base already pulled goes on waiting for
///   its value.
/// - `waitingForDemand`: a value of a base that was already pulled makes a combination that is
///   buffered; that base then suspends too. The consumer's next pull takes the oldest buffered
///   combination; with none, it resumes every suspended base (in base order, which
///   `explore --orders` varies: the runtime runs ready tasks in the order they were resumed)
///   and is `combining` again.
/// - A base that finishes before its first value ends the combination at once; once every
///   base finished, the buffered combinations are handed out, then the end. A failure is sent
///   at once while combining, else at the next pull (the buffered combinations are dropped).
///
/// A consumer that pulls at once keeps every base pulled, so each value makes a combination at
/// once. A slow consumer (`consumer: { busy: n }`) leaves the bases' values waiting in the bases
/// (a marble keeps them, as the package's validation inputs do): each pull after a busy
/// period pulls every suspended base once, so the combinations step through the waiting
/// values rather than jumping to the latest.
///
/// ```
/// a:                          -1-2-3-----|
/// b:                          x----------|
/// combineLatest, busy 0       -[1,x]-[2,x]-[3,x]-----|
/// combineLatest, busy 3       -[1,x]--[2,x]--[3,x]----|
/// ```
final class AsyncCombineLatestSubscription: MultiInputSink, Disposable {
  private enum Phase {
    case initial, combining, waitingForDemand, upstreamsFinished, threw(Event), finished
  }

  private let source: CombineLatestSource
  private let observer: any Observer
  private let links: InputLinks
  /// Each base's events that arrived while it was not pulled.
  private let waiting: [PendingQueue<Event>]
  private var phase = Phase.initial
  private var latest: [Value?]
  /// Whether each base's child task awaits the base's `next()`.
  private var inFlight: [Bool]
  /// Whether each base's child task is suspended until the consumer's next pull.
  private var suspended: [Bool]
  private var finished: [Bool]
  /// The order in which pulled bases take their waiting values (the order they were resumed).
  private var runOrder: [Int]
  private var buffer: [Value] = []
  private var pendingPull = false
  private var isDone = false
  private var pumping = false
  private let nextPull = NextPull()

  init(source: CombineLatestSource, observer: any Observer) {
    self.source = source
    self.observer = observer
    let count = source.inputs.count
    links = InputLinks(count: count)
    waiting = (0..<count).map { _ in PendingQueue<Event>() }
    latest = Array(repeating: nil, count: count)
    inFlight = Array(repeating: false, count: count)
    suspended = Array(repeating: false, count: count)
    finished = Array(repeating: false, count: count)
    runOrder = Array(0..<count)
  }

  func start() {
    if FlowrunCore.wantsValue(observer) { pendingPull = true } else { awaitDemand() }
    pump()
    for (index, input) in source.inputs.enumerated() {
      guard !isDone else { break }
      links.attach(input.subscribe(InputObserver(sink: self, index: index)), to: index)
    }
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    waiting[input].append(event)
    if inFlight[input] { pump() }
  }

  private func awaitDemand() {
    nextPull.onNextPull(of: observer) { [weak self] in
      guard let self, !self.isDone else { return }
      self.pendingPull = true
      self.pump()
    }
  }

  private func pump() {
    guard !pumping else { return }
    pumping = true
    defer { pumping = false }
    while !isDone {
      if pendingPull {
        pendingPull = false
        next()
        continue
      }
      guard let index = runOrder.first(where: { inFlight[$0] && !waiting[$0].isEmpty }),
        let event = waiting[index].removeFirst()
      else { return }
      inFlight[index] = false
      produced(event, by: index)
    }
  }

  /// The consumer's `next()`.
  private func next() {
    switch phase {
    case .initial:
      phase = .combining
      for index in inFlight.indices { inFlight[index] = true }
    case .waitingForDemand:
      guard buffer.isEmpty else { return send(buffer.removeFirst()) }
      phase = .combining
      let resumed = suspended.indices.filter { suspended[$0] }
      for index in resumed {
        suspended[index] = false
        inFlight[index] = true
      }
      order(resumed)
    case .upstreamsFinished:
      guard buffer.isEmpty else { return send(buffer.removeFirst()) }
      end(with: .completed)
    case .threw(let event):
      end(with: event)
    case .finished:
      end(with: .completed)
    case .combining:
      break
    }
  }

  /// The resumed bases that have a value waiting run in base order, or in the order the run's
  /// tie-breaker chooses (`explore --orders`).
  private func order(_ resumed: [Int]) {
    let ready = resumed.filter { !waiting[$0].isEmpty }
    runOrder = Array(latest.indices)
    guard ready.count > 1, let runtime = source.runtime, let tieBreaker = runtime.scheduler.tieBreaker else { return }
    let owners = ready.map { NodeLabel("combineLatest input \($0 + 1)") }
    guard let chosen = tieBreaker.order(frame: runtime.now, owners: owners) else { return }
    let first = chosen.map { ready[$0] }
    runOrder = first + latest.indices.filter { !first.contains($0) }
  }

  private func produced(_ event: Event, by index: Int) {
    switch (event, phase) {
    case (.next(let value), .combining):
      latest[index] = value
      guard let combination = combined() else {
        inFlight[index] = true
        return
      }
      phase = .waitingForDemand
      suspended[index] = true
      send(combination)
    case (.next(let value), .waitingForDemand):
      latest[index] = value
      if let combination = combined() { buffer.append(combination) }
      suspended[index] = true
    case (.completed, .combining):
      finished[index] = true
      links.finish(index)
      if latest[index] == nil || !finished.contains(false) { end(with: .completed) }
    case (.completed, .waitingForDemand):
      finished[index] = true
      links.finish(index)
      guard !finished.contains(false) else { return }
      phase = buffer.isEmpty ? .finished : .upstreamsFinished
      links.disposeAll()
    case (.error, .combining):
      links.finish(index)
      end(with: event)
    case (.error, .waitingForDemand):
      links.finish(index)
      phase = .threw(event)
      buffer.removeAll()
      links.disposeAll()
    default:
      break
    }
  }

  private func combined() -> Value? {
    var values: [Value] = []
    values.reserveCapacity(latest.count)
    for value in latest {
      guard let value else { return nil }
      values.append(value)
    }
    guard let keys = source.keys else { return .list(values) }
    return .map(OrderedDictionary(uniqueKeys: keys, values: values))
  }

  private func send(_ value: Value) {
    observer.receive(.next(value))
    guard !isDone else { return }
    if FlowrunCore.wantsValue(observer) { pendingPull = true } else { awaitDemand() }
  }

  private func end(with event: Event) {
    isDone = true
    links.disposeAll()
    observer.receive(event)
  }

  func dispose() {
    isDone = true
    links.disposeAll()
  }
}
