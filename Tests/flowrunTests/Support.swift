import FlowrunTestSupport
import Foundation
import Testing

/// Runs the built `flowrun` executable as a subprocess.
///
/// Where the executable is: SwiftPM builds it into the same directory as the test bundle
/// (`.build/<triple>/debug/`), because this test target depends on the `flowrun` target. We look
/// there first: next to every loaded `*.xctest` bundle (macOS), then next to the running test
/// binary (Linux runs `flowrunPackageTests.xctest` as the process itself). As a last resort we
/// take `<package>/.build/debug/flowrun`, the path `swift build` prints.
enum CLI {
  /// The package root.
  static let packageRoot = FlowrunTestSupport.packageRoot

  static let scenarios = packageRoot.appendingPathComponent("scenarios")
  static let golden = packageRoot.appendingPathComponent("Tests/flowrunTests/Golden")

  static let executable: URL? = {
    var directories: [URL] = []
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    if let main = Bundle.main.executableURL {
      directories.append(main.deletingLastPathComponent())
    }
    let arguments = ProcessInfo.processInfo.arguments
    if let first = arguments.first {
      directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    directories.append(packageRoot.appendingPathComponent(".build/debug"))
    for directory in directories {
      let candidate = directory.appendingPathComponent("flowrun")
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
        FileManager.default.isExecutableFile(atPath: candidate.path)
      {
        return candidate
      }
    }
    return nil
  }()

  struct Output: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `flowrun arguments…` in `directory` (the package root by default). The environment
  /// is this process's without the variables that change flowrun's output (`NO_COLOR`, `CI`,
  /// `GITHUB_ACTIONS`), plus `environment`.
  static func run(
    _ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:]
  ) throws -> Output {
    let executable = try #require(executable, "the flowrun executable was not built")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var env = ProcessInfo.processInfo.environment
    for key in ["NO_COLOR", "CI", "GITHUB_ACTIONS", "FORCE_COLOR"] { env[key] = nil }
    env.merge(environment) { _, new in new }
    process.environment = env
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes before waiting, on two threads, so that neither can fill up and block.
    let errorBox = DataBox()
    let done = DispatchSemaphore(value: 0)
    let reader = Thread {
      errorBox.data = stderr.fileHandleForReading.readDataToEndOfFile()
      done.signal()
    }
    reader.start()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: errorBox.data, as: UTF8.self))
  }

  /// `text` with the run's duration in the summary line (`… in 0.01 s`) replaced by
  /// `in <duration> s`, the only part of a report that may change between runs.
  static func maskingDuration(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      guard line.contains(" scenario"), line.contains(" passed, "),
        let range = line.range(of: " in ", options: .backwards),
        line.hasSuffix(" s")
      else { return String(line) }
      return line[..<range.lowerBound] + " in <duration> s"
    }.joined(separator: "\n")
  }
}

/// Other programs the tests need (python3, chromium, swift).
enum Shell {
  /// The first executable `name` on PATH.
  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs `arguments` through /usr/bin/env in the package root, with `environment` added to
  /// this process's and the `unsetting` variables removed; stdout and stderr together.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = []
  ) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = CLI.packageRoot
    var env = ProcessInfo.processInfo.environment
    for key in unsetting { env[key] = nil }
    env.merge(environment) { _, new in new }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

extension Shell {
  /// Copies the executable `source` to `destination` with `cp`, so that this process never
  /// holds a descriptor open for writing to a file it will run. An in-process copy does: a
  /// subprocess that another test starts while the copy is being written inherits that
  /// descriptor, and running the copy then fails with `ETXTBSY` ("Text file busy").
  static func copyExecutable(_ source: URL, to destination: URL) throws {
    let copy = try run(["cp", source.path, destination.path])
    try #require(copy.status == 0, "cp \(source.path) \(destination.path): \(copy.output)")
  }
}

private final class DataBox: @unchecked Sendable {
  var data = Data()
}

/// One golden case of the human report: `Golden/<name>.yaml`, run as
/// `flowrun --color never <name>.yaml` inside `Golden/`, must print `Golden/<name>.out`
/// (the duration masked). `FLOWRUN_RECORD=1` rewrites the `.out` files and records an issue.
struct HumanGoldenCase: Sendable, CustomTestStringConvertible {
  let name: String
  var testDescription: String { name }

  static var all: [HumanGoldenCase] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: CLI.golden.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { HumanGoldenCase(name: String($0.dropLast(5))) }
  }

  var outputURL: URL { CLI.golden.appendingPathComponent(name + ".out") }
}
