import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunScenario

/// The library tables (`Steps/*Steps.swift`) and their docs (docs/libraries.md) say the same:
/// every name a library's table adds or redefines has a row in the library's sections, every
/// docs row id the loader records (`uses`, which `flowrun compare` prints) is a row of the page,
/// and every row names the source it follows (a file and a function).
@Suite struct LibraryTableDocsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let docs = (try? String(contentsOf: root.appendingPathComponent("docs/libraries.md"), encoding: .utf8)) ?? ""

  /// The text under each `## ` heading of the page that `starts` with one of `prefixes`, up to
  /// the next `## ` heading.
  static func sections(_ prefixes: [String]) -> String {
    var text = ""
    var inside = false
    for line in docs.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("## ") { inside = prefixes.contains { line.hasPrefix("## " + $0) } }
      if inside { text += line + "\n" }
    }
    return text
  }

  /// The names a docs text writes in code spans: each span's leading name (`prefix: { while }`
  /// → `prefix`, `-takeUntil:` → `takeUntil`, `Timer.publish` → `Timer.publish`).
  static func names(in text: String) -> Set<String> {
    var names: Set<String> = []
    for (index, span) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
    where index % 2 == 1 {
      let trimmed = span.drop { $0 == "-" || $0 == "+" || $0 == " " }
      let name = trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
      if !name.isEmpty { names.insert(String(name)) }
    }
    return names
  }

  /// The libraries whose tables have definitions of their own.
  static let libraries = Library.allCases.filter { library in
    StepTable.catalogue.contains { $0.library == library }
  }

  @Test(arguments: libraries)
  func everyNameOfALibraryTableHasADocsRow(_ library: Library) {
    let text = Self.sections(["\(library.rawValue) —", "\(library.title) vocabulary"])
    #expect(!text.isEmpty, "docs/libraries.md has no section '## \(library.rawValue) — …'")
    let documented = Self.names(in: text)
    for definition in StepTable.catalogue where definition.library == library {
      for name in definition.names {
        #expect(
          documented.contains(name),
          "docs/libraries.md does not name '\(name)' (\(definition.role.rawValue)) in \(library.title)'s sections")
      }
    }
  }

  /// A library's table holds only its own rows, and the catalogue's library definitions are the
  /// tables' rows: the default catalogue plus each table, nothing copied.
  @Test func eachTableHoldsItsLibrarysRows() {
    for table in LibraryTable.all {
      #expect(!table.rows.isEmpty)
      for row in table.rows {
        #expect(row.library == table.library, "\(table.library.title)'s table has another's row: \(row.name)")
      }
      #expect(StepTable.words(of: table.library) == table.words)
    }
    let fromTables = LibraryTable.all.flatMap(\.rows).map(ObjectIdentifier.init)
    let inCatalogue = StepTable.catalogue.filter { $0.library != nil }.map(ObjectIdentifier.init)
    #expect(fromTables == inCatalogue)
  }

  /// The row ids of the page (`| \`rac2-throttle-is-debounce\` | …`), with their rows.
  static let rows: [String: String] = {
    var rows: [String: String] = [:]
    for line in docs.split(separator: "\n") where line.hasPrefix("| `") {
      let id = line.dropFirst(3).prefix { $0 != "`" }
      if id.contains("-"), !id.contains(" ") { rows[String(id)] = String(line) }
    }
    return rows
  }()

  /// The row ids the loader's sources name (`uses("…")`, `usesRow("…")`).
  static let usedIDs: Set<String> = {
    let folder = root.appendingPathComponent("Sources/FlowrunScenario")
    let files =
      FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
    var ids: Set<String> = []
    let prefixes = Library.allCases.map { "\"\($0.rawValue)-" }
    for file in files {
      guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
      for piece in text.split(separator: "\n") where piece.contains("uses") || piece.contains("\"") {
        var rest = Substring(piece)
        while let start = prefixes.compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
          let tail = rest[rest.index(after: start.lowerBound)...]
          let id = tail.prefix { $0.isLowercase || $0.isNumber || $0 == "-" }
          if tail.dropFirst(id.count).first == "\"" { ids.insert(String(id)) }
          rest = tail.dropFirst(id.count)
        }
      }
    }
    return ids
  }()

  @Test func everyRowIDTheLoaderRecordsIsADocsRow() {
    #expect(Self.usedIDs.count > 40)
    for id in Self.usedIDs.sorted() {
      #expect(Self.rows[id] != nil, "the loader records row '\(id)', which docs/libraries.md has no row for")
    }
  }

  /// A row's source: a file (`Publishers.Delay.swift`, `RACSignal+Operations.m`) and a function,
  /// or, for Apple's closed Combine, the documented type.
  @Test func everyDocsRowNamesItsSource() {
    #expect(!Self.rows.isEmpty)
    for (id, row) in Self.rows.sorted(by: { $0.key < $1.key }) {
      let spans = row.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 1 }.map { $0.element.split(separator: " ").first ?? "" }
      let file = spans.contains { $0.hasSuffix(".swift") || $0.hasSuffix(".m") }
      let apple = row.contains("Apple's `")
      #expect(file || apple, "docs/libraries.md row '\(id)' names no source file")
    }
  }

  /// docs/reference/library-vocabularies.md is written from the tables (`FLOWRUN_RECORD=1`
  /// rewrites it): per library, every name its table adds or gives the library's meaning, and
  /// the library's words for the default keys it names otherwise.
  @Test func theReferencePageIsWrittenFromTheTables() {
    assertGolden(
      Self.referencePage(), file: Self.root.appendingPathComponent("docs/reference/library-vocabularies.md"))
  }

  static func referencePage() -> String {
    var page = """
      # Library vocabularies

      Written from the library tables (`Sources/FlowrunScenario/Libraries/LibraryTable.swift`) by
      `LibraryTableDocsTests`; `FLOWRUN_RECORD=1 swift test --filter LibraryTableDocsTests`
      rewrites it. Each row is a name that `library: L` adds or reads with L's meaning; every other
      key keeps its default meaning ([operators.md](operators.md)). Why a row means what it does,
      and the library source it follows: [../libraries.md](../libraries.md).

      """
    func cell(_ text: String) -> String {
      text.replacing("|", with: "\\|").replacing("\n", with: " ")
    }
    for table in LibraryTable.all {
      page += "\n## `library: \(table.library.rawValue)` — \(table.library.title)\n\n"
      page += "| name | role | what it does |\n|---|---|---|\n"
      let rows = table.rows.sorted { ($0.name, $0.role.rawValue) < ($1.name, $1.role.rawValue) }
      for row in rows {
        let names = row.names.map { "`\($0)`" }.joined(separator: ", ")
        page += "| \(names) | \(row.role.rawValue) | \(cell(row.summary)) |\n"
      }
      guard !table.words.isEmpty else { continue }
      page += "\nDefault keys \(table.library.title) names otherwise (`flowrun check` notes the word):\n\n"
      page += "| default key | \(table.library.title)'s word |\n|---|---|\n"
      for key in table.words.keys.sorted() {
        page += "| `\(key)` | \(cell(table.words[key] ?? "")) |\n"
      }
    }
    return page
  }
}
