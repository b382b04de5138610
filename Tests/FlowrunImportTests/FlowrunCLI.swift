import FlowrunTestSupport
import Foundation
import Testing

/// The built `flowrun` executable (this test target depends on it so that it is built beside
/// the test bundle), run as a subprocess.
enum FlowrunCLI {
  static let executable: URL? = {
    var directories: [URL] = []
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    if let first = ProcessInfo.processInfo.arguments.first {
      directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    directories.append(packageRoot.appendingPathComponent(".build/debug"))
    return directories.map { $0.appendingPathComponent("flowrun") }.first {
      FileManager.default.isExecutableFile(atPath: $0.path)
    }
  }()

  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The built `flowrun-import` executable, beside `flowrun`.
  static var importer: URL? {
    executable?.deletingLastPathComponent().appendingPathComponent("flowrun-import")
  }

  static func run(_ arguments: [String], executable: URL? = Self.executable) throws -> Output {
    let process = Process()
    guard let executable else {
      Issue.record("the flowrun executable was not built")
      return Output(status: -1, stdout: "", stderr: "")
    }
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    var environment = ProcessInfo.processInfo.environment
    for key in ["CI", "NO_COLOR", "GITHUB_ACTIONS"] { environment[key] = nil }
    process.environment = environment
    let directory = FileManager.default.temporaryDirectory
    let out = directory.appendingPathComponent("flowrun-import-out-\(UUID().uuidString)")
    let err = directory.appendingPathComponent("flowrun-import-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: out)
      try? FileManager.default.removeItem(at: err)
    }
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
  }
}
