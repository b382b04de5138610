import FlowrunDiagnostics
public import FlowrunReport
public import FlowrunScenario
import FlowrunYAML
import Foundation

/// The loading and running half of `flowrun compare`: the renderer's `LibraryComparison` is made
/// from the runs here.
extension LibraryComparison {
  /// Compares the scenarios of `files` under `libraries` (every file is read in each library,
  /// whatever its own `library:` says). Each document of a file is compared on its own: a load
  /// error blocks the library (or, under every library, reports the document) where it stands.
  public static func compare(files: [String], libraries: [Library]) -> LibraryComparison {
    var comparison = LibraryComparison()
    for path in files {
      let loads = libraries.map { ($0, ScenarioLoader.load(path: path, library: $0, forcing: true)) }
      let documents = documentStarts(path)
      guard !documents.isEmpty else {
        comparison.unloaded.append(Unloaded(path: path, name: nil, diagnostics: loads.first?.1.diagnostics ?? []))
        continue
      }
      for (number, document) in documents.enumerated() {
        let next = number + 1 < documents.count ? documents[number + 1].line : Int.max
        // A diagnostic without a place is the whole file's: the first document's.
        func inDocument(_ diagnostic: Diagnostic) -> Bool {
          guard let line = diagnostic.location?.line else { return number == 0 }
          return line >= document.line && line < next
        }
        var runs: [(Library, ScenarioResult)] = []
        var blocked: [Blocked] = []
        var first: Scenario?
        var unloaded: [Diagnostic]?
        for (library, file) in loads {
          let diagnostics = file.diagnostics.filter(inDocument)
          if let scenario = file.scenarios.first(where: { $0.location.line == document.line }),
            !diagnostics.contains(where: { $0.severity == .error })
          {
            if first == nil { first = scenario }
            runs.append((library, ScenarioRunner.run(scenario)))
          } else {
            if unloaded == nil { unloaded = diagnostics }
            if let diagnostic = diagnostics.first(where: { $0.severity == .error }) ?? diagnostics.first {
              blocked.append(Blocked(library: library, diagnostic: diagnostic))
            }
          }
        }
        if let first {
          comparison.scenarios.append(compare(first, runs: runs, blocked: blocked))
        } else {
          comparison.unloaded.append(Unloaded(path: path, name: document.name, diagnostics: unloaded ?? []))
        }
      }
    }
    return comparison
  }

  /// The line and `name:` of each document of the file (none when it cannot be read or its
  /// YAML does not parse).
  private static func documentStarts(_ path: String) -> [(line: Int, name: String?)] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    let (file, _) = YAMLFile.parse(path: path, bytes: [UInt8](data))
    return file.documents.compactMap { document in
      document.root.map { ($0.start.line, $0["name"]?.scalarValue) }
    }
  }

}
