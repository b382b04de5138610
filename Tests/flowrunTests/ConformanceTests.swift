import Foundation
import Testing

/// Differential conformance against RxPY (`Tests/Conformance/rxpy_diff.py`): random signal
/// graphs, their events computed by RxPY's TestScheduler, run as flowrun scenarios by the built
/// `flowrun` executable (`CLI.executable`). Needs `python3` with `reactivex==6.1.0`
/// (`python3 -m pip install reactivex==6.1.0`); without them the tests fail, they never skip.
@Suite struct Conformance {
  /// The seed and count CI runs; any other seed must agree too (`--seed N --count 2000`).
  static let seed = 1
  static let count = 300

  static let script = CLI.packageRoot.appendingPathComponent("Tests/Conformance/rxpy_diff.py")
  static let regressions = CLI.packageRoot.appendingPathComponent("Tests/Conformance/regressions")

  @Test func flowrunAgreesWithRxPY() throws {
    try Self.requireReactivex()
    let flowrun = try #require(CLI.executable, "the flowrun executable was not built")
    let output = try Self.python([
      Self.script.path, "--seed", "\(Self.seed)", "--count", "\(Self.count)", "--flowrun", flowrun.path,
    ])
    #expect(
      output.status == 0,
      "rxpy_diff.py --seed \(Self.seed) --count \(Self.count) exited \(output.status):\n\(output.text)")
    #expect(output.text.contains("rxpy-diff: \(Self.count) passed, 0 failed"), "\(output.text)")
  }

  /// The scenarios that the differential run found engine bugs with, kept as fixed regressions.
  @Test func regressionScenariosPass() throws {
    let output = try CLI.run(["--color", "never", Self.regressions.path])
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    #expect(output.stdout.contains(" passed, 0 failed"), "\(output.stdout)")
  }

  // MARK: - Python

  struct Output {
    var status: Int32
    var text: String
  }

  /// Fails with a message saying what to install when python3 or reactivex is missing.
  static func requireReactivex() throws {
    let probe: Output
    do {
      probe = try python(["-c", "import reactivex, sys; sys.stdout.write(reactivex.__version__)"])
    } catch {
      Issue.record(
        "python3 could not be started (\(error)); install Python 3 and `python3 -m pip install reactivex==6.1.0`")
      throw error
    }
    if probe.status == 127 {
      Issue.record("python3 was not found on PATH; install Python 3 and `python3 -m pip install reactivex==6.1.0`")
      throw ConformanceSetupError()
    }
    if probe.status != 0 {
      Issue.record(
        "the Python package 'reactivex' is missing: `python3 -m pip install reactivex==6.1.0`\n\(probe.text)")
      throw ConformanceSetupError()
    }
    if probe.text != "6.1.0" {
      Issue.record(
        "reactivex \(probe.text) is installed; the conformance run is written for 6.1.0: `python3 -m pip install reactivex==6.1.0`"
      )
      throw ConformanceSetupError()
    }
  }

  struct ConformanceSetupError: Error {}

  /// Runs `python3 arguments…` from the package root without the variables that change
  /// flowrun's output; stdout and stderr together.
  static func python(_ arguments: [String]) throws -> Output {
    let run = try Shell.run(
      ["python3"] + arguments, environment: ["PYTHONDONTWRITEBYTECODE": "1"],
      unsetting: ["NO_COLOR", "CI", "GITHUB_ACTIONS", "FORCE_COLOR"])
    return Output(status: run.status, text: run.output)
  }
}
