import FlowrunScenario
import Foundation

/// What `flowrun run` was asked to do.
public struct RunOptions: Sendable {
  public var paths: [String]
  public var filter: String?
  public var tags: [String] = []
  public var skipTags: [String] = []
  public var color = false
  public var verbosity = HumanReporter.Verbosity.normal
  public var failFast = false
  /// Only load and validate (`flowrun check`).
  public var checkOnly = false

  public init(paths: [String]) {
    self.paths = paths
  }
}

/// Why a session could not start: a usage error (exit 64).
public struct UsageError: Error, Sendable, CustomStringConvertible {
  public var description: String
}

/// Runs or checks scenario files and reports on them; the executable only prints what it emits.
public enum Session {
  public static let exitSuccess: Int32 = 0
  public static let exitFailure: Int32 = 1

  /// Runs the session, handing each chunk of output to `emit` as soon as it is ready; returns
  /// the exit code (0 all passed, 1 something failed).
  public static func run(_ options: RunOptions, emit: (String) -> Void) throws(UsageError) -> Int32 {
    let started = ContinuousClock.now
    let filter: Regex<AnyRegexOutput>?
    do {
      filter = try options.filter.map { try Regex($0) }
    } catch {
      throw UsageError(description: "--filter is not a valid regular expression: \(error)")
    }
    let (files, missing) = ScenarioDiscovery.files(in: options.paths)
    if let path = missing.first {
      throw UsageError(description: "no such file or directory: \(path)")
    }
    if files.isEmpty {
      throw UsageError(description: "no scenario found in \(options.paths.joined(separator: ", "))")
    }
    let reporter = HumanReporter(color: options.color, verbosity: options.verbosity)
    var summary = RunSummary()
    for path in files {
      let file = ScenarioLoader.load(path: path)
      summary.add(file: file)
      let selected = file.scenarios.filter { scenario in
        if let filter, !scenario.name.contains(filter), !scenario.path.contains(filter) { return false }
        if !options.tags.isEmpty, !scenario.tags.contains(where: options.tags.contains) { return false }
        if scenario.tags.contains(where: options.skipTags.contains) { return false }
        return true
      }
      var results: [ScenarioResult] = []
      if options.checkOnly {
        summary.scenarios += selected.count
        summary.passed += selected.count
      } else {
        for scenario in selected {
          let result = runOnLargeStack(scenario)
          summary.add(result)
          results.append(result)
        }
      }
      emit(reporter.report(file: file, results: results))
      if options.failFast, !summary.isSuccess { break }
    }
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    emit("\n" + reporter.summary(summary, seconds: seconds) + "\n")
    return summary.isSuccess ? exitSuccess : exitFailure
  }

  /// Runs a scenario on a thread with a large stack, so deep synchronous deliveries (up to the
  /// depth limit) cannot overflow it.
  public static func runOnLargeStack(_ scenario: Scenario) -> ScenarioResult {
    let box = ResultBox()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      box.result = ScenarioRunner.run(scenario)
      done.signal()
    }
    thread.stackSize = 1 << 29
    thread.start()
    done.wait()
    guard let result = box.result else { fatalError("the scenario thread produced no result") }
    return result
  }
}

private final class ResultBox: @unchecked Sendable {
  var result: ScenarioResult?
}
