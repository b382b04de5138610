public import FlowrunDiagnostics
public import FlowrunMarbles
public import FlowrunYAML
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A scenario file after loading: its scenarios and every diagnostic found.
public struct LoadedFile: Sendable {
  public let path: String
  public let scenarios: [Scenario]
  public let diagnostics: [Diagnostic]
  /// The number of documents that failed to load.
  public let failedDocuments: Int
  /// The `name:` of each document that failed to load, where it could be read, in file order.
  public var failedNames: [String] = []
  /// Notes for `flowrun check`: a default key read under a library that has its own word for it
  /// (libraries.md, Rules).
  public var notes: [Diagnostic] = []

  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// A file that was not loaded: one error at its start saying why (`message`).
  public static func failed(path: String, message: String) -> LoadedFile {
    let diagnostic = Diagnostic(path: path, location: nil, message: message)
    return LoadedFile(path: path, scenarios: [], diagnostics: [diagnostic], failedDocuments: 1)
  }
}

/// Reads scenario files: YAML, then validation of every document.
public enum ScenarioLoader {
  /// Loads the file at `path` (read from disk); a scenario without `library:` is read in
  /// `library` (`flowrun run --library`), or every scenario when `forcing` (`flowrun compare`).
  public static func load(
    path: String, limits: YAMLLimits = YAMLLimits(), library: Library? = nil, forcing: Bool = false
  ) -> LoadedFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      let diagnostic = Diagnostic(path: path, location: nil, message: Diagnostic.Message.cannotReadFile.text)
      return LoadedFile(path: path, scenarios: [], diagnostics: [diagnostic], failedDocuments: 1)
    }
    return load(path: path, bytes: [UInt8](data), limits: limits, library: library, forcing: forcing)
  }

  /// Loads scenario text given as bytes, reporting diagnostics against `path`.
  public static func load(
    path: String, bytes: [UInt8], limits: YAMLLimits = YAMLLimits(), library: Library? = nil, forcing: Bool = false
  ) -> LoadedFile {
    load(path: path, bytes: bytes, limits: limits, marbleLimits: MarbleLimits(), library: library, forcing: forcing)
  }

  /// Loads scenario text with `marbleLimits` bounding every marble (the benchmarks raise them for
  /// their million-event marbles).
  public static func load(
    path: String, bytes: [UInt8], limits: YAMLLimits, marbleLimits: MarbleLimits, library: Library? = nil,
    forcing: Bool = false
  ) -> LoadedFile {
    let (file, yamlDiagnostics) = YAMLFile.parse(path: path, bytes: bytes, limits: limits)
    var diagnostics = yamlDiagnostics
    var scenarios: [Scenario] = []
    var notes: [Diagnostic] = []
    var failed = yamlDiagnostics.contains { $0.severity == .error } ? 1 : 0
    var failedNames: [String] = []
    if failed == 1 { failedNames = readableNames(in: bytes) }
    if failed == 0 {
      // Scenarios keep the file for placing diagnostics (its bytes and line table), not the
      // parsed trees, which are released once every document is compiled.
      var located = file
      located.documents = []
      for document in file.documents {
        guard let root = document.root else { continue }
        let compiler = ScenarioCompiler(file: located, library: library)
        compiler.forcesLibrary = forcing
        compiler.marbleLimits = marbleLimits
        if let scenario = compiler.compile(root) {
          scenarios.append(scenario)
        } else {
          failed += 1
          if let name = root["name"]?.scalarValue, root["name"]?.isScalar == true { failedNames.append(name) }
        }
        notes += compiler.context.notes
        diagnostics += compiler.context.diagnostics.sorted { lhs, rhs in
          (lhs.location?.offset ?? 0) < (rhs.location?.offset ?? 0)
        }
      }
      if file.documents.allSatisfy({ $0.root == nil }) {
        diagnostics.append(Diagnostic(path: path, location: nil, message: Diagnostic.Message.noScenario.text))
        failed = 1
      }
    }
    var loaded = LoadedFile(path: path, scenarios: scenarios, diagnostics: diagnostics, failedDocuments: failed)
    loaded.failedNames = failedNames
    loaded.notes = notes + placeholders(in: bytes, path: path)
    return loaded
  }

  /// The `<#placeholders#>` of a file (a draft of `flowrun-import` leaves them in comments where
  /// the Swift code could not be read): one warning each, at its place, for `flowrun check`.
  static func placeholders(in bytes: [UInt8], path: String) -> [Diagnostic] {
    guard bytes.contains(UInt8(ascii: "<")) else { return [] }
    var found: [Diagnostic] = []
    var offset = 0
    for (index, line) in String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    ).enumerated() {
      defer { offset += line.utf8.count + 1 }
      var rest = line[...]
      while let open = rest.range(of: "<#"), let close = rest[open.upperBound...].range(of: "#>") {
        let column = line.unicodeScalars.distance(from: line.startIndex, to: open.lowerBound) + 1
        let text = String(rest[open.upperBound..<close.lowerBound])
        found.append(
          Diagnostic(
            severity: .warning, path: path,
            location: SourceLocation(line: index + 1, column: column, offset: offset),
            message: Diagnostic.Message.leftToFillIn(text).text, sourceLine: String(line)))
        rest = rest[close.upperBound...]
      }
    }
    return found
  }

  /// The names of a file that is not valid YAML, read from its top-level `name:` lines (each
  /// read alone as YAML), so that a report can still show them.
  static func readableNames(in bytes: [UInt8]) -> [String] {
    var names: [String] = []
    for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array("name:".utf8)) {
      let (file, diagnostics) = YAMLFile.parse(path: "", bytes: Array(line), limits: YAMLLimits())
      guard diagnostics.isEmpty, let node = file.documents.first?.root?["name"], node.isScalar,
        let name = node.scalarValue, !name.isEmpty
      else { continue }
      names.append(name)
    }
    return names
  }

  /// Whether `bytes` look like a scenario file: its first document has a `flowrun` key (or, when
  /// it is not valid YAML, a line starts with `flowrun:`, so a broken scenario is still reported).
  public static func isScenarioFile(bytes: [UInt8]) -> Bool {
    ScenarioDiscovery.quickLook(bytes, whole: true) ?? isScenarioFileParsed(bytes: bytes)
  }

  /// `isScenarioFile` decided by parsing the whole file.
  static func isScenarioFileParsed(bytes: [UInt8]) -> Bool {
    let (file, diagnostics) = YAMLFile.parse(path: "", bytes: bytes, limits: YAMLLimits())
    if let root = file.documents.first?.root, diagnostics.isEmpty {
      return root["flowrun"] != nil
    }
    let text = String(decoding: bytes, as: UTF8.self)
    return text.split(separator: "\n").contains { $0.hasPrefix("flowrun:") }
  }
}

