/// `retry: n` (or unbounded, or with a delay between attempts): on an error, subscribe to the
/// source again, at most n times after the first attempt; the last error goes through.
///
/// A source that fails synchronously and is retried without a delay re-subscribes inside the
/// delivery; each attempt counts against the run's depth limit, so an unbounded retry of such a
/// source ends with a diagnostic instead of hanging.
///
/// ```
/// source (cold):  -a-#
/// retry: 1        -a--a-#
/// ```
///
/// RAC2 resubscribes through the scheduler (`subscribeForever`): with `resubscribesAsAction`
/// an attempt without a delay is a new scheduler action at the same frame, after the rest of
/// the delivery the error was part of.
extension Source {
  /// `count` nil retries without bound; `delay` waits its duration between attempts, charged to
  /// its owner.
  public func retry(count: Int?, delay: Timing, resubscribesAsAction: Bool = false) -> any Source {
    OperatorSource(self) {
      RetryObserver(downstream: $0, count: count, delay: delay, resubscribesAsAction: resubscribesAsAction)
    }
  }

  /// RAC2 `-repeat`: on completion, subscribe to the source again, without limit, through the
  /// scheduler (ROC `subscribeForever`); an error goes through.
  public func repeatForever(owner: NodeLabel, runtime: Runtime) -> any Source {
    OperatorSource(self) {
      RetryObserver(
        downstream: $0, count: nil, delay: Timing(0, owner: owner, runtime: runtime), resubscribesAsAction: true,
        restartsOnCompletion: true)
    }
  }

  /// RxSwift `retry(when:)`: each error makes a notifier signal (`notifier`, the template with
  /// `error` bound; RxSwift's handler as `errors.flatMap { error in … }`); each of its values
  /// subscribes to the source again, its error fails the result, its completion does nothing
  /// (RxS `Observables/RetryWhen.swift` `RetryTriggerSink`, `RetryWhenSequenceSinkIter`).
  public func retryWhen(_ notifier: @escaping Recover, owner: NodeLabel, runtime: Runtime) -> any Source {
    OperatorSource(self) { RetryWhenObserver(downstream: $0, notifier: notifier, owner: owner, runtime: runtime) }
  }
}

private final class RetryObserver: OperatorSubscription, Observer, ScheduledAction {
  let downstream: any Observer
  let count: Int?
  let delay: Timing
  let resubscribesAsAction: Bool
  /// RAC2 `-repeat`: the completion, not the error, starts the next attempt.
  let restartsOnCompletion: Bool
  /// The source, subscribed anew at each attempt.
  var upstream: (any Source)?
  var link = UpstreamLink()
  var retries = 0
  var isDisposed = false

  var owner: NodeLabel { delay.owner }

  init(
    downstream: any Observer, count: Int?, delay: Timing, resubscribesAsAction: Bool, restartsOnCompletion: Bool = false
  ) {
    self.downstream = downstream
    self.count = count
    self.delay = delay
    self.resubscribesAsAction = resubscribesAsAction
    self.restartsOnCompletion = restartsOnCompletion
  }

  func start(_ upstream: any Source) {
    self.upstream = upstream
    attempt()
  }

  func attempt() {
    // Every attempt is a new subscription: charging it bounds an endless retry of a source that
    // fails at once (with or without a delay) by the run's memory budget.
    guard delay.runtime.chargeMemory(RunBudget.subscriptionCost, at: delay.owner), let upstream else { return }
    let link = UpstreamLink()
    self.link = link
    link.attach(upstream.subscribe(Attempt(retry: self, link: link)))
  }

  func receive(_ event: Event) {
    guard !isDisposed else { return }
    let restarts = restartsOnCompletion ? event == .completed : event != .completed && event.isTerminal
    guard restarts else { return downstream.receive(event) }
    if let count, retries >= count { return downstream.receive(event) }
    retries += 1
    // The failed attempt's chain is torn down before the next one (RxJS `retry` unsubscribes
    // the inner subscription, then subscribes again).
    link.dispose()
    let runtime = delay.runtime
    if delay.duration > 0 || resubscribesAsAction {
      runtime.scheduler.schedule(after: delay.duration, self)
    } else {
      guard runtime.enter(delay.owner) else { return }
      defer { runtime.exit() }
      attempt()
    }
  }

  func perform(_ argument: Int) {
    guard !isDisposed else { return }
    attempt()
  }

