import Foundation

/// The nearest directory at or above `path` holding a `Package.swift`: the Swift package a
/// test file (`#filePath`) or a directory belongs to. A file starts the search at its own
/// directory; with no package above, that directory is the answer.
public func nearestPackageRoot(of path: String) -> String {
  var isDirectory: ObjCBool = false
  let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
  var directory = URL(fileURLWithPath: path)
  if !(exists && isDirectory.boolValue) { directory.deleteLastPathComponent() }
  let start = directory.standardizedFileURL
  directory = start
  while true {
    if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
      return directory.path
    }
    let parent = directory.deletingLastPathComponent()
    if parent.path == directory.path { return start.path }
    directory = parent
  }
}
