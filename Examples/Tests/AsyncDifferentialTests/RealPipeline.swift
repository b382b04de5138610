import AsyncAlgorithms
import FlowrunCore
import FlowrunTesting

/// A graph's pipeline built from the real `AsyncSequence` and swift-async-algorithms operators,
/// fed by its hot marbles through `AsyncThrowingStream` continuations at their frames, and
/// iterated by one task on an ``AsyncRuntime`` (its jobs one at a time, first in, first out, on
/// virtual frames; every clock argument a ``FrameClock``).
enum RealPipeline {
  typealias Values = any AsyncSequence<Value, any Error> & Sendable

  /// What the pipeline sent to a consumer that pulls at once: values, then its end or failure,
  /// each at its frame, until ``Graph/horizon``.
  static func run(_ graph: Graph, events marbles: [[Recorded]], tick: Int64) throws -> [Recorded] {
    let scheduler = VirtualTimeScheduler()
    let runtime = AsyncRuntime(scheduler: scheduler, tick: tick)
    let recorder = Recorder()
    try runtime.withJobs {
      let streams = marbles.map { _ in AsyncThrowingStream<Value, any Error>.makeStream() }
      let pipeline = try build(graph, inputs: streams.map(\.stream), clock: runtime.clock, tick: tick)
      let box = Unchecked((pipeline, recorder, scheduler))
      let task = Task {
        let (pipeline, recorder, scheduler) = box.value
        do {
          for try await value in pipeline { recorder.append(scheduler.now, .next(value)) }
          recorder.append(scheduler.now, .completed)
        } catch let error as MarbleError {
          recorder.append(scheduler.now, .error(error.value))
        } catch {
          recorder.append(scheduler.now, .error(.string("\(error)")))
        }
      }
      // Inputs after the consumer's first job, top to bottom within a frame (flowrun's order).
      for (events, stream) in zip(marbles, streams) {
        let continuation = stream.continuation
        for event in events {
          let action = ClosureAction(owner: NodeLabel("input"), isInput: true) {
            switch event.event {
            case .next(let value): continuation.yield(value)
            case .completed: continuation.finish()
            case .error(let value): continuation.finish(throwing: MarbleError(value: value))
            }
          }
          scheduler.schedule(at: event.frame, action)
        }
      }
      _ = scheduler.run(until: Graph.horizon, timeLimit: Graph.horizon, stepLimit: 1_000_000)
      // The end of the run: what is ready runs, then the consumer stops listening and its task
      // is cancelled (the cancellation's jobs run too, so none is left for a thread pool).
      runtime.finish()
      recorder.isClosed = true
      task.cancel()
      runtime.finish()
    }
    return recorder.events
  }

  /// The pipeline of `graph` over `inputs`.
  static func build(_ graph: Graph, inputs: [AsyncThrowingStream<Value, any Error>], clock: FrameClock, tick: Int64)
    throws -> Values
  {
    var values: Values
    switch graph.source {
    case .input: values = inputs[0]
    case .merge:
      values = inputs.count == 2 ? merge(inputs[0], inputs[1]) : merge(inputs[0], inputs[1], inputs[2])
    case .zip:
      values =
        inputs.count == 2
        ? zip(inputs[0], inputs[1]).map { Value.list([$0, $1]) }
        : zip(inputs[0], inputs[1], inputs[2]).map { Value.list([$0, $1, $2]) }
    case .combineLatest:
      values =
        inputs.count == 2
        ? combineLatest(inputs[0], inputs[1]).map { Value.list([$0, $1]) }
        : combineLatest(inputs[0], inputs[1], inputs[2]).map { Value.list([$0, $1, $2]) }
    case .chain:
      values = chain(inputs[0], inputs[1])
    case .interval(let d):
      values = Ticks(timer: AsyncTimerSequence(interval: .nanoseconds(Int64(d) * tick), clock: clock))
    }
    for step in graph.steps { values = try apply(step, to: values, clock: clock, tick: tick) }
    return values
  }

  static func apply(_ step: Graph.Step, to values: Values, clock: FrameClock, tick: Int64) throws -> Values {
    try applyOpened(step, to: values, clock: clock, tick: tick)
  }

  private static func applyOpened<Base: AsyncSequence<Value, any Error> & Sendable>(
    _ step: Graph.Step, to base: Base, clock: FrameClock, tick: Int64
  ) throws -> Values {
    func frames(_ n: Int) -> Duration { .nanoseconds(Int64(n) * tick) }
    switch step {
    case .map(let k): return base.map { Value.int(int($0) * k) }
    case .filterEven: return base.filter { int($0) % 2 == 0 }
    case .compactMapSkippingMultiples(let k):
      return base.compactMap { int($0) % k == 0 ? nil : Value.int(int($0) + 1) }
    case .prefix(let n): return base.prefix(n)
    case .prefixWhile(let k): return try base.prefix { int($0) < k }
    case .dropFirst(let n): return base.dropFirst(n)
    case .dropWhile(let k): return base.drop { int($0) < k }
    case .removeDuplicates: return base.removeDuplicates()
    case .adjacentPairs: return base.adjacentPairs().map { Value.list([$0.0, $0.1]) }
    case .reductions(nil): return base.reductions { Value.int(int($0) + int($1)) }
    case .reductions(let seed?): return base.reductions(Value.int(seed)) { Value.int(int($0) + int($1)) }
    case .chunks(let n): return base.chunks(ofCount: n).map { Value.list($0) }
    case .chunksOrEvery(let n, let d):
      return base.chunks(ofCount: n, or: .repeating(every: frames(d), clock: clock)).map { Value.list($0) }
    case .chunkedEvery(let d):
      return base.chunked(by: .repeating(every: frames(d), clock: clock)).map { Value.list($0) }
    case .debounce(let d): return base.debounce(for: frames(d), clock: clock)
    case .throttle(let d, let latest): return base._throttle(for: frames(d), clock: clock, latest: latest)
    case .buffer(let policy):
      switch policy {
      case .unbounded: return base.buffer(policy: .unbounded)
      case .bounded(let n): return base.buffer(policy: .bounded(n))
      case .bufferingOldest(let n): return base.buffer(policy: .bufferingOldest(n))
      case .bufferingNewest(let n): return base.buffer(policy: .bufferingLatest(n))
      }
    case .first(let k): return FirstWhere(base: base) { int($0) > k }
    case .contains(let v): return Contains(base: base, value: .int(v))
    case .flatMap(let inner, let latest):
      let marble = ColdMarble(marble: inner, clock: clock, tick: tick)
      let transform: @Sendable (Value) -> AsyncMapSequence<ColdMarble, Value> = { outer in
        marble.map { Value.int(int($0) + int(outer) * 10) }
      }
      return latest ? base.flatMapLatest(transform) : base.flatMap(transform)
    }
  }

