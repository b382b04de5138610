import Foundation
import Testing

/// `flowrun trace`, `flowrun diagram`, `run --trace`, `--watch`, and the gallery, end to end.
@Suite struct TraceDiagramCLITests {
  @Test func traceWalksFrameByFrame() throws {
    let output = try CLI.run(["trace", "scenarios/login/enable-button.yaml"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("\nframe 3 (300 ms)\n  passwordText           next \"123\"\n  → vm.password"))
    #expect(output.stdout.contains("(combineLatest: [\"1\", \"123\"] → map)"))
    #expect(output.stdout.hasSuffix("(3 expectations)\n"))
  }

  @Test func runTraceTracesEveryFile() throws {
    let output = try CLI.run(["run", "--trace", "scenarios/hud"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("execute rejected (disabled)"))
    #expect(output.stdout.components(separatedBy: "\nsetup (before any scheduled action)\n").count - 1 >= 4)
  }

  /// `--color` as `run` takes it: a script that passes `--color never` to every command.
  @Test func traceAndDiagramTakeColor() throws {
    for command in ["trace", "diagram"] {
      let never = try CLI.run([command, "--color", "never", "scenarios/login/enable-button.yaml"])
      #expect(never.status == 0, "\(command): \(never.stderr)")
      #expect(!never.stdout.contains("\u{1B}["))
    }
    let always = try CLI.run(["trace", "--color", "always", "scenarios/login/enable-button.yaml"])
    #expect(always.status == 0)
    #expect(always.stdout.contains("\u{1B}[32m"))
    #expect(try CLI.run(["diagram", "--color", "sometimes", "scenarios/login/enable-button.yaml"]).status == 64)
  }

  @Test func diagramWritesEachFormat() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-diagram-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for format in ["text", "svg", "html"] {
      let path = directory.appendingPathComponent("out.\(format)").path
      let output = try CLI.run(["diagram", "scenarios/hud/two-commands.yaml", "--format", format, "-o", path])
      #expect(output.status == 0, "\(format): \(output.stderr)")
      #expect(output.stdout.isEmpty)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.contains("hudVisible"))
    }
    let missing = try CLI.run(["diagram", "no/such/file.yaml"])
    #expect(missing.status == 64)
  }

  /// The gallery is what flowrun draws today: regenerating it changes no byte.
  @Test func galleryIsUpToDate() throws {
    let executable = try #require(CLI.executable)
    let gallery = CLI.packageRoot.appendingPathComponent("docs/gallery")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-gallery-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [gallery.appendingPathComponent("generate.sh").path, directory.path]
    process.environment = ["FLOWRUN": executable.path, "PATH": "/usr/bin:/bin"]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let generated = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    let committed = try FileManager.default.contentsOfDirectory(atPath: gallery.path)
      .filter { $0 != "generate.sh" && $0 != "README.md" }.sorted()
    #expect(generated == committed)
    for name in generated {
      let fresh = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
      let old = FileManager.default.contents(atPath: gallery.appendingPathComponent(name).path)
      #expect(fresh == old, "docs/gallery/\(name) is stale: run docs/gallery/generate.sh")
    }
  }

  /// `--watch` redraws the output file when the scenario changes.
  @Test func watchRedrawsWhenTheFileChanges() throws {
    let executable = try #require(CLI.executable)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-watch-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let scenario = directory.appendingPathComponent("s.yaml")
    let output = directory.appendingPathComponent("s.txt")
    func write(_ marble: String) throws {
      try Data("flowrun: 1\nname: watched\nsignals:\n  a: { hot: \"\(marble)\" }\n".utf8).write(to: scenario)
    }
    try write("-x")
    let process = Process()
    process.executableURL = executable
    process.arguments = ["diagram", scenario.path, "-o", output.path, "--watch"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    // Polls until the output holds `text`; the limit (120 s, a redraw takes well under a
    // second) is only a guard against a watcher that never redraws.
    func waitFor(_ text: String) -> Bool {
      for _ in 0..<1_200 {
        if let data = FileManager.default.contents(atPath: output.path),
          String(decoding: data, as: UTF8.self).contains(text)
        {
          return true
        }
        Thread.sleep(forTimeInterval: 0.1)
      }
      return false
    }
    #expect(waitFor(" -x  hot"))
    Thread.sleep(forTimeInterval: 1.1)  // a new modification time, even on coarse file systems
    try write("---y")
    #expect(waitFor(" ---y  hot"))
  }
}
