import Testing

@testable import FlowrunCore

/// No operator state outlives its subscription: after disposal nothing holds the downstream
/// observer any more, even with timers still queued in the scheduler.
@Suite struct OperatorLifetimeTests {
  /// Counts live probes; each probe decrements it when freed.
  final class Census {
    var live = 0
    var received = 0
  }

  final class Probe: Observer {
    let census: Census
    init(_ census: Census) {
      self.census = census
      census.live += 1
    }
    deinit { census.live -= 1 }
    func receive(_ event: Event) { census.received += 1 }
  }

  /// A chain through most of the new operators, over two subjects.
  static func chain(_ source: Subject, _ other: Subject, _ runtime: Runtime) -> any Source {
    let label = NodeLabel("chain")
    var chain = source.debounce(Timing(1, owner: label, runtime: runtime))
    chain = chain.throttle(Timing(2, owner: label, runtime: runtime))
    chain = chain.delay(Timing(1, owner: label, runtime: runtime))
    chain = chain.observeOn(owner: label, runtime: runtime)
    chain = chain.withLatestFrom([other])
    chain = chain.pairwise()
    chain = chain.sample(other)
    chain = chain.timeout(Timing(50, owner: label, runtime: runtime), fallback: nil)
    chain = chain.bufferTime(Timing(3, owner: label, runtime: runtime), every: nil, max: 4)
    chain = chain.takeLast(2)
    chain = ShareSource(chain, policy: .share, owner: label, runtime: runtime)
    chain = chain.skipUntil(other)
    chain = chain.timeoutRAC(Timing(100, owner: label, runtime: runtime))
    return chain.delaySubscription(Timing(0, owner: label, runtime: runtime))
  }

  @Test func aHundredThousandSubscribeDisposeCyclesLeaveNothingBehind() {
    let runtime = Runtime()
    let source = Subject(kind: .publish, owner: NodeLabel("source"), runtime: runtime)
    let other = Subject(kind: .publish, owner: NodeLabel("other"), runtime: runtime)
    let chain = Self.chain(source, other, runtime)
    let census = Census()
    let owner = NodeLabel("test")
    for cycle in 0..<100_000 {
      // The subscription (the disposable) is released when this closure returns.
      func runCycle() {
        let subscription = chain.subscribe(Probe(census))
        let start = runtime.now
        runtime.scheduler.schedule(
          at: start + 1,
          ClosureAction(owner: owner) {
            other.receive(.next(.int(cycle)))
            source.receive(.next(.int(cycle)))
          })
        runtime.scheduler.schedule(
          at: start + 2,
          ClosureAction(owner: owner) {
            source.receive(.next(.int(cycle + 1)))
          })
        _ = runtime.scheduler.run(until: start + 2, timeLimit: .max, stepLimit: .max)
        subscription.dispose()
      }
      runCycle()
      #expect(census.live == 0, "cycle \(cycle): state outlived its subscription")
      if census.live != 0 { return }
    }
    _ = runtime.scheduler.run(timeLimit: .max, stepLimit: .max)
    #expect(census.live == 0)
    #expect(source.log.entries.allSatisfy { $0.unsubscribed != nil })
    #expect(other.log.entries.allSatisfy { $0.unsubscribed != nil })
  }

  @Test func aSubscriptionKeptOnlyByItsTimerStillFires() {
    // `subscribeTo` and bindings drop the disposable: a pending timer must keep the chain alive.
    let runtime = Runtime()
    let census = Census()
    let label = NodeLabel("t")
    _ = ImmediateSource.never.timeoutRAC(Timing(3, owner: label, runtime: runtime)).subscribe(Probe(census))
    _ = ImmediateSource.just(.int(1)).delaySubscription(Timing(2, owner: label, runtime: runtime))
      .subscribe(Probe(census))
    #expect(census.live == 2)
    _ = runtime.scheduler.run(timeLimit: 100, stepLimit: 100)
    #expect(census.received == 3)
    #expect(census.live == 0)
  }
}
