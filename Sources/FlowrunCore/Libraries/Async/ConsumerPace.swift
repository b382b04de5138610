/// A slow consumer of an `AsyncSequence` (`consumer: { busy: n }` on an expectation under
/// `library: async`): it calls `next()` when it subscribes, and again `n` frames after each
/// value it receives. A value that arrives while it is busy waits in the buffer nearest the
/// consumer, which keeps it by its policy (`Subject.BufferingPolicy`): `unbounded` (a marble,
/// a channel's suspended senders, `buffer(policy: .unbounded)` or `.bounded`), the oldest n or
/// the newest n (an `AsyncStream`'s policy, `buffer(policy:)`'s, or `debounce`, which keeps its
/// latest value). At the next pull the oldest kept value is handed out. A terminal event waits
/// for the kept values to be handed out first (an `AsyncStream` and `buffer(policy:)` hand out
/// their buffer before `nil` or the error: `AsyncBufferSequence`, `TestBuffer.swift`).
///
/// An operator that computes when it is pulled (`_throttle`, `zip`, `combineLatest`, `merge`)
/// asks whether the consumer waits (`DemandingObserver`) and keeps its bases' values itself
/// until the next pull.
///
/// ```
/// source:                       -1-2-3-4-|
/// consumer busy 3 (unbounded)   -1--2--3--4(|)
/// consumer busy 3 (newest 1)    -1--3--4|     (2 is dropped when 3 arrives while busy)
/// ```
///
/// `notBefore` holds, for each pull (the one at subscription first), the frame before which it
/// does not happen (an expectation marble's `,`, `nil`: no such frame); `pulled` is told the
/// frame of each pull, for the diagram.
extension Source {
  public func pulled(
    busy timing: Timing, keeping policy: Subject.BufferingPolicy, notBefore: [Int?] = [],
    pulled: ((Int) -> Void)? = nil
  ) -> any Source {
    timed(timing) {
      PullObserver(
        downstream: $0, timer: $1, policy: policy,
        schedule: PullSchedule(notBefore: notBefore, runtime: timing.runtime),
        pulled: pulled)
    }
  }
}

/// When pull k may happen, counted from the pull at subscription.
private struct PullSchedule {
  let notBefore: [Int?]
  unowned let runtime: Runtime
  var count = 0

  /// The frames the next pull waits, from now (0: at once), counting it.
  mutating func nextWait() -> Int {
    defer { count += 1 }
    guard count < notBefore.count, let frame = notBefore[count] else { return 0 }
    return max(0, frame - runtime.now)
  }
}

private final class PullObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let policy: Subject.BufferingPolicy
  let link = UpstreamLink()
  /// Whether the consumer is suspended in `next()`.
  var waiting = false
  var kept: [Value] = []
  var end: Event?
  var schedule: PullSchedule
  let pulled: ((Int) -> Void)?
  /// What a pull-based operator before it (`_throttle`, `zip`, `combineLatest`, `merge`) runs when the
  /// consumer calls `next()` again (`DemandingObserver`).
  var resumes: [() -> Void] = []

  init(
    downstream: any Observer, timer: TimerSlot, policy: Subject.BufferingPolicy, schedule: PullSchedule,
    pulled: ((Int) -> Void)?
  ) {
    self.downstream = downstream
    self.timer = timer
    self.policy = policy
    self.schedule = schedule
    self.pulled = pulled
    // The pull at subscription.
    let wait = self.schedule.nextWait()
    if wait == 0 {
      waiting = true
      pulled?(schedule.runtime.now)
    } else {
      timer.schedule(after: wait, target: self)
    }
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      if waiting { return hand(value) }
      keep(value)
    case .error, .completed:
      link.finish()
      if waiting, kept.isEmpty { return downstream.receive(event) }
      end = event
    }
  }

  private func hand(_ value: Value) {
    waiting = false
    downstream.receive(.next(value))
    let wait = max(timer.duration, schedule.nextWait())
    guard wait > 0 else { return pull() }
    timer.schedule(after: wait, target: self)
  }

  private func keep(_ value: Value) {
    switch policy {
    case .unbounded: kept.append(value)
    case .bufferingOldest(let limit): if kept.count < limit { kept.append(value) }
    case .bufferingNewest(let limit):
      guard limit > 0 else { return }
      if kept.count == limit { kept.removeFirst() }
      kept.append(value)
    }
  }

  /// The consumer calls `next()` again.
  private func pull() {
    pulled?(schedule.runtime.now)
    if !kept.isEmpty { return hand(kept.removeFirst()) }
    if let event = end {
      end = nil
      return downstream.receive(event)
    }
    waiting = true
    let resumed = resumes
    resumes = []
    for resume in resumed { resume() }
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    pull()
  }

  func dispose() {
    timer.cancel()
    kept.removeAll()
    end = nil
    resumes = []
    link.dispose()
  }
}

/// The consumer wants a value while it waits in `next()`: an operator that computes when it is
/// pulled asks it (through the value-by-value steps between them) and is called back at the
/// next pull.
extension PullObserver: DemandingObserver {
  var wantsValue: Bool { waiting && !link.isFinished }
  var isOpen: Bool { !link.isFinished }
  func whenWanting(_ resume: @escaping () -> Void) {
    guard !link.isFinished else { return }
    resumes.append(resume)
  }
}
