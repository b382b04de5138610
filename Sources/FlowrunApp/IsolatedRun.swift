import FlowrunCore
import Foundation

/// Runs a session in a child process of the same executable, so that a trap while loading or
/// running one scenario (a bug of flowrun's, never the scenario's) is reported as that
/// scenario's error and the run goes on.
///
/// The supervisor (`supervise`) starts the child with the same arguments and waits; standard
/// input, output and error are the supervisor's, so a run without a crash prints exactly what an
/// in-process run prints. The child (`RunOptions.isolation`) appends a line to a progress file
/// before and after it loads each file (`L3`, `l3`) and runs each scenario (`R3.0`, `r3.0`), and
/// after it printed a file's human report (`P3`). When the child dies of a signal, the one
/// file or scenario started and not ended is the culprit: the supervisor starts a new child that
/// reports it as crashed instead of loading or running it, and does not print again the reports
/// already printed. When several were in flight (`--jobs` > 1), the new child runs on one worker,
/// so the next crash names one. Each new child knows one more culprit, so the run ends.
public enum IsolatedRun {
  /// The child's settings, passed in the environment.
  public struct Child: Sendable, Equatable {
    /// Where the child appends its progress lines.
    public var progressPath: String
    /// The loads and runs that crashed a previous child (`L3`, `R3.0`), each with how it
    /// crashed (`signal 6, SIGABRT: Fatal error: …`).
    public var crashed: [String: String] = [:]
    /// The human reports of the first `quietFiles` files were already printed.
    public var quietFiles = 0
    /// Run on one worker (several loads or runs were in flight when a child crashed).
    public var serial = false
    /// Test only: trap while running a scenario of the file with this name (`FLOWRUN_TEST_CRASH_ON`).
    public var crashOn: String?

    public init(progressPath: String) {
      self.progressPath = progressPath
    }
  }

  static let progressVariable = "FLOWRUN_ISOLATION_PROGRESS"
  static let crashedVariable = "FLOWRUN_ISOLATION_CRASHED"
  static let quietVariable = "FLOWRUN_ISOLATION_QUIET"
  static let serialVariable = "FLOWRUN_ISOLATION_SERIAL"
  /// Test only (documented in docs/architecture.md): a child traps while running a scenario of
  /// the file with this name, so that tests have a crash to report.
  public static let crashOnVariable = "FLOWRUN_TEST_CRASH_ON"

  /// The child's settings when this process is a child of `supervise`, else nil.
  public static func child(environment: [String: String]) -> Child? {
    guard let path = environment[progressVariable] else { return nil }
    var child = Child(progressPath: path)
    for entry in (environment[crashedVariable] ?? "").split(separator: "\n") {
      let parts = entry.split(separator: " ", maxSplits: 1)
      if parts.count == 2 { child.crashed[String(parts[0])] = String(parts[1]) }
    }
    child.quietFiles = Int(environment[quietVariable] ?? "") ?? 0
    child.serial = environment[serialVariable] == "1"
    child.crashOn = environment[crashOnVariable]
    return child
  }

  /// How a supervised run ended.
  public enum Outcome: Sendable, Equatable {
    /// A child ran to its end and exited with this status.
    case exited(Int32)
    /// No child could start (`reason`): the caller runs the session in its own process with
    /// these settings (what crashed before, whose reports were printed), without isolation.
    case runInProcess(Child, reason: String)
  }

