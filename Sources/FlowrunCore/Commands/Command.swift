import FlowrunDiagnostics

/// A RACCommand / Action: executions of a work signal, with derived state signals.
///
/// `execute` follows semantics.md §Commands, with RAC2's main-queue hops performed
/// synchronously inside the frame, in RAC2's order:
/// 1. disabled (the enabled signal's latest value is false, or an execution runs and the
///    command is not concurrent): only a rejected execution is counted;
/// 2. otherwise `executing` → true (if it was false), `enabled` → false (if not concurrent),
///    `executions` emits the new inner signal, then the work is made and subscribed;
/// 3. work values go to the inner signal (and so to `values`, which is `executions` switched to
///    latest); when the work ends, the inner completes (an error never reaches it), `errors`
///    emits the error value (failures only), `executing` → false (when none is left) and
///    `enabled` is recomputed.
///
/// Whether an `execute` is accepted is RAC2's `immediateEnabled`, which changes before any of
/// those deliveries: once the work has ended, an `execute` made while they are delivered (from
/// an `executing` → false or an `errors` handler) is accepted, and its execution starts after
/// them, as RAC2's main-queue blocks run in the order they were queued.
///
/// `Kind.action` is RxSwiftCommunity `Action` 5 (`Sources/Action/Action.swift`, `init` and
/// `execute`): an `execute` while not enabled sends `"notEnabled"` on `errors`
/// (`ActionError.notEnabled`); a failed execution sends its error on `errors` first (the work's
/// `do(onError:)`), then fails its inner signal; `values` are Action's `elements`, every
/// execution's values merged (`flatMap`, errors caught); with an `enabled` signal the action is
/// disabled until that signal's first value (`combineLatest(executing, enabledIf)`).
public final class Command {
  /// Makes the work signal of an execution from its input.
  public typealias Work = (Value) throws(StepFailure) -> any Source

  /// Which library's command type this is.
  public enum Kind: Sendable {
    /// RAC2's `RACCommand` (the default).
    case racCommand
    /// RxSwiftCommunity `Action`.
    case action
  }

  public let owner: NodeLabel
  public let isConcurrent: Bool
  public let kind: Kind
  /// `<command>.executing`: current value to each new subscriber, then changes.
  public let executing: Subject
  /// `<command>.enabled`: current value to each new subscriber, then changes (deduplicated).
  public let enabled: Subject
  /// `<command>.executions`: one inner signal per execution; not replayed.
  public let executions: Subject
  /// `<command>.values`: the newest execution's values; not replayed.
  public let values: Subject
  /// `<command>.errors`: each failed execution's error value; not replayed.
  public let errors: Subject
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  private unowned let runtime: Runtime
  private let work: Work
  private var allowed = true
  /// Executions started and not ended (what `executing` and `enabled` show).
  private var running = 0
  /// How many executions are running (started and not ended).
  public var runningCount: Int { running }
  /// Accepted executions waiting for an ending execution's deliveries to finish.
  private var waiting: [Value] = []
  /// Nesting of `finish`'s deliveries.
  private var finishing = 0
  private var isEnabled = true
  private var links: [UpstreamLink] = []
  /// The executions still running, so that a run that stops early can end them.
  private var active: [Execution] = []

  /// `followsEnabledSignal`: the command will `follow(enabled:)` a signal (an `Action` is
  /// disabled until its first value).
  public init(
    owner: NodeLabel, isConcurrent: Bool, kind: Kind = .racCommand, followsEnabledSignal: Bool = false,
    runtime: Runtime, work: @escaping Work
  ) {
    self.owner = owner
    self.isConcurrent = isConcurrent
    self.kind = kind
    self.runtime = runtime
    self.work = work
    func derived(_ name: String, _ kind: Subject.Kind) -> Subject {
      Subject(kind: kind, owner: NodeLabel("\(owner.name).\(name)", at: owner.location), runtime: runtime)
    }
    let startsEnabled = kind == .racCommand || !followsEnabledSignal
    allowed = startsEnabled
    isEnabled = startsEnabled
    executing = derived("executing", .behavior(.bool(false)))
    enabled = derived("enabled", .behavior(.bool(startsEnabled)))
    executions = derived("executions", .publish)
    values = derived("values", .publish)
    errors = derived("errors", .publish)
    let switched: any Source
    switch kind {
    case .racCommand:
      switched = executions.switchMap { value, _ throws(StepFailure) in
        try innerSignal(of: value, operator: "values")
      }
    case .action:
      switched = executions.flatMap { value, _ throws(StepFailure) in
        try innerSignal(of: value, operator: "values").catchError { _ in ImmediateSource(events: [.completed]) }
      }
    }
    let link = UpstreamLink()
    links = [link]
    link.attach(switched.subscribe(values))
  }

