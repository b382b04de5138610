import Foundation
import Testing

@testable import FlowrunApp

/// The parent's reading of a crashed child's progress, and the settings it hands the next child.
@Suite struct IsolatedRunTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var progress: String
    var inFlight: [String]
    var reported: Int
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "nothing started", progress: "", inFlight: [], reported: 0),
    Case(name: "a load in flight", progress: "L0\nl0\nL1\n", inFlight: ["L1"], reported: 0),
    Case(
      name: "a run in flight after two reports", progress: "L0\nl0\nL1\nl1\nR0.0\nr0.0\nP0\nR1.0\nr1.0\nR1.1\nP1\n",
      inFlight: ["R1.1"], reported: 2),
    Case(
      name: "two runs in flight (--jobs 2)", progress: "R0.0\nR1.0\nr0.0\nR2.0\n", inFlight: ["R1.0", "R2.0"],
      reported: 0),
    Case(name: "a line cut by the crash", progress: "R0.0\nr0.0\nR1.", inFlight: ["R1."], reported: 0),
  ]

  @Test(arguments: cases)
  func progress(_ test: Case) {
    let progress = IsolatedRun.Progress(text: test.progress)
    #expect(progress.inFlight == test.inFlight)
    #expect(progress.reportedFiles == test.reported)
  }

  @Test func childSettingsComeFromTheEnvironment() throws {
    #expect(IsolatedRun.child(environment: [:]) == nil)
    let child = try #require(
      IsolatedRun.child(environment: [
        "FLOWRUN_ISOLATION_PROGRESS": "/tmp/p",
        "FLOWRUN_ISOLATION_CRASHED": "R1.0 signal 6, SIGABRT: Fatal error: x\nL2 signal 11, SIGSEGV",
        "FLOWRUN_ISOLATION_QUIET": "3", "FLOWRUN_ISOLATION_SERIAL": "1", "FLOWRUN_TEST_CRASH_ON": "a.yaml",
      ]))
    #expect(child.progressPath == "/tmp/p")
    #expect(child.crashed == ["R1.0": "signal 6, SIGABRT: Fatal error: x", "L2": "signal 11, SIGSEGV"])
    #expect(child.quietFiles == 3)
    #expect(child.serial)
    #expect(child.crashOn == "a.yaml")
    #expect(
      child.crashMessage("R1.0")
        == "flowrun crashed while running this scenario (signal 6, SIGABRT: Fatal error: x); the run went on without it"
    )
    #expect(
      child.crashMessage("L2")
        == "flowrun crashed while loading this file (signal 11, SIGSEGV); the run went on without it")
    #expect(child.crashMessage("R0.0") == nil)
  }

  @Test func signalNames() {
    #expect(IsolatedRun.describe(signal: SIGABRT) == "signal 6, SIGABRT")
    #expect(IsolatedRun.describe(signal: SIGILL) == "signal 4, SIGILL")
    #expect(IsolatedRun.describe(signal: 64) == "signal 64")
  }
}
