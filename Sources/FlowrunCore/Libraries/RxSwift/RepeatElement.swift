/// RxSwift `Observable.repeatElement(v)`: `v` again and again, each one a new scheduler action
/// at the subscription's frame, until the subscriber disposes (RxS
/// `Observables/Repeat.swift` `RepeatElementSink.run`: `scheduleRecursive` on the
/// `CurrentThreadScheduler`, whose trampoline runs each recursion as a queued action). Without
/// a `take` after it the run reaches its action limit, as the app would spin for ever.
///
/// ```
/// repeatElement: a, take: 3    (aaa|)
/// ```
public final class RepeatElementSource: Source {
  private let value: Value
  private let owner: NodeLabel
  // Unowned: the run's graph owns its runtime (Runtime, "Ownership").
  private unowned let runtime: Runtime

  public init(_ value: Value, owner: NodeLabel, runtime: Runtime) {
    self.value = value
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let sink = Sink(value: value, observer: observer, owner: owner, runtime: runtime)
    sink.perform(0)
    return sink
  }

  private final class Sink: ScheduledAction, Disposable {
    let value: Value
    let observer: any Observer
    let owner: NodeLabel
    unowned let runtime: Runtime
    var isDisposed = false

    init(value: Value, observer: any Observer, owner: NodeLabel, runtime: Runtime) {
      self.value = value
      self.observer = observer
      self.owner = owner
      self.runtime = runtime
    }

    var isCancelled: Bool { isDisposed }

    func perform(_ argument: Int) {
      guard !isDisposed else { return }
      observer.receive(.next(value))
      guard !isDisposed else { return }
      runtime.scheduler.schedule(after: 0, self)
    }

    func dispose() {
      isDisposed = true
    }
  }
}