  /// Ends the command's own subscriptions (its `enabled` signal and its `values` switch), at the
  /// end of a run.
  public func dispose() {
    // Taken out of the properties, leaving none (Exclusivity.swift).
    for link in links.take() { link.dispose() }
    for execution in active.take() { execution.link.dispose() }
  }

  /// Follows the `enabled` signal from now on (RACCommand subscribes at initialisation).
  public func follow(enabled source: any Source) {
    let link = UpstreamLink()
    var list = links.take()  // changed moved out (Exclusivity.swift)
    list.append(link)
    swap(&list, &links)
    link.attach(source.subscribe(EnabledObserver(command: self)))
  }

  fileprivate func setAllowed(_ value: Bool) {
    allowed = value
    updateEnabled()
  }

  /// The `enabled` signal failed: it will never say true again, so the command stays disabled
  /// (RAC2's `execute:` reads the failed `immediateEnabled` as NO). Running executions go on.
  fileprivate func enabledSignalFailed(_ error: Value) {
    runtime.warn(.enabledSignalFailed(command: owner.name, error), at: owner.location)
    setAllowed(false)
  }

  private func updateEnabled() {
    let now = allowed && (isConcurrent || running == 0)
    guard now != isEnabled else { return }
    isEnabled = now
    enabled.receive(.next(.bool(now)))
  }

  /// Starts an execution with `input`, or counts a rejected one when disabled.
  public func execute(_ input: Value) {
    guard allowed && (isConcurrent || running + waiting.count == 0) else {
      runtime.rejectedExecutions += 1
      runtime.trace(owner, .next(input), note: "rejected: disabled")
      if kind == .action { errors.receive(.next(.string("notEnabled"))) }
      return
    }
    guard finishing == 0 else {
      var list = waiting.take()  // changed moved out (Exclusivity.swift)
      list.append(input)
      swap(&list, &waiting)
      return
    }
    start(input)
  }

  private func start(_ input: Value) {
    running += 1
    if running == 1 { executing.receive(.next(.bool(true))) }
    updateEnabled()
    let inner = Subject(
      kind: .replay(.max), owner: NodeLabel("\(owner.name).execution", at: owner.location), runtime: runtime)
    executions.receive(.next(.signal(SignalValue(source: inner))))
    let execution = Execution(command: self, inner: inner)
    var list = active.take()  // changed moved out (Exclusivity.swift)
    list.append(execution)
    swap(&list, &active)
    let source: any Source
    do throws(StepFailure) {
      source = try work(input)
    } catch {
      execution.receive(.error(error.value))
      return
    }
    execution.link.attach(source.subscribe(execution))
  }

  fileprivate func finish(_ execution: Execution, error: Value?) {
    var list = active.take()  // changed moved out (Exclusivity.swift)
    list.removeAll { $0 === execution }
    swap(&list, &active)
    running -= 1
    finishing += 1
    switch (kind, error) {
    case (.action, let error?):
      errors.receive(.next(error))
      execution.inner.receive(.error(error))
    case (_, let error):
      execution.inner.receive(.completed)
      if let error { errors.receive(.next(error)) }
    }
    if running == 0 { executing.receive(.next(.bool(false))) }
    updateEnabled()
    finishing -= 1
    guard finishing == 0 else { return }
    for input in waiting.take() { start(input) }
  }
}

/// Forwards an execution's work into its inner signal and ends it.
private final class Execution: Observer {
  // Unowned: commands belong to the graph and live for the whole run; deliveries end with it.
  unowned let command: Command
  let inner: Subject
  let link = UpstreamLink()

  init(command: Command, inner: Subject) {
    self.command = command
    self.inner = inner
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next:
      inner.receive(event)
    case .error(let error):
      link.finish()
      command.finish(self, error: error)
    case .completed:
      link.finish()
      command.finish(self, error: nil)
    }
  }
}

/// Feeds the latest value of the `enabled` signal to its command; a non-Bool value counts as
/// false, an error as a last false (docs/semantics.md §Commands and services), and completion
/// keeps the latest value.
private final class EnabledObserver: Observer {
  // Unowned: commands belong to the graph and live for the whole run; deliveries end with it.
  unowned let command: Command

  init(command: Command) {
    self.command = command
  }

  func receive(_ event: Event) {
    switch event {
    case .next(let value): command.setAllowed(value == .bool(true))
    case .error(let error): command.enabledSignalFailed(error)
    case .completed: break
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func enabledSignalFailed(command: String, _ error: Value) -> Self {
    "the enabled signal of command '\(command)' failed with \(error); the command stays disabled"
  }
}