/// Finds scenario files under the paths a user gives.
public enum ScenarioDiscovery {
  /// The files to run: files given directly, and under directories (recursively, sorted) every
  /// `*.yaml`/`*.yml` whose first document has a `flowrun:` key. A file is parsed here only when
  /// its first bytes cannot tell (`quickLook`): a scenario file is parsed once, by its loader.
  public static func files(in paths: [String]) -> (files: [String], missing: [String]) {
    var files: [String] = []
    var missing: [String] = []
    let manager = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        missing.append(path)
        continue
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      let base = path.hasSuffix("/") ? String(path.dropLast()) : path
      let entries = subpaths(of: path).sorted()
      for entry in entries where entry.hasSuffix(".yaml") || entry.hasSuffix(".yml") {
        let full = base + "/" + entry
        guard isScenarioFile(path: full) else { continue }
        files.append(full)
      }
    }
    return (files, missing)
  }

  /// Every path under `directory`, relative to it, recursively, hidden ones included, without
  /// following links to directories: what `FileManager.subpaths` lists (in another order), read
  /// with `readdir` (FileManager spends about 30,000 instructions a file).
  static func subpaths(of directory: String) -> [String] {
    var found: [String] = []
    var pending = [""]
    while let relative = pending.popLast() {
      guard let stream = opendir(relative.isEmpty ? directory : directory + "/" + relative) else { continue }
      defer { closedir(stream) }
      while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
          String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name == "." || name == ".." { continue }
        let path = relative.isEmpty ? name : relative + "/" + name
        found.append(path)
        var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
        if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
          var info = stat()
          isDirectory = lstat(directory + "/" + path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        }
        if isDirectory { pending.append(path) }
      }
    }
    return found
  }

  /// Whether the file at `path` is a scenario file (`ScenarioLoader.isScenarioFile`), deciding
  /// from its first bytes when they are enough (`quickLook`), so that the loader is the only one
  /// to parse it.
  static func isScenarioFile(path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let prefixLength = 1 << 16
    guard let prefix = try? handle.read(upToCount: prefixLength) else { return false }
    let head = [UInt8](prefix)
    let whole = head.count < prefixLength
    switch quickLook(head, whole: whole) {
    case true?: return true
    case false?: return false
    case nil:
      guard whole else {
        guard let rest = try? handle.readToEnd() else { return false }
        return ScenarioLoader.isScenarioFileParsed(bytes: head + [UInt8](rest))
      }
      return ScenarioLoader.isScenarioFileParsed(bytes: head)
    }
  }

  /// What the first bytes of a file say without parsing it: true when its first line of content
  /// (after blank lines, comments, directives and a bare `---`) is a `flowrun:` key at the left
  /// margin (the first document's root is then a mapping with that key, or, when the file is not
  /// valid YAML, a line starts with `flowrun:`: a scenario either way); false when the `whole`
  /// file is UTF-8 and holds neither `flowrun` nor a backslash (no escape can spell the key);
  /// nil when only a parse can tell.
  static func quickLook(_ bytes: [UInt8], whole: Bool) -> Bool? {
    // UTF-16 and UTF-32 text (a byte-order mark, or a NUL among the first bytes) is parsed.
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.prefix(4).contains(0) {
      return nil
    }
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
      let line = bytes[start..<end]
      start = end + 1
      let content = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
      if content.isEmpty || content.first == UInt8(ascii: "#") || line.first == UInt8(ascii: "%") { continue }
      if line.starts(with: Array("---".utf8)) {
        let after = line.dropFirst(3).drop {
          $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r")
        }
        if after.isEmpty || after.first == UInt8(ascii: "#") { continue }
        break
      }
      let key = Array("flowrun:".utf8)
      if line.starts(with: key) {
        let next = line.dropFirst(key.count).first
        if next == nil || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\r") {
          return true
        }
      }
      break
    }
    guard whole, !bytes.contains(UInt8(ascii: "\\")) else { return nil }
    let word = Array("flowrun".utf8)
    var index = bytes.startIndex
    while let found = bytes[index...].firstIndex(of: word[0]) {
      if bytes[found...].starts(with: word) { return nil }
      index = found + 1
    }
    return false
  }
}

extension Diagnostic.Message {
  fileprivate static let cannotReadFile: Self = "cannot read the file"
  fileprivate static let noScenario: Self = "the file holds no scenario"
  /// A `<#placeholder#>` a draft (`flowrun init`, `flowrun-import`) left for the user.
  fileprivate static func leftToFillIn(_ text: String) -> Self { "left to fill in: \(text)" }
}
