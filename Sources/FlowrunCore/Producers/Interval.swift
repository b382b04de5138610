/// `interval: d` and `timer:`: integers on a timer.
///
/// `interval` sends `0, 1, 2, …` every `period`, the first one a period after subscription.
/// `timer` sends `0` after `delay` and then completes, or with `period` repeats `1, 2, …` every
/// period. Each next tick is scheduled when the previous one fires, after its delivery (RxJS).
public final class TimerSource: Source {
  public let owner: NodeLabel
  // Unowned: the run's graph owns its runtime and every node that refers to it, and nothing is
  // delivered or disposed once the run returned (Runtime, "Ownership").
  fileprivate unowned let runtime: Runtime
  fileprivate let delay: Int
  fileprivate let period: Int?

  public init(delay: Int, period: Int?, owner: NodeLabel, runtime: Runtime) {
    self.delay = delay
    self.period = period
    self.owner = owner
    self.runtime = runtime
  }

  /// `interval: period`.
  public static func interval(_ period: Int, owner: NodeLabel, runtime: Runtime) -> TimerSource {
    TimerSource(delay: period, period: period, owner: owner, runtime: runtime)
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = TimerSubscription(source: self, observer: observer)
    runtime.scheduler.schedule(after: delay, subscription, argument: 0)
    return subscription
  }
}

private final class TimerSubscription: ScheduledAction, Disposable {
  private let source: TimerSource
  private let observer: any Observer
  private var isActive = true

  var owner: NodeLabel { source.owner }
  var armedWork: String? { isActive ? (source.period == nil ? "a timer" : "an interval") : nil }

  init(source: TimerSource, observer: any Observer) {
    self.source = source
    self.observer = observer
  }

  func perform(_ tick: Int) {
    guard isActive, !source.runtime.isFailed else { return }
    let event = Event.next(.int(tick))
    source.runtime.trace(source.owner, event)
    observer.receive(event)
    guard isActive else { return }
    if let period = source.period {
      source.runtime.scheduler.schedule(after: period, self, argument: tick + 1)
    } else {
      isActive = false
      observer.receive(.completed)
    }
  }

  func dispose() {
    isActive = false
  }
}
