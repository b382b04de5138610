/// `debounce: d`: the latest value after `d` frames without a new one (RAC2 `-throttle:`).
///
/// Each value restarts the timer. On completion the pending value is sent, then completed; an
/// error is forwarded at once and the pending value dropped.
///
/// ```
/// source:       -a-b-----c--|
/// debounce: 2   -----b-----c|   (c is still pending at completion: sent with it)
/// ```
public final class DebounceSource: Source {
  private let upstream: any Source
  private let duration: Int
  private let owner: NodeLabel
  private unowned let runtime: Runtime

  public init(_ upstream: any Source, duration: Int, owner: NodeLabel, runtime: Runtime) {
    self.upstream = upstream
    self.duration = duration
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let debounce = DebounceObserver(downstream: observer, duration: duration, owner: owner, runtime: runtime)
    debounce.link.attach(upstream.subscribe(debounce))
    return debounce
  }
}

private final class DebounceObserver: Observer, Disposable, TimerTarget {
  let downstream: any Observer
  let duration: Int
  let owner: NodeLabel
  unowned let runtime: Runtime
  let link = UpstreamLink()
  let timer = TimerSlot()
  var pending: Value?

  init(downstream: any Observer, duration: Int, owner: NodeLabel, runtime: Runtime) {
    self.downstream = downstream
    self.duration = duration
    self.owner = owner
    self.runtime = runtime
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    timer.cancel()
    switch event {
    case .next(let value):
      pending = value
      timer.schedule(after: duration, on: runtime, owner: owner, target: self)
    case .error:
      pending = nil
      link.finish()
      downstream.receive(event)
    case .completed:
      link.finish()
      if let value = pending {
        pending = nil
        downstream.receive(.next(value))
      }
      downstream.receive(.completed)
    }
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    guard !link.isFinished, !runtime.isFailed, let value = pending else { return }
    pending = nil
    downstream.receive(.next(value))
  }

  func dispose() {
    timer.cancel()
    pending = nil
    link.dispose()
  }
}