  /// Runs `arguments` in children of `executable` until one runs to its end, and returns that
  /// child's exit status. `standardError` receives what the children write to standard error,
  /// and a message when a child crashed outside any file. A child that dies of a signal, or
  /// exits before its run ended, is reported as crashed in what it was loading or running, and
  /// the next child goes on without it. The supervisor starts no thread: it reads the child's
  /// standard error and checks whether the child ended, so a child that ends is never waited for.
  public static func supervise(
    executable: String, arguments: [String], environment: [String: String],
    standardError: @escaping @Sendable (Data) -> Void
  ) -> Outcome {
    let error = { (message: String) in standardError(Data(message.utf8)) }
    let progressPath =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("flowrun-progress-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
      .path
    defer { try? FileManager.default.removeItem(atPath: progressPath) }
    var child = Child(progressPath: progressPath)
    while true {
      guard FileManager.default.createFile(atPath: progressPath, contents: nil) else {
        return runHere(child, reason: "cannot create \(progressPath)")
      }
      var variables = environment
      variables[progressVariable] = progressPath
      variables[crashedVariable] = child.crashed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        .joined(separator: "\n")
      variables[quietVariable] = String(child.quietFiles)
      variables[serialVariable] = child.serial ? "1" : "0"
      // The crash is reported in the run's reports; the runtime's backtrace would take seconds.
      if variables["SWIFT_BACKTRACE"] == nil { variables["SWIFT_BACKTRACE"] = "enable=no" }
      let ended: SupervisedChild.Ending
      switch SupervisedChild.run(executable: executable, arguments: arguments, environment: variables, standardError) {
      case .failure(let failure):
        return runHere(child, reason: "the child process could not start (\(String(cString: strerror(failure.code))))")
      case .success(let ending): ended = ending
      }
      let progress = Progress(text: (try? String(contentsOfFile: progressPath, encoding: .utf8)) ?? "")
      let how: String
      switch ended.status {
      case .exited(let code):
        // A child that exits before its run ended (`E`) left what it was doing unfinished.
        if progress.finished || progress.inFlight.isEmpty { return .exited(code) }
        how = "exited with status \(code)"
      case .signalled(let signal): how = describe(signal: signal)
      }
      let signal = how + (ended.reason.map { ": " + $0 } ?? "")
      child.quietFiles = max(child.quietFiles, progress.reportedFiles)
      let suspects = progress.inFlight.filter { child.crashed[$0] == nil }
      if suspects.count == 1, let culprit = suspects.first {
        child.crashed[culprit] = signal
      } else if suspects.count > 1, !child.serial {
        child.serial = true
      } else {
        error("error: flowrun crashed (\(signal)) outside any scenario file\n")
        return .exited(1)
      }
    }
  }

  /// Runs in this process what the next child would have run; its progress goes nowhere.
  private static func runHere(_ child: Child, reason: String) -> Outcome {
    var settings = child
    settings.progressPath = "/dev/null"
    return .runInProcess(settings, reason: reason + "; the run goes on in this process, without crash isolation")
  }

  /// In a child: ends this process when its parent is gone (killed by a timeout, say), so that
  /// an orphaned child does not run on unseen. Checks five times a second, on a thread of its
  /// own; when that thread cannot start, the child runs on unwatched.
  public static func exitWithParent() {
    let parent = getppid()
    let started = WorkerThread.start(stackSize: 1 << 16) {
      while true {
        usleep(200_000)
        if getppid() != parent { _exit(1) }
      }
    }
    if case .success(let watcher) = started { watcher.detach() }
  }

  /// What a child's progress file says.
  struct Progress {
    /// The loads and runs started and not ended, in the order they started.
    var inFlight: [String] = []
    /// How many files' human reports were printed.
    var reportedFiles = 0
    /// The child's session ran to its end (`E`).
    var finished = false

    init(text: String) {
      var started: [String] = []
      var ended: Set<String> = []
      for line in text.split(separator: "\n") {
        guard let kind = line.first else { continue }
        let key = String(line.dropFirst())
        switch kind {
        case "L": started.append("L" + key)
        case "l": ended.insert("L" + key)
        case "R": started.append("R" + key)
        case "r": ended.insert("R" + key)
        case "P": reportedFiles += 1
        case "E": finished = true
        default: break
        }
      }
      inFlight = started.filter { !ended.contains($0) }
    }
  }

  /// `signal 6, SIGABRT`.
  static func describe(signal: Int32) -> String {
    let names: [Int32: String] = [
      SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
      SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
    ]
    return "signal \(signal)" + (names[signal].map { ", " + $0 } ?? "")
  }
}

extension IsolatedRun.Child {
  /// The message of a load (`L3`) or run (`R3.0`) that crashed a previous child, else nil.
  func crashMessage(_ key: String) -> String? {
    guard let how = crashed[key] else { return nil }
    let what = key.hasPrefix("L") ? "loading this file" : "running this scenario"
    return "flowrun crashed while \(what) (\(how)); the run went on without it"
  }
}

/// Appends the child's progress lines; each line is one `write`, so a crash loses none written.
final class ProgressLog: Sendable {
  private let descriptor: Int32

  init?(path: String) {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
    guard descriptor >= 0 else { return nil }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  func mark(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }
}
