import Foundation
import Testing

/// `--update` never damages a file: a crash before the rename leaves the original, read-only
/// files and symbolic links get a clear error.
@Suite struct UpdateSafety {
  static let failing = """
    flowrun: 1
    name: wrong   # keep me
    signals:
      src: { hot: "-a|" }
    expect:
      src: "-b|"
    """

  private func scratch() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-safety-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test func aCrashBetweenWriteAndRenameLeavesTheOriginal() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("s.yaml")
    try Self.failing.write(to: file, atomically: true, encoding: .utf8)
    let output = try CLI.run(["--update", file.path], environment: ["FLOWRUN_FAULT_BEFORE_RENAME": "1"])
    #expect(output.status == 99)
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.failing)
  }

  @Test func aReadOnlyFileIsNotChanged() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("s.yaml")
    try Self.failing.write(to: file, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file.path)
    let output = try CLI.run(["--update", file.path])
    #expect(output.status == 1)
    #expect(output.stdout.contains("could not update \(file.path): the file is read-only"))
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.failing)
  }

  @Test func aSymbolicLinkIsNotReplaced() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("real.yaml")
    let link = directory.appendingPathComponent("link.yaml")
    try Self.failing.write(to: target, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let output = try CLI.run(["--update", link.path])
    #expect(output.stdout.contains("could not update \(link.path): it is a symbolic link"))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
    #expect(try String(contentsOf: target, encoding: .utf8) == Self.failing)
  }

  @Test func theUpdatedFileDiffersOnlyInsideTheMarble() throws {
    let directory = try scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("s.yaml")
    try Self.failing.write(to: file, atomically: true, encoding: .utf8)
    let output = try CLI.run(["--update", file.path])
    // It rewrote the one failing marble: the update succeeds.
    #expect(output.status == 0)
    #expect(
      try String(contentsOf: file, encoding: .utf8) == Self.failing.replacingOccurrences(of: "\"-b|\"", with: "\"-a|\"")
    )
    #expect(try CLI.run([file.path]).status == 0)
  }
}
