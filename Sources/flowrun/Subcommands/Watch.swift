import ArgumentParser
import FlowrunApp
import Foundation

/// Runs a command once, or (`--watch`) again every time its file changes, until Ctrl-C.
enum Watcher {
  /// Runs `body` and exits with its code; with `watch`, polls `path`'s modification time and
  /// runs `body` again after each change, forever.
  static func run(path: String, watch: Bool, _ body: () throws -> Int32) throws {
    try run(paths: [path], watch: watch, body)
  }

  /// As `run(path:watch:_:)`, watching every YAML file under `paths`.
  static func run(paths: [String], watch: Bool, _ body: () throws -> Int32) throws {
    guard watch else {
      let code = try runReportingUsage(body)
      if code != 0 { throw ExitCode(code) }
      return
    }
    var files = FileWatch(paths: paths)
    _ = try? runReportingUsage(body)
    note("watching \(paths.joined(separator: ", ")) for changes (Ctrl-C to stop)")
    while true {
      files.waitForChange()
      note("a scenario changed; running again")
      _ = try? runReportingUsage(body)
    }
  }

  static func note(_ text: String) {
    FileHandle.standardError.write(Data("flowrun: \(text)\n".utf8))
  }

  /// Runs `body`, turning a usage error into a message and exit code 64.
  private static func runReportingUsage(_ body: () throws -> Int32) throws -> Int32 {
    do {
      return try body()
    } catch let error as UsageError {
      FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
      throw ExitCode(64)
    }
  }
}
