import FlowrunAsyncRuntime
import FlowrunCore
import Testing

/// What the tasks of a test did, at which frame (only touched on the run's thread).
private final class Log: @unchecked Sendable {
  var lines: [String] = []
}

/// Runs `body` on a fresh runtime with 100 ms frames, then the scheduler until idle.
private func run(_ body: (AsyncRuntime, Log) -> Void) -> (log: [String], runtime: AsyncRuntime) {
  let scheduler = VirtualTimeScheduler()
  let runtime = AsyncRuntime(scheduler: scheduler, tick: 100_000_000)
  let log = Log()
  runtime.withJobs {
    body(runtime, log)
    _ = scheduler.run(timeLimit: 10_000, stepLimit: 100_000)
  }
  return (log.lines, runtime)
}

@Suite struct AsyncRuntimeTests {
  @Test func sleepsEndAtTheirFramesInDeadlineThenFIFOOrder() {
    let (log, _) = run { runtime, log in
      let clock = runtime.clock
      for (name, milliseconds) in [("a", 300), ("b", 100), ("c", 300), ("d", 250)] {
        Task {
          try await Task.sleep(for: .milliseconds(milliseconds), clock: clock)
          log.lines.append("\(name)@\(clock.now.frame)")
        }
      }
    }
    // 250 ms at 100 ms frames ends at frame 3 (never early), after a and c, which slept first.
    #expect(log == ["b@1", "a@3", "c@3", "d@3"])
  }

  @Test func jobsOfOneFrameRunFirstInFirstOutEveryTime() {
    var orders: Set<[String]> = []
    for _ in 0..<100 {
      let (log, _) = run { _, log in
        for index in 0..<20 {
          Task {
            await Task.yield()
            log.lines.append("child \(index)")
            Task { log.lines.append("grandchild \(index)") }
          }
        }
      }
      orders.insert(log)
    }
    #expect(orders.count == 1)
    #expect(orders.first?.prefix(2) == ["child 0", "child 1"])
    #expect(orders.first?.count == 40)
  }

  @Test func cancellingASleepEndsItAtTheFrameOfTheCancel() {
    let (log, _) = run { runtime, log in
      let clock = runtime.clock
      let sleeper = Task {
        do {
          try await Task.sleep(for: .seconds(1), clock: clock)
          log.lines.append("woke@\(clock.now.frame)")
        } catch {
          log.lines.append("\(type(of: error))@\(clock.now.frame)")
        }
      }
      Task {
        try await Task.sleep(for: .milliseconds(200), clock: clock)
        sleeper.cancel()
      }
    }
    #expect(log == ["CancellationError@2"])
  }

  @Test func aTaskCancelledBeforeItSleepsThrowsAtOnce() {
    let (log, _) = run { runtime, log in
      let clock = runtime.clock
      let task = Task {
        await Task.yield()
        do {
          try await clock.sleep(until: clock.now.advanced(by: .seconds(5)))
        } catch {
          log.lines.append("cancelled@\(clock.now.frame)")
        }
      }
      task.cancel()
    }
    #expect(log == ["cancelled@0"])
  }

  @Test func instantsConvertDurationsThroughTheTick() {
    let start = FrameClock.Instant(frame: 2, tick: 100_000_000)
    #expect(start.advanced(by: .milliseconds(100)).frame == 3)
    #expect(start.advanced(by: .milliseconds(101)).frame == 4)
    #expect(start.advanced(by: .zero).frame == 2)
    #expect(start.duration(to: FrameClock.Instant(frame: 5, tick: 100_000_000)) == .milliseconds(300))
  }

  @Test func aSleepPendingWhenTheRunEndsNeverEndsAndJobsDoNotOutliveTheRun() {
    let scheduler = VirtualTimeScheduler()
    let runtime = AsyncRuntime(scheduler: scheduler, tick: 1_000_000)
    let log = Log()
    runtime.withJobs {
      let clock = runtime.clock
      Task {
        try await Task.sleep(for: .seconds(60), clock: clock)
        log.lines.append("woke")
      }
      Task { log.lines.append("ran") }
      _ = scheduler.run(until: 10, timeLimit: 10_000, stepLimit: 100_000)
    }
    #expect(log.lines == ["ran"])
    #expect(runtime.pendingJobs == 0)
    #expect(runtime.frame == 0)
  }
}
