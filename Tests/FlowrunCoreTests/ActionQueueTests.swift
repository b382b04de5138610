import Testing

@testable import FlowrunCore

/// The scheduler's queue (ActionQueue.swift, over HeapModule): every order of scheduling comes out in
/// `(frame, sequence)` order, across growth, reserved sequences and compaction.
@Suite struct ActionQueueTests {
  /// Logs `(frame, tag)` for each action it runs.
  final class Tagged: ScheduledAction {
    let owner = NodeLabel("tagged")
    var log: [(frame: Int, tag: Int)] = []
    unowned let scheduler: VirtualTimeScheduler

    init(_ scheduler: VirtualTimeScheduler) {
      self.scheduler = scheduler
    }

    func perform(_ argument: Int) {
      log.append((scheduler.now, argument))
    }
  }

  /// An action that does nothing and is cancelled from the start.
  final class Dead: ScheduledAction {
    let owner = NodeLabel("dead")
    func perform(_ argument: Int) {}
    var isCancelled: Bool { true }
  }

  /// A small deterministic generator (no randomness in tests).
  struct Generator {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  @Test func thousandsOfActionsComeOutInFrameThenSchedulingOrder() {
    let scheduler = VirtualTimeScheduler()
    let probe = Tagged(scheduler)
    var generator = Generator(state: 42)
    var expected: [(frame: Int, tag: Int)] = []
    for tag in 0..<3_000 {
      let frame = generator.next(200)
      scheduler.schedule(at: frame, probe, argument: tag)
      expected.append((frame, tag))
      if tag % 500 == 0 { scheduler.checkInvariants() }
    }
    // Stable sort: within a frame, scheduling order.
    expected = expected.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
      .map(\.element)
    _ = scheduler.run(timeLimit: 1_000, stepLimit: 10_000)
    #expect(probe.log.map(\.tag) == expected.map(\.tag))
    #expect(probe.log.map(\.frame) == expected.map(\.frame))
    #expect(scheduler.pendingCount == 0)
  }

  @Test func actionsScheduledWhileRunningKeepTheOrder() {
    // Each action due at frame f schedules another at f + d (d from 0 to 3): actions of the
    // same frame run in the order they were scheduled, the new ones after the older ones.
    final class Chain: ScheduledAction {
      let owner = NodeLabel("chain")
      var log: [Int] = []
      var generator = Generator(state: 7)
      var nextTag = 0
      unowned let scheduler: VirtualTimeScheduler

      init(_ scheduler: VirtualTimeScheduler) {
        self.scheduler = scheduler
      }

      func perform(_ argument: Int) {
        log.append(argument)
        guard nextTag < 2_000 else { return }
        nextTag += 1
        scheduler.schedule(after: generator.next(4), self, argument: nextTag)
      }
    }
    let scheduler = VirtualTimeScheduler()
    let chain = Chain(scheduler)
    // A reference model: a list sorted by (frame, sequence), searched linearly.
    for start in 0..<5 { scheduler.schedule(at: start, chain, argument: -1 - start) }
    var model: [(frame: Int, sequence: Int, tag: Int)] = (0..<5).map { ($0, $0, -1 - $0) }
    var modelGenerator = Generator(state: 7)
    var sequence = 5
    var nextTag = 0
    var expected: [Int] = []
    func precedes(_ a: Int, _ b: Int) -> Bool {
      (model[a].frame, model[a].sequence) < (model[b].frame, model[b].sequence)
    }
    while let first = model.indices.min(by: precedes) {
      let entry = model.remove(at: first)
      expected.append(entry.tag)
      if nextTag < 2_000 {
        nextTag += 1
        model.append((entry.frame + modelGenerator.next(4), sequence, nextTag))
        sequence += 1
      }
    }
    _ = scheduler.run(timeLimit: 100_000, stepLimit: 100_000)
    #expect(chain.log == expected)
    scheduler.checkInvariants()
  }

  @Test func compactionDropsCancelledActionsAndKeepsTheOrderOfTheOthers() {
    let scheduler = VirtualTimeScheduler()
    let probe = Tagged(scheduler)
    let dead = Dead()
    var generator = Generator(state: 3)
    var expected: [(frame: Int, tag: Int)] = []
    for tag in 0..<5_000 {
      if tag % 10 == 0 {
        let frame = generator.next(50)
        scheduler.schedule(at: frame, probe, argument: tag)
        expected.append((frame, tag))
      } else {
        scheduler.schedule(at: generator.next(50), dead)
      }
    }
    // Reaching 4,096 pending actions dropped the cancelled ones.
    #expect(scheduler.pendingCount < 4_096)
    scheduler.checkInvariants()
    expected = expected.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
      .map(\.element)
    _ = scheduler.run(timeLimit: 1_000, stepLimit: 10_000)
    #expect(probe.log.map(\.tag) == expected.map(\.tag))
  }

  @Test func removeAllReleasesEveryPendingAction() {
    weak var released: Tagged?
    let scheduler = VirtualTimeScheduler()
    do {
      let probe = Tagged(scheduler)
      released = probe
      for tag in 0..<100 { scheduler.schedule(at: tag, probe, argument: tag) }
    }
    #expect(released != nil)
    scheduler.removeAll()
    #expect(released == nil)
    #expect(scheduler.pendingCount == 0)
    #expect(scheduler.run(timeLimit: 100, stepLimit: 100) == .idle)
  }
}
