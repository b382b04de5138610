public import FlowrunDiagnostics
public import FlowrunMarbles
public import FlowrunYAML
import Foundation

/// A scenario file after loading: its scenarios and every diagnostic found.
public struct LoadedFile: Sendable {
  public let path: String
  public let scenarios: [Scenario]
  public let diagnostics: [Diagnostic]
  /// The number of documents that failed to load.
  public let failedDocuments: Int

  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// Reads scenario files: YAML, then validation of every document.
public enum ScenarioLoader {
  /// Loads the file at `path` (read from disk).
  public static func load(path: String, limits: YAMLLimits = YAMLLimits()) -> LoadedFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      let diagnostic = Diagnostic(path: path, location: nil, message: "cannot read the file")
      return LoadedFile(path: path, scenarios: [], diagnostics: [diagnostic], failedDocuments: 1)
    }
    return load(path: path, bytes: [UInt8](data), limits: limits)
  }

  /// Loads scenario text given as bytes, reporting diagnostics against `path`.
  public static func load(path: String, bytes: [UInt8], limits: YAMLLimits = YAMLLimits()) -> LoadedFile {
    load(path: path, bytes: bytes, limits: limits, marbleLimits: MarbleLimits())
  }

  /// Loads scenario text with `marbleLimits` bounding every marble (the benchmarks raise them for
  /// their million-event marbles).
  public static func load(path: String, bytes: [UInt8], limits: YAMLLimits, marbleLimits: MarbleLimits) -> LoadedFile {
    let (file, yamlDiagnostics) = YAMLFile.parse(path: path, bytes: bytes, limits: limits)
    var diagnostics = yamlDiagnostics
    var scenarios: [Scenario] = []
    var failed = yamlDiagnostics.contains { $0.severity == .error } ? 1 : 0
    if failed == 0 {
      // Scenarios keep the file for placing diagnostics (its bytes and line table), not the
      // parsed trees, which are released once every document is compiled.
      var located = file
      located.documents = []
      for document in file.documents {
        guard let root = document.root else { continue }
        let compiler = ScenarioCompiler(file: located)
        compiler.marbleLimits = marbleLimits
        if let scenario = compiler.compile(root) {
          scenarios.append(scenario)
        } else {
          failed += 1
        }
        diagnostics += compiler.context.diagnostics.sorted { lhs, rhs in
          (lhs.location?.offset ?? 0) < (rhs.location?.offset ?? 0)
        }
      }
      if file.documents.allSatisfy({ $0.root == nil }) {
        diagnostics.append(Diagnostic(path: path, location: nil, message: "the file holds no scenario"))
        failed = 1
      }
    }
    return LoadedFile(path: path, scenarios: scenarios, diagnostics: diagnostics, failedDocuments: failed)
  }

  /// Whether `bytes` look like a scenario file: its first document has a `flowrun` key (or, when
  /// it is not valid YAML, a line starts with `flowrun:`, so a broken scenario is still reported).
  public static func isScenarioFile(bytes: [UInt8]) -> Bool {
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
  /// `*.yaml`/`*.yml` whose first document has a `flowrun:` key.
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
      let entries = (manager.subpaths(atPath: path) ?? []).sorted()
      for entry in entries where entry.hasSuffix(".yaml") || entry.hasSuffix(".yml") {
        let full = base + "/" + entry
        guard let data = manager.contents(atPath: full),
          ScenarioLoader.isScenarioFile(bytes: [UInt8](data))
        else { continue }
        files.append(full)
      }
    }
    return (files, missing)
  }
}