  private static func int(_ value: Value) -> Int {
    if case .int(let int) = value { return int }
    return 0
  }
}

/// `AsyncTimerSequence`'s instants as flowrun's `interval` values: 0, 1, 2 …
struct Ticks: AsyncSequence, Sendable {
  typealias Element = Value
  typealias Failure = any Error
  let timer: AsyncTimerSequence<FrameClock>

  func makeAsyncIterator() -> Iterator { Iterator(base: timer.makeAsyncIterator()) }

  struct Iterator: AsyncIteratorProtocol {
    var base: AsyncTimerSequence<FrameClock>.Iterator
    var count = 0
    mutating func next() async throws -> Value? {
      guard await base.next() != nil else { return nil }
      defer { count += 1 }
      return .int(count)
    }
  }
}

/// A cold marble of digits (`-1-2|`, `#`: the error "error"), each event at its frame counted
/// from the iteration's first `next()`, sleeping on the clock until then.
struct ColdMarble: AsyncSequence, Sendable {
  typealias Element = Value
  typealias Failure = any Error
  let events: [(frame: Int, event: Event)]
  let clock: FrameClock
  let tick: Int64

  init(marble: String, clock: FrameClock, tick: Int64) {
    var events: [(frame: Int, event: Event)] = []
    for (frame, character) in marble.enumerated() {
      switch character {
      case "|": events.append((frame, .completed))
      case "#": events.append((frame, .error(.string("error"))))
      case "-": break
      default: events.append((frame, .next(.int(Int(String(character)) ?? 0))))
      }
    }
    self.events = events
    self.clock = clock
    self.tick = tick
  }

  func makeAsyncIterator() -> Iterator { Iterator(marble: self) }

  struct Iterator: AsyncIteratorProtocol {
    let marble: ColdMarble
    var start: FrameClock.Instant?
    var index = 0
    mutating func next() async throws -> Value? {
      let start = self.start ?? marble.clock.now
      self.start = start
      guard index < marble.events.count else { return nil }
      let (frame, event) = marble.events[index]
      let due = start.frame + frame
      if marble.clock.now.frame < due {
        try await marble.clock.sleep(until: FrameClock.Instant(frame: due, tick: marble.tick))
      }
      switch event {
      case .next(let value):
        index += 1
        return value
      case .completed:
        index = marble.events.count
        return nil
      case .error(let value):
        index = marble.events.count
        throw MarbleError(value: value)
      }
    }
  }
}

/// `first(where:)` (an `async` function of the standard library) as a one-value sequence: the
/// value it returns, then the end; none when it returns nil.
struct FirstWhere<Base: AsyncSequence<Value, any Error> & Sendable>: AsyncSequence, Sendable {
  typealias Element = Value
  typealias Failure = any Error
  let base: Base
  let test: @Sendable (Value) -> Bool

  func makeAsyncIterator() -> Iterator { Iterator(base: base, test: test) }

  struct Iterator: AsyncIteratorProtocol {
    let base: Base
    let test: @Sendable (Value) -> Bool
    var done = false
    mutating func next() async throws -> Value? {
      guard !done else { return nil }
      done = true
      return try await base.first(where: test)
    }
  }
}

/// `contains(_:)` (an `async` function of the standard library) as a one-value sequence.
struct Contains<Base: AsyncSequence<Value, any Error> & Sendable>: AsyncSequence, Sendable {
  typealias Element = Value
  typealias Failure = any Error
  let base: Base
  let value: Value

  func makeAsyncIterator() -> Iterator { Iterator(base: base, value: value) }

  struct Iterator: AsyncIteratorProtocol {
    let base: Base
    let value: Value
    var done = false
    mutating func next() async throws -> Value? {
      guard !done else { return nil }
      done = true
      return .bool(try await base.contains(value))
    }
  }
}

/// The error a marble's `#` throws, carrying its value.
struct MarbleError: Error, Sendable {
  var value: Value
}

/// The consumer's events with their frames; used on the run's one thread only.
final class Recorder: @unchecked Sendable {
  private(set) var events: [Recorded] = []
  var isClosed = false
  func append(_ frame: Int, _ event: Event) {
    guard !isClosed else { return }
    events.append(Recorded(frame: frame, event: event))
  }
}

/// A value handed to the run's tasks, which all run on the run's one thread.
struct Unchecked<T>: @unchecked Sendable {
  var value: T
  init(_ value: T) { self.value = value }
}
