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

  @Test func sessionEndIsRead() {
    #expect(IsolatedRun.Progress(text: "R0.0\nr0.0\nP0\nE\n").finished)
    #expect(!IsolatedRun.Progress(text: "R0.0\nr0.0\nP0\n").finished)
  }

  /// A child that exits in the middle of a run is reported as crashed in what it was running,
  /// and the next child goes on without it.
  @Test func childThatExitsMidRunIsReported() {
    let script = """
      case "$FLOWRUN_ISOLATION_CRASHED" in
        *"R0.0 exited with status 3"*) echo "told: $FLOWRUN_ISOLATION_CRASHED" >&2; echo E >> "$FLOWRUN_ISOLATION_PROGRESS"; exit 0 ;;
        *) echo R0.0 >> "$FLOWRUN_ISOLATION_PROGRESS"; exit 3 ;;
      esac
      """
    let errors = Collected()
    let outcome = IsolatedRun.supervise(
      executable: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"]
    ) {
      errors.append($0)
    }
    #expect(outcome == .exited(0))
    #expect(errors.text.contains("told: R0.0 exited with status 3"), "\(errors.text)")
  }

  /// A child that has ended is not waited for, even when a process it started holds its
  /// standard error open.
  @Test func childThatEndedIsNotWaitedFor() throws {
    let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-grandchild-\(UUID())")
    defer { try? FileManager.default.removeItem(at: pidFile) }
    let script = "sleep 3600 & echo $! > '\(pidFile.path)'; echo E >> \"$FLOWRUN_ISOLATION_PROGRESS\"; exit 5"
    let outcome = IsolatedRun.supervise(
      executable: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"]
    ) { _ in }
    #expect(outcome == .exited(5))
    if let pid = Int32(
      (try? String(contentsOf: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    {
      kill(pid, SIGKILL)
    }
  }

  /// A child that cannot start leaves the run to this process, with the settings it would have
  /// had.
  @Test func childThatCannotStartRunsInProcess() {
    let outcome = IsolatedRun.supervise(executable: "/nonexistent/flowrun", arguments: [], environment: [:]) { _ in }
    guard case .runInProcess(let child, let reason) = outcome else {
      Issue.record("expected a run in process, got \(outcome)")
      return
    }
    #expect(child.crashed.isEmpty)
    #expect(child.progressPath == "/dev/null")
    #expect(reason.contains("could not start") && reason.contains("without crash isolation"), "\(reason)")
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

/// What a supervised child wrote to standard error.
final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()

  func append(_ chunk: Data) {
    lock.lock()
    data.append(chunk)
    lock.unlock()
  }

  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: data, as: UTF8.self)
  }
}
