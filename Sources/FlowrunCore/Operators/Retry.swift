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
public final class RetrySource: Source {
  fileprivate let upstream: any Source
  fileprivate let count: Int?
  fileprivate let delay: Int
  fileprivate let owner: NodeLabel
  fileprivate unowned let runtime: Runtime

  /// `count` nil retries without bound.
  public init(_ upstream: any Source, count: Int?, delay: Int = 0, owner: NodeLabel, runtime: Runtime) {
    self.upstream = upstream
    self.count = count
    self.delay = delay
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let retry = RetryObserver(source: self, downstream: observer)
    retry.attempt()
    return retry
  }
}

private final class RetryObserver: Observer, Disposable, ScheduledAction {
  let source: RetrySource
  let downstream: any Observer
  var link = UpstreamLink()
  var retries = 0
  var isDisposed = false

  var owner: NodeLabel { source.owner }

  init(source: RetrySource, downstream: any Observer) {
    self.source = source
    self.downstream = downstream
  }

  func attempt() {
    // Every attempt is a new subscription: charging it bounds an endless retry of a source that
    // fails at once (with or without a delay) by the run's memory budget.
    guard source.runtime.chargeMemory(RunBudget.subscriptionCost, at: source.owner) else { return }
    let link = UpstreamLink()
    self.link = link
    link.attach(source.upstream.subscribe(Attempt(retry: self, link: link)))
  }

  func receive(_ event: Event) {
    guard !isDisposed else { return }
    guard case .error = event else { return downstream.receive(event) }
    if let count = source.count, retries >= count { return downstream.receive(event) }
    retries += 1
    if source.delay > 0 {
      source.runtime.scheduler.schedule(after: source.delay, self)
    } else {
      guard source.runtime.enter(source.owner) else { return }
      defer { source.runtime.exit() }
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
  private final class Attempt: Observer {
    unowned let retry: RetryObserver
    let link: UpstreamLink

    init(retry: RetryObserver, link: UpstreamLink) {
      self.retry = retry
      self.link = link
    }

    func receive(_ event: Event) {
      guard !link.isFinished else { return }
      if event.isTerminal { link.finish() }
      retry.receive(event)
    }
  }
}
