import Flowrun
import FuzzSupport

/// A whole scenario file: load, run with small limits, and render the reports.
@main
enum Main {
  static func main() { runFuzzer(fuzz) }
}

func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data = pointer else { return 0 }
  let input = bytes(data, size)
  onLargeStack {
    let file = ScenarioLoader.load(path: "fuzz.yaml", bytes: input)
    for diagnostic in file.diagnostics { _ = diagnostic.description }
    for var scenario in file.scenarios {
      scenario.limitRunsForFuzzing()
      let result = ScenarioRunner.run(scenario)
      _ = HumanReporter(color: false, verbosity: .verbose).report(file: file, results: [result])
    }
  }
  return 0
}
