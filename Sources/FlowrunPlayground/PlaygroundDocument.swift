import FlowrunApp
import FlowrunDiagnostics
import FlowrunReport
import FlowrunScenario
import FlowrunYAML
import Foundation

/// The scenario file a playground edits: what it held when it was loaded (or last saved), how
/// each edit renders, and saving it back.
///
/// Edits stay in the page until it asks to save; a save writes the whole text atomically (a
/// temporary file in the same directory, then a rename) and refuses when the file on disk is no
/// longer what the page started from.
public actor PlaygroundDocument {
  /// The file, as given on the command line; nil for a playground that cannot save.
  public nonisolated let path: String?
  /// The text the page starts with.
  public private(set) var text: String
  /// The version of the file on disk the page's edits are based on (``version(of:)``).
  public private(set) var base: String

  /// The version of a file that does not exist.
  public static let absent = "absent"

  /// Opens `path` (a new file starts from the starter scenario); nil: an unsaved starter.
  public init(path: String?) throws(UsageError) {
    self.path = path
    guard let path else {
      text = StarterScenario.text(
        schema: StarterScenario.schemaReference(forFileAt: FileManager.default.currentDirectoryPath + "/scenario.yaml"))
      base = PlaygroundDocument.absent
      return
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard !isDirectory.boolValue else {
        throw UsageError("\(path) is a directory; give the playground one scenario file")
      }
      guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read \(path)") }
      text = String(decoding: data, as: UTF8.self)
      base = PlaygroundDocument.version(of: data)
    } else {
      text = StarterScenario.text(schema: StarterScenario.schemaReference(forFileAt: path))
      base = PlaygroundDocument.absent
    }
  }

  /// A short fingerprint of a file's bytes (FNV-1a, 64 bits, and the length).
  public static func version(of data: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16) + "-" + String(data.count)
  }

  /// The version of the file on disk now.
  nonisolated func versionOnDisk() -> String {
    guard let path, let data = FileManager.default.contents(atPath: path) else { return PlaygroundDocument.absent }
    return PlaygroundDocument.version(of: data)
  }

  // MARK: - Saving

  public enum SaveResult: Sendable, Equatable {
    /// Written; the page's edits are now based on `base`.
    case saved(base: String)
    /// Not written: the file changed on disk since the page loaded it (or last saved it).
    case changedOnDisk
    /// Not written: the playground has no file, or writing failed.
    case failed(String)
  }

  /// Writes `text` over the file, if the file is still at version `base`.
  public func save(_ text: String, base: String) -> SaveResult {
    guard let path else {
      return .failed("this playground has no file: start it with `flowrun playground FILE` to save")
    }
    guard base == self.base, versionOnDisk() == base else { return .changedOnDisk }
    let data = Data(text.utf8)
    do {
      try PlaygroundDocument.writeAtomically(data, to: path)
    } catch {
      return .failed("cannot write \(path): \(error.localizedDescription)")
    }
    self.text = text
    self.base = PlaygroundDocument.version(of: data)
    return .saved(base: self.base)
  }

  /// Writes `data` to a temporary file beside `path`, with the permissions of the file it
  /// replaces, and renames it over `path`: a reader sees the old file or the new, never a part.
  static func writeAtomically(_ data: Data, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).flowrun-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
    }
    do {
      if let mode = try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary.path)
      }
      guard rename(temporary.path, path) == 0 else {
        throw CocoaError(
          .fileWriteUnknown,
          userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }
}
