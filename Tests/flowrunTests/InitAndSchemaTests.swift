import FlowrunApp
import Foundation
import Testing

/// `flowrun init`, and the Python checks of the JSON Schemas and of the JSON and JUnit reports
/// (Tests/Schema), which need the built executable.
@Suite struct InitAndSchemaTests {
  private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-init-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func initWritesAStarterThatPasses() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let written = try CLI.run(["init", "login"], in: directory)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(written.stdout == "wrote login.yaml; run it with: flowrun login.yaml\n")
    let text = try String(contentsOf: directory.appendingPathComponent("login.yaml"), encoding: .utf8)
    // No schemas/ above the temporary directory: the schema of the checkout flowrun was built
    // in, by absolute path, a file that exists.
    let schema = CLI.packageRoot.appendingPathComponent("schemas/flowrun-scenario.schema.json").standardizedFileURL.path
    #expect(text.hasPrefix("# yaml-language-server: $schema=\(schema)\n"))
    #expect(FileManager.default.fileExists(atPath: schema))
    #expect(text.contains("\n# "), "the starter explains itself in comments")

    let run = try CLI.run(["--color", "never", "login.yaml"], in: directory)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.hasPrefix("✓ login.yaml  Login button enables once both fields have text  (2 expectations)\n"))
    let check = try CLI.run(["check", "login.yaml"], in: directory)
    #expect(check.status == 0, "\(check.stdout)")
  }

  /// `init --library L`: a starter in L's words, which says `library: L` and passes.
  @Test(arguments: [
    ("rac2", "reduceEach"), ("rxswift", "distinctUntilChanged"), ("combine", "removeDuplicates"),
    ("rxjs", "distinctUntilChanged"),
  ])
  func initWritesAStarterInALibrarysWords(_ library: String, _ word: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let written = try CLI.run(["init", "login", "--library", library], in: directory)
    #expect(written.status == 0, "\(written.stderr)")
    let text = try String(contentsOf: directory.appendingPathComponent("login.yaml"), encoding: .utf8)
    #expect(text.contains("\nlibrary: \(library) "))
    #expect(text.contains("    - \(word)"))
    let run = try CLI.run(["--color", "never", "login.yaml"], in: directory)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(try CLI.run(["init", "other", "--library", "rxjava"], in: directory).status == 64)
  }

  /// A flowrun copied away from its checkout knows no schema, and says how to attach one
  /// instead of naming an address that does not exist.
  @Test func initAwayFromAnyCheckoutWritesNoSchemaAddress() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let executable = try #require(CLI.executable)
    let copy = directory.appendingPathComponent("flowrun")
    try Shell.copyExecutable(executable, to: copy)
    let process = Process()
    process.executableURL = copy
    process.arguments = ["init", "alone"]
    process.currentDirectoryURL = directory
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let text = try String(contentsOf: directory.appendingPathComponent("alone.yaml"), encoding: .utf8)
    #expect(text.hasPrefix("# (no scenario schema found: attach one with `# yaml-language-server: $schema=PATH`"))
    #expect(!text.contains("https://"))
  }

  @Test func initRefusesToOverwrite() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("mine.yaml")
    try Data("keep me\n".utf8).write(to: file)
    let output = try CLI.run(["init", "mine"], in: directory)
    #expect(output.status == 1)
    #expect(output.stderr == "error: mine.yaml already exists; flowrun init never overwrites a file\n")
    #expect(try String(contentsOf: file, encoding: .utf8) == "keep me\n")
    let again = try CLI.run(["init", "mine.yaml"], in: directory)
    #expect(again.status == 1)
  }

  @Test func initInsideACheckoutPointsAtItsSchema() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let schemas = directory.appendingPathComponent("schemas")
    try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: schemas.appendingPathComponent("flowrun-scenario.schema.json"))
    let output = try CLI.run(["init", "scenarios/login/button"], in: directory)
    #expect(output.status == 0, "\(output.stderr)")
    let text = try String(
      contentsOf: directory.appendingPathComponent("scenarios/login/button.yaml"), encoding: .utf8)
    #expect(text.hasPrefix("# yaml-language-server: $schema=../../schemas/flowrun-scenario.schema.json\n"))
    let explicit = try CLI.run(["init", "other", "--schema", "https://example.test/s.json"], in: directory)
    #expect(explicit.status == 0)
    let other = try String(contentsOf: directory.appendingPathComponent("other.yaml"), encoding: .utf8)
    #expect(other.hasPrefix("# yaml-language-server: $schema=https://example.test/s.json\n"))
  }

  @Test func initWithoutANameIsAUsageError() throws {
    let output = try CLI.run(["init"])
    #expect(output.status == 64)
  }

  /// Runs `python3 -m pytest Tests/Schema -q` against the built executable. Fails, never skips,
  /// when Python or its packages are missing: CI installs them.
  @Test func schemaAndReportChecksPass() throws {
    let executable = try #require(CLI.executable, "the flowrun executable was not built")
    let modules = try python(["-c", "import pytest, jsonschema, yaml, junitparser, xmlschema"], flowrun: executable)
    try #require(
      modules.status == 0,
      """
      Tests/Schema needs Python 3 with pytest, jsonschema, PyYAML, junitparser and xmlschema:
        python3 -m pip install pytest jsonschema pyyaml junitparser xmlschema
      \(modules.output)
      """)
    let result = try python(
      ["-m", "pytest", "Tests/Schema", "-q", "-p", "no:cacheprovider", "--color=no"], flowrun: executable)
    #expect(result.status == 0, "python3 -m pytest Tests/Schema failed:\n\(result.output)")
  }

  private struct PythonOutput {
    var status: Int32
    var output: String
  }

  private func python(_ arguments: [String], flowrun: URL) throws -> PythonOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    process.currentDirectoryURL = CLI.packageRoot
    var environment = ProcessInfo.processInfo.environment
    environment["FLOWRUN"] = flowrun.path
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      Issue.record("cannot start python3 (install Python 3 for Tests/Schema): \(error)")
      throw error
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return PythonOutput(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }
}
