import ArgumentParser
import FlowrunApp
import Foundation

extension FlowrunCommand.Run {
  /// Runs the session once, or with `--trace` prints each file's walkthrough, and with
  /// `--watch` does it again every time a scenario file under the paths changes.
  func runOrWatch(_ options: RunOptions) throws {
    guard trace || watch else { return try runSession(options, isolated: true) }
    try Watcher.run(paths: options.paths, watch: watch) {
      guard trace else {
        do {
          try runSession(options)
          return 0
        } catch let exit as ExitCode {
          if exit.rawValue == 64 { throw exit }
          return exit.rawValue
        }
      }
      var code: Int32 = 0
      for path in FileWatch.yamlFiles(in: options.paths) {
        let output = try TeachingSession.trace(path: path)
        FileHandle.standardOutput.write(Data(output.text.utf8))
        code = max(code, output.exitCode)
      }
      return code
    }
  }
}
