import FlowrunAsyncRuntime
import FlowrunCore
import Foundation
import Testing

/// What the tasks of a test did, at which frame (only touched on the run's thread).
private final class Log: @unchecked Sendable {
  var lines: [String] = []
}

/// Runs `body` on a fresh runtime with frames of `tick` nanoseconds, then the scheduler until
/// idle or `until`; returns the log and the wall time it took.
private func run(
  tick: Int64 = 100_000_000, until: Int? = nil, _ body: (AsyncRuntime, Log) -> Void
) -> (log: [String], runtime: AsyncRuntime, wall: Duration) {
  let scheduler = VirtualTimeScheduler()
  let runtime = AsyncRuntime(scheduler: scheduler, tick: tick)
  let log = Log()
  let start = ContinuousClock.now
  runtime.withJobs {
    body(runtime, log)
    _ = scheduler.run(until: until, timeLimit: 100_000_000, stepLimit: 1_000_000)
  }
  return (log.lines, runtime, ContinuousClock.now - start)
}

/// The sleeps of the default clocks, taken by no clock parameter, in the run's frames
/// (DefaultClocks.swift, docs/testing-real-code.md "Sleeps on the default clocks").
@Suite struct DefaultClockTests {
  /// Fails loudly when a toolchain stops sending the default clocks' sleeps to the default
  /// executor that `_createExecutors(factory:)` installs: then every un-injected sleep in a
  /// bound test would be real time again.
  @Test func thisToolchainRoutesDefaultClockSleepsIntoTheRun() {
    // Were they real time, the run would end at frame 0 with the task still asleep.
    let (log, _, _) = run { runtime, log in
      Task {
        try await Task.sleep(for: .seconds(3))
        log.lines.append("for@\(runtime.frame)")
        try await Task.sleep(nanoseconds: 3_000_000_000)
        log.lines.append("nanoseconds@\(runtime.frame)")
        try await Task.sleep(until: .now + .seconds(3), clock: .continuous)
        log.lines.append("continuous@\(runtime.frame)")
        try await Task.sleep(until: .now + .seconds(3), clock: .suspending)
        log.lines.append("suspending@\(runtime.frame)")
        try await ContinuousClock().sleep(for: .seconds(3))
        log.lines.append("ContinuousClock@\(runtime.frame)")
        try await SuspendingClock().sleep(for: .seconds(3))
        log.lines.append("SuspendingClock@\(runtime.frame)")
      }
    }
    #expect(AsyncRuntime.sleepsOfDefaultClocksAreVirtual)
    #expect(
      log == [
        "for@30", "nanoseconds@60", "continuous@90", "suspending@120", "ContinuousClock@150", "SuspendingClock@180",
      ])
  }

  @Test func aMainActorTaskSleepsInTheRunToo() {
    let (log, _, _) = run { runtime, log in
      Task { @MainActor in
        try await Task.sleep(for: .milliseconds(250))
        MainActor.preconditionIsolated()
        log.lines.append("main@\(runtime.frame)")
      }
    }
    #expect(log == ["main@3"])
  }

  /// As `FrameClock`: a duration ending between two frames ends at the later one, never early;
  /// same-deadline sleeps wake in the order they slept.
  @Test func sleepsRoundUpToTheNextFrameInDeadlineThenFIFOOrder() {
    let (log, _, _) = run { runtime, log in
      for (name, milliseconds) in [("a", 300), ("b", 100), ("c", 300), ("d", 250), ("e", 0), ("f", 301)] {
        Task {
          try await Task.sleep(for: .milliseconds(milliseconds))
          log.lines.append("\(name)@\(runtime.frame)")
        }
      }
    }
    #expect(log == ["e@0", "b@1", "a@3", "c@3", "d@3", "f@4"])
  }

  @Test func aCancelledSleepEndsAtOnceWithCancellationError() {
    let (log, runtime, _) = run { runtime, log in
      let sleeper = Task {
        do {
          try await Task.sleep(for: .seconds(60))
          log.lines.append("woke@\(runtime.frame)")
        } catch {
          log.lines.append("\(type(of: error))@\(runtime.frame)")
        }
      }
      Task {
        try await Task.sleep(for: .milliseconds(200))
        sleeper.cancel()
      }
    }
    #expect(log == ["CancellationError@2"])
    #expect(runtime.armedAtEnd.isEmpty)
  }

  @Test func aSleepArmedWhenTheRunEndsIsReportedAndNeverEnds() {
    let (log, runtime, _) = run(until: 10) { runtime, log in
      Task {
        try await Task.sleep(for: .seconds(60))
        log.lines.append("woke")
      }
      Task {
        try await SuspendingClock().sleep(for: .seconds(2))
        log.lines.append("short@\(runtime.frame)")
      }
    }
    #expect(log.isEmpty)
    #expect(runtime.armedAtEnd.map(\.clock) == ["ContinuousClock", "SuspendingClock"])
    #expect(runtime.armedAtEnd.map(\.frame) == [600, 20])
  }

  /// A sleep's distance is read twice — from the start of the job (never short) and from the
  /// moment it reached the executor (never long) — and the roundest duration between is taken.
  @Test(
    arguments: [
      (early: 299_996_832, late: 300_000_150, expected: 300_000_000),
      (early: 250_000_000, late: 250_000_000, expected: 250_000_000),
      (early: 333_332_900, late: 333_333_400, expected: 333_333_000),
      (early: -5_000, late: 1_000, expected: 0),
      (early: 599_999_999_000, late: 600_000_000_100, expected: 600_000_000_000),
    ] as [(early: Int64, late: Int64, expected: Int64)])
  func theRoundestDurationBetweenTheTwoReadingsIsTaken(_ reading: (early: Int64, late: Int64, expected: Int64)) {
    #expect(AsyncRuntime.sleepDuration(early: reading.early, late: reading.late) == reading.expected)
  }

  @Test func aTenMinuteTimelineOfSleepsEndsAtItsFrame() {
    let (log, _, _) = run(tick: 1_000_000) { runtime, log in
      Task {
        for _ in 0..<600 { try await Task.sleep(for: .seconds(1)) }
        log.lines.append("done@\(runtime.frame)")
      }
    }
    #expect(log == ["done@600000"])
  }

  // MARK: - What no hook changes

  /// `ContinuousClock.now` read by the code is the real clock: during a run it moves by the
  /// real time the run takes, not by the frames.
  @Test func continuousClockNowStaysRealTimeDuringARun() {
    let (log, _, _) = run { runtime, log in
      Task {
        let before = ContinuousClock.now
        try await Task.sleep(for: .seconds(600))
        let moved = ContinuousClock.now - before
        log.lines.append("frame \(runtime.frame), moved less than 60 s: \(moved < .seconds(60))")
      }
    }
    #expect(log == ["frame 6000, moved less than 60 s: true"])
  }

  /// `DispatchQueue.asyncAfter` is Dispatch's, not a job: it fires in real time on another
  /// thread, never in the run.
  @Test func dispatchAsyncAfterIsNotTheRuns() {
    let fired = DispatchSemaphore(value: 0)
    let (log, _, _) = run { runtime, log in
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { fired.signal() }
      Task {
        try await Task.sleep(for: .seconds(5))
        log.lines.append("slept@\(runtime.frame)")
      }
    }
    #expect(log == ["slept@50"])
    #expect(fired.wait(timeout: .now() + .seconds(60)) == .success)
  }

  /// `Thread.sleep` blocks the run's one thread for real: the frames wait for it.
  @Test func threadSleepBlocksTheRunForReal() {
    let (log, _, wall) = run { runtime, log in
      Task {
        blockTheThread(for: 0.05)
        log.lines.append("after@\(runtime.frame)")
      }
    }
    #expect(log == ["after@0"])
    #expect(wall >= .milliseconds(50))
  }

  private func blockTheThread(for seconds: Double) {
    Thread.sleep(forTimeInterval: seconds)
  }

  /// Off a run, the default executor is the process's, in real time.
  @Test func aSleepOffARunIsRealTime() async throws {
    _ = run { _, _ in }
    let start = ContinuousClock.now
    try await Task.sleep(for: .milliseconds(30))
    #expect(ContinuousClock.now - start >= .milliseconds(30))
  }
}
