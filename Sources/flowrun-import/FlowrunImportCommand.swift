import FlowrunDiagnostics
import FlowrunImport
import Foundation

/// `flowrun-import VIEWMODEL.swift [--out DIR] [--module NAME] [--scenario-path PATH]`: writes
/// `DIR/<Name>.yaml` and `DIR/<Name>Tests.swift` (which names the scenario by `PATH`, by
/// default its path relative to its package), prints what was read and the diagnostics
/// (docs/import.md). Exit 0 when the draft loads, 1 when the Swift file or the draft has an
/// error, 64 on misuse.
@main
struct FlowrunImportCommand {
  static let usage = "usage: flowrun-import <ViewModel.swift> [--out DIR] [--module NAME] [--scenario-path PATH]\n"

  static func main() {
    var arguments = Array(CommandLine.arguments.dropFirst())
    var options: [String: String] = [:]
    for name in ["--out", "--module", "--scenario-path"] {
      guard let index = arguments.firstIndex(of: name) else { continue }
      guard index + 1 < arguments.count else { fail(usage, code: 64) }
      options[name] = arguments[index + 1]
      arguments.removeSubrange(index...(index + 1))
    }
    guard arguments.count == 1, !arguments[0].hasPrefix("-") else { fail(usage, code: 64) }
    let path = arguments[0]
    guard let data = FileManager.default.contents(atPath: path) else {
      fail("\(path):1:1: error: cannot read the file\n", code: 1)
    }
    let out = options["--out"] ?? "."
    let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    let scenarioFile = URL(fileURLWithPath: out).appendingPathComponent("\(base).yaml").path
    let testFile = URL(fileURLWithPath: out).appendingPathComponent("\(base)Tests.swift").path
    // The other Swift files of its folder: the models its services answer may be declared there.
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let own = URL(fileURLWithPath: path).standardizedFileURL.path
    let neighbours = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
      .filter { $0.hasSuffix(".swift") }.map { folder.appendingPathComponent($0) }
      .filter { $0.standardizedFileURL.path != own }
      .compactMap { FileManager.default.contents(atPath: $0.path).map { String(decoding: $0, as: UTF8.self) } }
    let result = SwiftImporter.draft(
      path: path, source: String(decoding: data, as: UTF8.self), scenarioPath: scenarioFile,
      testPath: options["--scenario-path"] ?? packageRelative(scenarioFile), module: options["--module"],
      neighbours: neighbours)
    for diagnostic in result.diagnostics {
      FileHandle.standardError.write(Data((diagnostic.rendered + "\n").utf8))
    }
    guard !result.scenario.isEmpty else { exit(1) }
    print(result.summary.joined(separator: "\n"))
    print("\(result.recognised) of \(result.total) calls read")
    try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: scenarioFile, contents: Data(result.scenario.utf8))
    print("wrote \(scenarioFile)")
    if let test = result.test {
      _ = FileManager.default.createFile(atPath: testFile, contents: Data(test.utf8))
      print("wrote \(testFile)")
    }
    exit(result.diagnostics.contains { $0.severity == .error } ? 1 : 0)
  }

  /// The path the drafted test names the scenario by: relative to the package that holds it
  /// (the nearest folder above it with a Package.swift), which is what `ScenarioCheck.run(_:root:
  /// #filePath)` resolves against when the test sits in that package; else relative to the
  /// current folder. Never absolute unless the scenario is outside both.
  static func packageRelative(_ path: String) -> String {
    let file = URL(fileURLWithPath: path).standardizedFileURL
    var folder = file.deletingLastPathComponent()
    while folder.path != "/" {
      if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        return String(file.path.dropFirst(folder.path.count + 1))
      }
      folder = folder.deletingLastPathComponent()
    }
    let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path + "/"
    return file.path.hasPrefix(current) ? String(file.path.dropFirst(current.count)) : file.path
  }

  static func fail(_ text: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data(text.utf8))
    exit(code)
  }
}