  func dispose() {
    isDisposed = true
    link.dispose()
  }

  /// Forwards one attempt's events while it is the current attempt.
  ///
  /// The upstream holds the attempt, and the downstream holds the retry: an upstream that never
  /// ends (a hot marble) can deliver to an attempt whose retry was released without being
  /// disposed, so the reference is weak and such a delivery reaches nobody.
  fileprivate final class Attempt: Observer {
    weak var retry: RetryObserver?
    let link: UpstreamLink

    init(retry: RetryObserver, link: UpstreamLink) {
      self.retry = retry
      self.link = link
    }

    /// A terminal event leaves the link held: `retry` disposes the failed attempt's chain.
    func receive(_ event: Event) {
      guard !link.isFinished else { return }
      retry?.receive(event)
    }
  }
}

private final class RetryWhenObserver: OperatorSubscription, Observer {
  let downstream: any Observer
  let notifier: Recover
  let owner: NodeLabel
  // Unowned: the run's graph owns its runtime (Runtime, "Ownership").
  unowned let runtime: Runtime
  var upstream: (any Source)?
  var link = UpstreamLink()
  /// The notifiers made so far (RxSwift merges them: `errors.flatMap`).
  var triggers: [UpstreamLink] = []
  var isDone = false

  init(downstream: any Observer, notifier: @escaping Recover, owner: NodeLabel, runtime: Runtime) {
    self.downstream = downstream
    self.notifier = notifier
    self.owner = owner
    self.runtime = runtime
  }

  func start(_ upstream: any Source) {
    self.upstream = upstream
    attempt()
  }

  func attempt() {
    guard !isDone, runtime.chargeMemory(RunBudget.subscriptionCost, at: owner), let upstream else { return }
    link.dispose()
    let link = UpstreamLink()
    self.link = link
    link.attach(upstream.subscribe(Attempt(retry: self, link: link)))
  }

  func receive(_ event: Event) {
    guard !isDone else { return }
    guard case .error(let error) = event else {
      if event.isTerminal { finish() }
      return downstream.receive(event)
    }
    link.dispose()
    let source: any Source
    do throws(StepFailure) {
      source = try notifier(error)
    } catch {
      finish()
      return downstream.receive(.error(error.value))
    }
    let trigger = UpstreamLink()
    triggers.append(trigger)
    trigger.attach(source.subscribe(Trigger(retry: self, link: trigger)))
  }

  func triggered(_ event: Event) {
    guard !isDone else { return }
    switch event {
    case .next:
      guard runtime.enter(owner) else { return }
      defer { runtime.exit() }
      attempt()
    case .error:
      finish()
      downstream.receive(event)
    case .completed:
      break
    }
  }

  private func finish() {
    isDone = true
    link.dispose()
    let open = triggers
    triggers = []
    for trigger in open { trigger.dispose() }
  }

  func dispose() {
    finish()
  }

  /// One attempt's events, while it is the current attempt.
  private final class Attempt: Observer {
    weak var retry: RetryWhenObserver?
    let link: UpstreamLink

    init(retry: RetryWhenObserver, link: UpstreamLink) {
      self.retry = retry
      self.link = link
    }

    func receive(_ event: Event) {
      guard !link.isFinished else { return }
      retry?.receive(event)
    }
  }

  /// A notifier's events.
  private final class Trigger: Observer {
    weak var retry: RetryWhenObserver?
    let link: UpstreamLink

    init(retry: RetryWhenObserver, link: UpstreamLink) {
      self.retry = retry
      self.link = link
    }

    func receive(_ event: Event) {
      guard !link.isFinished else { return }
      if event.isTerminal { link.finish() }
      retry?.triggered(event)
    }
  }
}

/// An attempt passes the question on to the retry's downstream while it is the current one.
extension RetryObserver.Attempt: DemandingObserver {
  private var downstream: (any Observer)? {
    guard let retry, !retry.isDisposed, !link.isFinished else { return nil }
    return retry.downstream
  }
  var wantsValue: Bool { downstream.map { FlowrunCore.wantsValue($0) } ?? false }
  var isOpen: Bool { downstream.map { FlowrunCore.isOpen($0) } ?? false }
  func whenWanting(_ resume: @escaping () -> Void) {
    (downstream as? any DemandingObserver)?.whenWanting(resume)
  }
}
