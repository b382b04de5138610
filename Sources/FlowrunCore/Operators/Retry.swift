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
}

private final class RetryObserver: OperatorSubscription, Observer, ScheduledAction {
  let downstream: any Observer
  let count: Int?
  let delay: Timing
  let resubscribesAsAction: Bool
  /// The source, subscribed anew at each attempt.
  var upstream: (any Source)?
  var link = UpstreamLink()
  var retries = 0
  var isDisposed = false

  var owner: NodeLabel { delay.owner }

  init(downstream: any Observer, count: Int?, delay: Timing, resubscribesAsAction: Bool) {
    self.downstream = downstream
    self.count = count
    self.delay = delay
    self.resubscribesAsAction = resubscribesAsAction
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
    guard case .error = event else { return downstream.receive(event) }
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
