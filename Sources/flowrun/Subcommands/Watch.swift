import ArgumentParser
import FlowrunReport
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
    var last = stamp(paths)
    _ = try? runReportingUsage(body)
    note("watching \(paths.joined(separator: ", ")) for changes (Ctrl-C to stop)")
    while true {
      Thread.sleep(forTimeInterval: 0.3)
      let now = stamp(paths)
      guard now != last else { continue }
      last = now
      note("a scenario changed; running again")
      _ = try? runReportingUsage(body)
    }
  }

  /// The YAML files under `paths` (a file is itself), sorted.
  static func yamlFiles(in paths: [String]) -> [String] {
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      let enumerator = FileManager.default.enumerator(atPath: path)
      while let item = enumerator?.nextObject() as? String {
        if item.hasSuffix(".yaml") || item.hasSuffix(".yml") { files.append(path + "/" + item) }
      }
    }
    return files.sorted()
  }

  /// The modification dates of the files under `paths`: changes when one is edited, added or
  /// removed.
  static func stamp(_ paths: [String]) -> [String: Date] {
    var stamp: [String: Date] = [:]
    for file in yamlFiles(in: paths) { stamp[file] = modificationDate(file) }
    return stamp
  }

  static func modificationDate(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
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
