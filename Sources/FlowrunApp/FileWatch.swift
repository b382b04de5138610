import Foundation

/// The YAML files under some paths and their modification dates, for `--watch`: the executable
/// runs its command again each time `waitForChange()` returns.
public struct FileWatch: Sendable {
  public let paths: [String]
  private var stamp: [String: Date]

  /// Starts watching: the files as they are now are the baseline.
  public init(paths: [String]) {
    self.paths = paths
    stamp = Self.stamp(paths)
  }

  /// Blocks, polling every `interval`, until a YAML file under `paths` is edited, added or
  /// removed.
  public mutating func waitForChange(polling interval: TimeInterval = 0.3) {
    repeat {
      Thread.sleep(forTimeInterval: interval)
    } while !hasChanged()
  }

  /// Whether a YAML file under `paths` was edited, added or removed since the baseline; the
  /// files as they are now become the new baseline.
  public mutating func hasChanged() -> Bool {
    let now = Self.stamp(paths)
    defer { stamp = now }
    return now != stamp
  }

  /// The YAML files under `paths` (a file is itself), sorted.
  public static func yamlFiles(in paths: [String]) -> [String] {
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
  private static func stamp(_ paths: [String]) -> [String: Date] {
    var stamp: [String: Date] = [:]
    for file in yamlFiles(in: paths) { stamp[file] = modificationDate(file) }
    return stamp
  }

  private static func modificationDate(_ path: String) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
  }
}
