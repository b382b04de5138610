import Testing

@testable import FlowrunCore

/// One test per ordering rule of the spec's semantics.md §Virtual time and §Propagation.
@Suite struct SchedulerOrderingTests {
  @Test func actionsInTheSameFrameRunInSchedulingOrder() {
    let scheduler = VirtualTimeScheduler()
    let probe = Probe("a")
    for argument in [3, 1, 2] { scheduler.schedule(at: 5, probe, argument: argument) }
    _ = scheduler.run(timeLimit: 100, stepLimit: 100)
    #expect(probe.log == ["a3", "a1", "a2"])
  }

  @Test func theSmallestFrameRunsFirstWhateverTheSchedulingOrder() {
    let scheduler = VirtualTimeScheduler()
    let probe = Probe("a")
    scheduler.schedule(at: 9, probe, argument: 9)
    scheduler.schedule(at: 2, probe, argument: 2)
    scheduler.schedule(at: 5, probe, argument: 5)
    var steps = 0
    while scheduler.pendingCount > 0 {
      _ = scheduler.run(timeLimit: 100, stepLimit: steps + 1)
      scheduler.checkInvariants()
      steps += 1
    }
    #expect(probe.log == ["a2", "a5", "a9"])
  }

  @Test func reservedSequencesKeepTheirPlaceWhenInsertedLater() {
    let scheduler = VirtualTimeScheduler()
    let early = Probe("early")
    let late = Probe("late")
    let first = scheduler.reserveSequences(2)
    scheduler.schedule(at: 4, late, argument: 0)
    scheduler.schedule(at: 4, sequence: first + 1, early, argument: 1)
    scheduler.schedule(at: 4, sequence: first, early, argument: 0)
    _ = scheduler.run(timeLimit: 100, stepLimit: 100)
    #expect(early.log == ["early0", "early1"])
    #expect(late.log == ["late0"])
  }

  @Test func hotMarblesScheduledFirstRunBeforeLaterActionsOfTheSameFrame() {
    let runtime = Runtime()
    let journal = Journal()
    let hot = HotSource(events: [next(3, 1)], owner: NodeLabel("hot"), runtime: runtime)
    hot.start()
    let timeline = ClosureAction(owner: NodeLabel("timeline")) { journal.lines.append("3:timeline") }
    runtime.scheduler.schedule(at: 3, timeline)
    _ = hot.subscribe(JournalObserver("hot", journal, runtime))
    _ = runtime.runToEnd()
    #expect(journal.lines == ["3:hot:1", "3:timeline"])
  }

  @Test func aColdEventAtOffsetZeroIsScheduledNotDeliveredInsideSubscribe() {
    let runtime = Runtime()
    let journal = Journal()
    let cold = ColdSource(events: [next(0, 1), completed(1)], owner: NodeLabel("c"), runtime: runtime)
    _ = cold.subscribe(JournalObserver("cold", journal, runtime))
    #expect(journal.lines.isEmpty)
    _ = runtime.runToEnd()
    #expect(journal.lines == ["0:cold:1", "1:cold:|"])
  }

  @Test func justAndOfDeliverSynchronouslyAtSubscription() {
    let runtime = Runtime()
    let journal = Journal()
    _ = ImmediateSource.of([.int(1), .int(2)]).subscribe(JournalObserver("of", journal, runtime))
    #expect(journal.lines == ["0:of:1", "0:of:2", "0:of:|"])
  }

  @Test func anEarlierScheduledColdResponseRunsBeforeALaterScheduledTick() {
    let runtime = Runtime()
    let journal = Journal()
    let cold = ColdSource(events: [next(4, 7)], owner: NodeLabel("response"), runtime: runtime)
    let subscribeAt3 = ClosureAction(owner: NodeLabel("t")) {
      _ = cold.subscribe(JournalObserver("response", journal, runtime))
    }
    runtime.scheduler.schedule(at: 3, subscribeAt3)
    let timer = TimerSource(delay: 1, period: nil, owner: NodeLabel("tick"), runtime: runtime)
    let subscribeAt6 = ClosureAction(owner: NodeLabel("t")) {
      _ = timer.subscribe(JournalObserver("tick", journal, runtime))
    }
    runtime.scheduler.schedule(at: 6, subscribeAt6)
    _ = runtime.runToEnd()
    #expect(journal.lines == ["7:response:7", "7:tick:0", "7:tick:|"])
  }

  @Test func runStopsAtUntilButRunsActionsDueAtUntil() {
    let scheduler = VirtualTimeScheduler()
    let probe = Probe("a")
    for frame in [4, 5, 6] { scheduler.schedule(at: frame, probe, argument: frame) }
    let outcome = scheduler.run(until: 5, timeLimit: 100, stepLimit: 100)
    #expect(outcome == .reachedEnd)
    #expect(probe.log == ["a4", "a5"])
  }

