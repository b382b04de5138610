import FlowrunDiagnostics

/// Records the events an expectation observes, with the frame of each.
///
/// A signal value (higher-order) is recorded by subscribing to it at the frame it was emitted
/// and recording its events counted from that frame, so it compares with a `!cold` legend value
/// (the RxJS convention).
public final class Recorder: Observer, Disposable {
  /// The events, packed (EventTape.swift).
  public var tape: EventTape { log.tape }
  private let log = EventLog()
  // Unowned and unchecked: the run's graph owns its runtime and every node that refers to it,
  // and nothing is delivered or disposed once the run returned (Runtime, "Ownership"). Read
  // on every event without a retain (`_withUnsafeGuaranteedRef`): an `unowned` read retains
  // and releases it.
  private let unmanagedRuntime: Unmanaged<Runtime>
  private var runtime: Runtime { unmanagedRuntime.takeUnretainedValue() }
  private let link = UpstreamLink()
  private let limit: Int
  /// The recorders of the signal values recorded so far (made with the first).
  private var inner: SubscriberList<Recorder>?
  private let base: Int
  private let target: SignalValue?
  /// Where a run stopped by `limit` is reported (the expectation).
  private let location: SourceLocation?
  /// How many signal values this recording is inside (0 for an expectation's own).
  private let nesting: Int

  /// The deepest signal value recorded inside signal values. A signal that sends itself (a
  /// command's work that reads its own `executions`) would otherwise nest without end.
  public static let nestingLimit = 100

  /// `limit` bounds the number of recorded events (the run fails past it, reported at
  /// `location`).
  public init(runtime: Runtime, limit: Int = .max, location: SourceLocation? = nil) {
    self.unmanagedRuntime = .passUnretained(runtime)
    self.limit = limit
    self.base = 0
    self.target = nil
    self.location = location
    self.nesting = 0
  }

  private init(
    runtime: Runtime, limit: Int, base: Int, target: SignalValue, location: SourceLocation?, nesting: Int
  ) {
    self.unmanagedRuntime = .passUnretained(runtime)
    self.limit = limit
    self.base = base
    self.target = target
    self.location = location
    self.nesting = nesting
  }

  /// Subscribes to `source` and keeps the subscription until `dispose()`.
  public func start(_ source: any Source) {
    link.attach(source.subscribe(self))
  }

  public func receive(_ event: Event) {
    guard !link.isFinished else { return }
    unmanagedRuntime._withUnsafeGuaranteedRef { receive(event, runtime: $0) }
  }

  private func receive(_ event: Event, runtime: Runtime) {
    if case .next(.signal(let signal)) = event, let source = signal.source {
      guard nesting < Self.nestingLimit else {
        link.finish()
        return runtime.fail(
          "signal values nest deeper than the limit of \(Self.nestingLimit) (a signal that sends itself?)",
          at: location)
      }
      let recorded = SignalValue(source: source, events: [])
      let recorder = Recorder(
        runtime: runtime, limit: limit, base: runtime.now, target: recorded, location: location, nesting: nesting + 1)
      recorders().append(recorder)
      append(Recorded(frame: runtime.now - base, event: .next(.signal(recorded))), runtime: runtime)
      recorder.start(source)
    } else {
      append(Recorded(frame: runtime.now - base, event: event), runtime: runtime)
      if event.isTerminal { link.finish() }
    }
  }

  private func append(_ recorded: Recorded, runtime: Runtime) {
    guard charge(recorded.event, runtime: runtime) else { return }
    if let target {
      target.append(recorded)
    } else {
      guard log.count < limit else {
        return runtime.fail("more than \(limit) events recorded for one expectation", at: location)
      }
      log.append(recorded)
    }
  }

  /// Ends this recording and those of the signal values it recorded (at the end of a run).
  public func tearDown() {
    dispose()
    for recorder in inner?.removeAll() ?? [] { recorder.tearDown() }
  }

  private func recorders() -> SubscriberList<Recorder> {
    if let inner { return inner }
    let list = SubscriberList<Recorder>()
    inner = list
    return list
  }

  public func dispose() {
    link.dispose()
  }

  /// The frame the consumer's task was cancelled at (``cancel()``), when it was.
  public private(set) var cancelled: Int?

  /// The iterating task of an `AsyncSequence` is cancelled (`library: async`, the `;` of an
  /// expectation): unless the recording already ended, the cancellation is recorded at the
  /// current frame, then the end of the iteration (the cancelled `next()` returns nil), and
  /// the subscription is disposed.
  public func cancel() {
    guard !link.isFinished else { return }
    let runtime = self.runtime
    cancelled = runtime.now - base
    append(Recorded(frame: runtime.now - base, event: .completed), runtime: runtime)
    link.dispose()
  }

  /// Charges a recorded event to the memory budget, with the whole size of its value (the
  /// report prints it); a value too large or too deep to print fails the run.
  private func charge(_ event: Event, runtime: Runtime) -> Bool {
    var size = 0
    switch event {
    case .next(let value), .error(let value):
      guard let estimate = value.estimatedSize(limit: ValueLimits.default.size) else {
        runtime.fail(
          "a recorded value is larger than \(ValueLimits.default.size) bytes or nested deeper than"
            + " \(ValueLimits.default.depth) levels", at: nil)
        return false
      }
      size = estimate
    case .completed:
      break
    }
    return runtime.chargeMemory(RunBudget.recordedEventCost + size, at: nil)
  }
}
