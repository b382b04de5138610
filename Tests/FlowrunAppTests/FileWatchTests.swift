import FlowrunApp
import Foundation
import Testing

/// `--watch`: which files are watched, and that a change ends the wait.
@Suite struct FileWatchTests {
  /// A fresh directory holding `files` (relative paths, empty contents).
  private func directory(with files: [String]) throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-watch-\(UUID().uuidString)")
    for file in files {
      let url = root.appendingPathComponent(file)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data().write(to: url)
    }
    return root.path
  }

  @Test func theYAMLFilesUnderTheDirectoriesAreWatchedInOrder() throws {
    let root = try directory(with: ["b.yaml", "a/c.yml", "notes.txt"])
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(FileWatch.yamlFiles(in: [root]) == [root + "/a/c.yml", root + "/b.yaml"])
    #expect(FileWatch.yamlFiles(in: [root + "/notes.txt", root + "/missing.yaml"]) == [root + "/notes.txt"])
  }

  @Test func addingOrRemovingAFileIsAChangeSeenOnce() throws {
    let root = try directory(with: ["a.yaml"])
    defer { try? FileManager.default.removeItem(atPath: root) }
    var watch = FileWatch(paths: [root])
    let unchanged = watch.hasChanged()
    try Data().write(to: URL(fileURLWithPath: root + "/b.yaml"))
    let added = watch.hasChanged()
    let seenAlready = watch.hasChanged()
    try FileManager.default.removeItem(atPath: root + "/a.yaml")
    let removed = watch.hasChanged()
    #expect([unchanged, added, seenAlready, removed] == [false, true, false, true])
  }

  @Test(.timeLimit(.minutes(1))) func aChangeEndsTheWait() throws {
    let root = try directory(with: ["a.yaml"])
    defer { try? FileManager.default.removeItem(atPath: root) }
    var watch = FileWatch(paths: [root])
    try Data().write(to: URL(fileURLWithPath: root + "/b.yaml"))
    watch.waitForChange(polling: 0.01)
    let changedAgain = watch.hasChanged()
    #expect(!changedAgain)
  }
}
