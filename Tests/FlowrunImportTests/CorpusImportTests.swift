import FlowrunDiagnostics
import FlowrunImport
import FlowrunScenario
import FlowrunTestSupport
import Foundation
import Testing

/// The importer on code it was not tuned to: the view models of `Corpus/<Style>/` (written for
/// this corpus in four styles, each file's header says which and where it is seen; docs/import.md
/// §Measured on a corpus). Every draft loads; every call the importer does not draft is listed,
/// with its file and line, in the draft and in the summary; nine calls in ten are read.
@Suite struct CorpusImportTests {
  static let corpus = packageRoot.appendingPathComponent("Tests/FlowrunImportTests/Corpus")

  /// `Style/Name.swift` of every corpus file, sorted.
  static let files: [String] = {
    let styles = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()
    return styles.flatMap { style in
      let folder = corpus.appendingPathComponent(style)
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
      return names.filter { $0.hasSuffix(".swift") }.map { "\(style)/\($0)" }
    }
  }()

  static func draft(_ file: String) -> SwiftImporter.Result {
    let url = corpus.appendingPathComponent(file)
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    let name = url.deletingPathExtension().lastPathComponent
    return SwiftImporter.draft(
      path: "Corpus/\(file)", source: text, scenarioPath: "Corpus/\(name).yaml", testPath: "\(name).yaml",
      module: "Corpus")
  }

  @Test func theCorpusHasThirtyViewModelsInFourStyles() {
    #expect(Self.files.count >= 30)
    #expect(Set(Self.files.map { $0.split(separator: "/")[0] }).count == 4)
  }

  @Test(arguments: files)
  func everyDraftLoads(_ file: String) {
    let result = Self.draft(file)
    #expect(!result.scenario.isEmpty, "no draft")
    let loaded = ScenarioLoader.load(path: "Corpus/draft.yaml", bytes: Array(result.scenario.utf8))
    let errors = loaded.diagnostics.filter { $0.severity == .error }.map(\.rendered)
    #expect(errors == [], "\(result.scenario)")
    #expect(!loaded.scenarios.isEmpty)
    #expect(result.test != nil, "no binding test")
  }

  /// Every call not read is named with its place, in the summary and in the draft, and the
  /// count says so.
  @Test(arguments: files)
  func nothingIsDroppedSilently(_ file: String) {
    let result = Self.draft(file)
    let name = URL(fileURLWithPath: file).lastPathComponent
    let unread = result.summary.joined(separator: "\n").components(separatedBy: "<#not read: ").dropFirst()
    let listed = unread.map { $0.components(separatedBy: "#>")[0] }.joined(separator: ", ")
    let count = listed.isEmpty ? 0 : listed.components(separatedBy: " at \(name):").count - 1
    #expect(count == result.total - result.recognised, "\(result.summary.joined(separator: "\n"))")
    for entry in unread {
      let text = entry.components(separatedBy: "#>")[0]
      #expect(result.scenario.contains(text), "\(text) is not in the draft")
    }
  }

  @Test func nineCallsInTenAreRead() {
    var read = 0
    var total = 0
    for file in Self.files {
      let result = Self.draft(file)
      read += result.recognised
      total += result.total
    }
    #expect(total > 0)
    #expect(read * 10 >= total * 9, "\(read) of \(total) calls read")
  }
}