  @Test func anEndlessIntervalHitsTheTimeLimitNamingItsNode() {
    let runtime = Runtime()
    let interval = TimerSource.interval(1, owner: NodeLabel("ticker"), runtime: runtime)
    _ = interval.subscribe(JournalObserver("t", Journal(), runtime))
    let outcome = runtime.scheduler.run(timeLimit: 1_000, stepLimit: 10_000_000)
    #expect(outcome == .timeLimit(NodeLabel("ticker")))
    #expect(runtime.now == 1_000)
  }

  @Test func theStepLimitStopsARunThatNeverAdvancesTime() {
    let scheduler = VirtualTimeScheduler()
    final class Loop: ScheduledAction {
      let owner = NodeLabel("loop")
      unowned let scheduler: VirtualTimeScheduler
      init(_ scheduler: VirtualTimeScheduler) { self.scheduler = scheduler }
      func perform(_ argument: Int) { scheduler.schedule(after: 0, self) }
    }
    scheduler.schedule(at: 0, Loop(scheduler))
    #expect(scheduler.run(timeLimit: 100, stepLimit: 50) == .stepLimit(NodeLabel("loop")))
    #expect(scheduler.steps == 50)
  }

  @Test func deliveryIsDepthFirst() {
    let runtime = Runtime()
    let journal = Journal()
    let subject = Subject(kind: .publish, owner: NodeLabel("s"), runtime: runtime)
    let doubled = subject.map { value, _ in
      journal.lines.append("map")
      return value
    }
    _ = doubled.subscribe(JournalObserver("first", journal, runtime))
    _ = subject.subscribe(JournalObserver("second", journal, runtime))
    subject.receive(.next(.int(1)))
    #expect(journal.lines == ["map", "0:first:1", "0:second:1"])
  }

  @Test func subscribersOfOneSourceReceiveInSubscriptionOrder() {
    let runtime = Runtime()
    let journal = Journal()
    let hot = HotSource(events: [next(1, 5)], owner: NodeLabel("h"), runtime: runtime)
    hot.start()
    for name in ["x", "y", "z"] { _ = hot.subscribe(JournalObserver(name, journal, runtime)) }
    _ = runtime.runToEnd()
    #expect(journal.lines == ["1:x:5", "1:y:5", "1:z:5"])
  }

  @Test func multiInputOperatorsSubscribeLeftToRight() {
    let runtime = Runtime()
    let a = ColdSource(events: [], owner: NodeLabel("a"), runtime: runtime)
    let b = ColdSource(events: [], owner: NodeLabel("b"), runtime: runtime)
    let order = Journal()
    final class Spy: Source {
      let name: String
      let inner: any Source
      let journal: Journal
      init(_ name: String, _ inner: any Source, _ journal: Journal) {
        self.name = name
        self.inner = inner
        self.journal = journal
      }
      func subscribe(_ observer: any Observer) -> any Disposable {
        journal.lines.append(name)
        return inner.subscribe(observer)
      }
    }
    _ = CombineLatestSource([Spy("a", a, order), Spy("b", b, order)])
      .subscribe(JournalObserver("c", Journal(), runtime))
    _ = ZipSource([Spy("b", b, order), Spy("a", a, order)])
      .subscribe(JournalObserver("z", Journal(), runtime))
    #expect(order.lines == ["a", "b", "b", "a"])
  }

  @Test func terminationDisposesUpstreamInTheSameFrame() {
    let runtime = Runtime()
    let journal = Journal()
    let hot = HotSource(
      events: [next(1, 1), next(2, 2), next(3, 3)], owner: NodeLabel("h"), runtime: runtime)
    hot.start()
    _ = hot.take(2).subscribe(JournalObserver("take", journal, runtime))
    _ = runtime.runToEnd()
    #expect(journal.lines == ["1:take:1", "2:take:2", "2:take:|"])
    #expect(hot.log.entries == [.init(subscribed: 0, unsubscribed: 2)])
  }

  @Test func aSubscriberAddedDuringADeliveryMissesThatValue() {
    let runtime = Runtime()
    let journal = Journal()
    let subject = Subject(kind: .publish, owner: NodeLabel("s"), runtime: runtime)
    final class Subscribing: Observer {
      let subject: Subject
      let late: any Observer
      var done = false
      init(_ subject: Subject, _ late: any Observer) {
        self.subject = subject
        self.late = late
      }
      func receive(_ event: Event) {
        guard !done else { return }
        done = true
        _ = subject.subscribe(late)
      }
    }
    _ = subject.subscribe(Subscribing(subject, JournalObserver("late", journal, runtime)))
    subject.receive(.next(.int(1)))
    subject.receive(.next(.int(2)))
    #expect(journal.lines == ["0:late:2"])
  }
}
