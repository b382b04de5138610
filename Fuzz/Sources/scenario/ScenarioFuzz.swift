import Flowrun
import FuzzSupport

/// A whole scenario file: load, run with small limits, and render the reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
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
