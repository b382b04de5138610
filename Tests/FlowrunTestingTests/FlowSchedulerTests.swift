import FlowrunTesting
import OpenCombineShim
import Testing

@Suite struct FlowSchedulerTests {
  @Test func debounceDelayAndServicesRunOnTheScenarioFrames() throws {
    let failures = try ScenarioCheck.failures(
      "Tests/FlowrunTestingTests/Scenarios/clock.yaml", root: #filePath,
      scenario: "The code's timers run on the scenario's frames"
    ) { flow in
      let typed = PassthroughSubject<Int, Never>()
      flow.drive("typed") { typed.send($0) }
      flow.observe("settled", typed.debounce(for: .milliseconds(300), scheduler: flow.scheduler))
      // 250 ms is between frames 2 and 3: it runs at frame 3, never early.
      flow.observe("delayed", typed.delay(for: .milliseconds(250), scheduler: flow.scheduler))
      let echo = flow.service("echo", returning: String.self)
      flow.observe("answers", typed.flatMap { echo($0) }.replaceError(with: "failed"))
    }
    #expect(failures.map(\.message) == [])
  }

  @Test func aPlantedThrottleIsReportedAtTheExpectationWithModelAndCodeLanes() throws {
    let failures = try ScenarioCheck.failures(
      "Tests/FlowrunTestingTests/Scenarios/clock.yaml", root: #filePath,
      scenario: "The code's timers run on the scenario's frames"
    ) { flow in
      let typed = PassthroughSubject<Int, Never>()
      flow.drive("typed") { typed.send($0) }
      flow.observe(
        "settled", typed.throttle(for: .milliseconds(300), scheduler: flow.scheduler, latest: true))
    }
    let failure = try #require(failures.first)
    #expect(failures.count == 1)
    #expect(failure.target == "settled")
    #expect(failure.line == 25)
    #expect(failure.fileID == "FlowrunTestingTests/Tests/FlowrunTestingTests/Scenarios/clock.yaml")
    #expect(failure.filePath.hasSuffix("Tests/FlowrunTestingTests/Scenarios/clock.yaml"))
    let lines = failure.message.split(separator: "\n").map(String.init)
    #expect(lines.contains("  expected ------b----c"))
    #expect(lines.contains("  model    ------b----c"))
    #expect(lines.contains { $0.hasPrefix("  code     -a--b") })
    #expect(lines.contains { $0.contains("^ frame 1: expected nothing (b at frame 6), got a") })
  }

  @Test func frameAndNowFollowTheRun() throws {
    var seen: [Int] = []
    _ = try ScenarioCheck.failures(
      "Tests/FlowrunTestingTests/Scenarios/clock.yaml", root: #filePath,
      scenario: "The code's timers run on the scenario's frames"
    ) { flow in
      flow.drive("typed") { (_: Int) in
        seen.append(flow.scheduler.now.nanoseconds / 100_000_000 == Int64(flow.frame) ? flow.frame : -1)
      }
    }
    #expect(seen == [1, 3, 8])
  }

  @Test(arguments: [(0, 0), (1, 1), (100_000_000, 1), (100_000_001, 2), (250_000_000, 3)])
  func anInstantBetweenFramesRunsAtTheNextFrame(nanoseconds: Int64, frame: Int) throws {
    var ranAt: Int?
    _ = try ScenarioCheck.failures(
      "Tests/FlowrunTestingTests/Scenarios/clock.yaml", root: #filePath,
      scenario: "The code's timers run on the scenario's frames"
    ) { flow in
      flow.scheduler.schedule(after: .init(nanoseconds: nanoseconds)) { ranAt = flow.frame }
    }
    #expect(ranAt == frame)
  }

  @Test func aRepeatingActionRunsEveryIntervalUntilCancelled() throws {
    var frames: [Int] = []
    _ = try ScenarioCheck.failures(
      "Tests/FlowrunTestingTests/Scenarios/clock.yaml", root: #filePath,
      scenario: "The code's timers run on the scenario's frames"
    ) { flow in
      var cancellable: (any Cancellable)?
      cancellable = flow.scheduler.schedule(after: .init(nanoseconds: 200_000_000), interval: .milliseconds(300)) {
        frames.append(flow.frame)
        if frames.count == 3 { cancellable?.cancel() }
      }
    }
    #expect(frames == [2, 5, 8])
  }
}
