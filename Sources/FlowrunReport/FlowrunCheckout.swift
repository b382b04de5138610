import Foundation

/// The flowrun checkout that the running executable was built in (`<root>/.build/…/flowrun`),
/// whose `schemas/` and `docs/reference/` editors can point at.
public enum FlowrunCheckout {
  /// The scenario schema's path inside a checkout.
  public static let schemaPath = "schemas/flowrun-scenario.schema.json"

  /// The nearest directory above `executable` (symbolic links resolved) that holds the
  /// scenario schema; nil for an executable copied away from its checkout.
  public static func root(executable: URL? = Bundle.main.executableURL) -> URL? {
    guard let executable else { return nil }
    return directory(above: executable.resolvingSymlinksInPath().deletingLastPathComponent(), holding: schemaPath)
  }

  /// `start` or the nearest directory above it that holds `relativePath`.
  public static func directory(above start: URL, holding relativePath: String) -> URL? {
    var candidate = start.standardizedFileURL
    while true {
      if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(relativePath).path) {
        return candidate
      }
      let parent = candidate.deletingLastPathComponent()
      if parent.path == candidate.path { return nil }
      candidate = parent
    }
  }
}
