import Foundation
import Testing

@testable import FlowrunScenario

/// The hand-kept prose that no other test reads, checked against what it describes: the rows of
/// docs/libraries.md that list what a library's table does not take, the module tables of the
/// README and docs/architecture.md against `Package.swift`, the modules `Flowrun` re-exports, and
/// the recipes ("Where to make a change", the README's "Adding an operator"), whose files must
/// exist and whose documents must be ones a test requires (or say that they are optional).
@Suite struct DocsDriftTests {
  static let root = LibraryTableDocsTests.root

  static func text(_ path: String) -> String {
    (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
  }

  /// The code spans of a text, in order.
  static func spans(_ text: some StringProtocol) -> [String] {
    text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }

  /// The cells of a Markdown table row (`\|` inside a cell is not a separator).
  static func cells(_ row: some StringProtocol) -> [String] {
    var cells: [String] = []
    var cell = ""
    var previous: Character = " "
    for character in row.dropFirst() {
      if character == "|", previous != "\\" {
        cells.append(cell.trimmingCharacters(in: .whitespaces))
        cell = ""
      } else {
        cell.append(character)
      }
      previous = character
    }
    return cells
  }

  // MARK: - "not yet" rows

  /// A row of docs/libraries.md that lists names a library does not take: its library, its line
  /// and its first cell.
  struct NotTakenRow: CustomTestStringConvertible, Sendable {
    var library: Library
    var line: Int
    var names: String
    var testDescription: String { "\(library.rawValue):\(line)" }
  }

  /// Under a library's sections (`## async — …`, `## RxSwift vocabulary …`): each row one of
  /// whose cells after the first says "not yet" or "not accepted", and each row of a table under a `### What flowrun
  /// does not take` heading.
  static func notTakenRows(in docs: String) -> [NotTakenRow] {
    var rows: [NotTakenRow] = []
    var library: Library?
    // Inside the table under a `### What flowrun does not take` heading (up to its end).
    var listing = false
    var inTable = false
    for (index, line) in docs.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("## ") {
        library = Library.allCases.first {
          line.hasPrefix("## \($0.rawValue) —") || line.hasPrefix("## \($0.title) vocabulary")
        }
        listing = false
      }
      if line.hasPrefix("### ") { listing = line.hasPrefix("### What flowrun does not take") }
      if listing, inTable, !line.hasPrefix("|") { listing = false }
      inTable = line.hasPrefix("|")
      guard let library, line.hasPrefix("| "), !line.hasPrefix("|---") else { continue }
      let cells = Self.cells(line)
      guard let first = cells.first else { continue }
      let said = cells.dropFirst().contains { $0.hasPrefix("not yet") || $0.hasPrefix("not accepted") }
      if said || listing, !Self.spans(first).isEmpty {
        rows.append(NotTakenRow(library: library, line: index + 1, names: first))
      }
    }
    return rows
  }

  static let notTaken = notTakenRows(in: LibraryTableDocsTests.docs)

  /// The names a row's first cell writes that the library's table defines (a step or an alias).
  static func definedNames(_ row: NotTakenRow) -> [String] {
    let table = StepTable.dialect(row.library)
    return LibraryTableDocsTests.names(in: row.names).sorted().filter {
      table.operator(named: $0) != nil || table.source(named: $0) != nil
    }
  }

  @Test func everyLibraryListsWhatItDoesNotTake() {
    for library in [Library.rac2, .rxswift, .combine, .async] {
      #expect(
        Self.notTaken.contains { $0.library == library }, "docs/libraries.md lists nothing \(library.title) lacks")
    }
  }

  @Test(arguments: notTaken)
  func aNotTakenRowNamesNoWordTheTableDefines(_ row: NotTakenRow) {
    let defined = Self.definedNames(row)
    #expect(
      defined.isEmpty,
      "docs/libraries.md:\(row.line) lists \(defined) as not taken under library '\(row.library.rawValue)', which its table defines"
    )
  }

  /// The check catches the row the page had: `chunked(by:)` with a closure "not yet", five rows
  /// after the row that says it means it.
  @Test func theCheckCatchesAStaleRow() throws {
    let stale = """
      ## async — Swift concurrency and swift-async-algorithms

      | AsyncSequence / swift-async-algorithms | key | flowrun |
      |---|---|---|
      | `chunked(by:)` with a closure, `chunked(on:)`, `joined`, `interspersed` | — | not yet |
      """
    let rows = Self.notTakenRows(in: stale)
    let row = try #require(rows.first)
    #expect(rows.count == 1)
    #expect(Self.definedNames(row) == ["chunked"])
  }

  // MARK: - Module tables

  /// The targets of `Package.swift` that are modules of the package: `.target(name:` and
  /// `.executableTarget(name:` (the system library and the test targets aside).
  static let targets: Set<String> = {
    let manifest = text("Package.swift")
    let pattern = /\.(?:target|executableTarget)\(\s*name:\s*"([^"]+)"/
    return Set(manifest.matches(of: pattern).map { String($0.output.1) })
  }()

  /// The modules a table names in its first column, the table being the one whose header's
  /// first cell is `module`, after `heading`.
  static func moduleTable(_ text: String, after heading: String) -> Set<String> {
    guard let start = text.range(of: heading) else { return [] }
    var names: Set<String> = []
    var inside = false
    for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("| module |") {
        inside = true
        continue
      }
      guard inside else { continue }
      guard line.hasPrefix("|") else { break }
      if let first = cells(line).first, let name = spans(first).first { names.insert(name) }
    }
    return names
  }

  @Test(arguments: [("README.md", "## Layout"), ("docs/architecture.md", "## The modules")])
  func theModuleTableNamesEveryTarget(_ path: String, _ heading: String) {
    let table = Self.moduleTable(Self.text(path), after: heading)
    #expect(Self.targets.count > 15)
    #expect(Self.targets.contains("FlowrunImport") && Self.targets.contains("flowrun-import"))
    for target in Self.targets.sorted() {
      #expect(table.contains(target), "\(path)'s module table has no row for the target '\(target)' of Package.swift")
    }
    for name in table.sorted() where name != "CLibYAML" {
      #expect(
        Self.targets.contains(name), "\(path)'s module table names '\(name)', which Package.swift does not declare")
    }
  }

  /// docs/architecture.md's row of `Flowrun` names the modules `Flowrun.swift` re-exports.
  @Test func theReExportsAreTheOnesTheDocsName() throws {
    let source = Self.text("Sources/Flowrun/Flowrun.swift")
    let exported = Set(source.matches(of: /@_exported import (\w+)/).map { String($0.output.1) })
    #expect(exported.count >= 3)
    let row = try #require(
      Self.text("docs/architecture.md").split(separator: "\n").first { $0.hasPrefix("| `Flowrun` |") })
    let said = try #require(row.range(of: "re-exports"), "the row of Flowrun does not say what it re-exports")
    let cell = row[said.upperBound...].prefix { $0 != "|" }
    let named = Set(Self.spans(cell).filter { $0.hasPrefix("Flowrun") })
    #expect(
      named == exported,
      "docs/architecture.md says Flowrun re-exports \(named.sorted()); it re-exports \(exported.sorted())")
  }

  /// The header of differences.yaml names the test that runs every entry under its library.
  @Test func theEvidenceFileSaysWhatRunsIt() {
    let text = Self.text("Tests/FlowrunScenarioTests/Libraries/differences.yaml")
    let header = text[..<(text.range(of: "\n- id:")?.lowerBound ?? text.endIndex)]
    #expect(header.contains("LibraryDifferenceTests"))
    #expect(!header.contains("once dialects exist"))
  }

  // MARK: - Recipes

  /// A recipe: where it is, and its text (a row of "Where to make a change", or a paragraph).
  struct Recipe: CustomTestStringConvertible, Sendable {
    var place: String
    var text: String
    var testDescription: String { place }
  }

  /// The rows of docs/architecture.md's "Where to make a change" table and the README's
  /// "Adding an operator" paragraph.
  static func recipes(architecture: String, readme: String) -> [Recipe] {
    var recipes: [Recipe] = []
    if let start = architecture.range(of: "## Where to make a change") {
      for line in architecture[start.upperBound...].split(separator: "\n") {
        if line.hasPrefix("## ") { break }
        guard line.hasPrefix("| "), !line.hasPrefix("| to … |"), let task = cells(line).first else { continue }
        recipes.append(Recipe(place: "docs/architecture.md: \(task)", text: String(line)))
      }
    }
    for paragraph in readme.components(separatedBy: "\n\n") where paragraph.hasPrefix("**Adding an operator**") {
      recipes.append(Recipe(place: "README.md: Adding an operator", text: paragraph))
    }
    return recipes
  }

  static let allRecipes = recipes(architecture: text("docs/architecture.md"), readme: text("README.md"))

  /// The documents and generated files a recipe may name as required, each with the test that
  /// requires it (whose source names the file).
  static let requiredBy: [String: String] = [
    "docs/reference/operators.md": "Tests/FlowrunScenarioTests/Reference/ReferenceDocsTests.swift",
    "docs/libraries.md": "Tests/FlowrunScenarioTests/LibraryTableDocsTests.swift",
    "docs/reference/library-vocabularies.md": "Tests/FlowrunScenarioTests/LibraryTableDocsTests.swift",
    "Tests/FlowrunScenarioTests/Libraries/differences.yaml": "Tests/FlowrunScenarioTests/LibraryDifferenceTests.swift",
    "schemas/steps.json": "Tests/FlowrunScenarioTests/StepTableTests.swift",
    "schemas/flowrun-scenario.schema.json": "Tests/Schema/test_schemas.py",
  ]

  @Test func eachRequiredFileIsRequiredByItsTest() {
    for (path, test) in Self.requiredBy.sorted(by: { $0.key < $1.key }) {
      let name = URL(fileURLWithPath: path).lastPathComponent
      #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path)")
      #expect(Self.text(test).contains(name), "\(test) does not read \(name)")
    }
  }

  /// The library folders a recipe's `<library>` stands for.
  static let libraryFolders = ["RAC2", "RxSwift", "Combine", "Async"]

  /// The paths a recipe names: code spans without spaces that hold a `/` or end in a file
  /// extension; each with whether the recipe says it is optional or unchecked before or just
  /// after it.
  static func paths(in recipe: Recipe) -> [(path: String, exempt: Bool)] {
    var result: [(String, Bool)] = []
    let pieces = recipe.text.split(separator: "`", omittingEmptySubsequences: false)
    for (index, piece) in pieces.enumerated() where index % 2 == 1 {
      let span = String(piece)
      guard !span.contains(" "),
        span.contains("/") || span.range(of: #"\.(swift|md|json|yaml|py)$"#, options: .regularExpression) != nil
      else { continue }
      let before = pieces[..<index].joined(separator: "`")
      let after = index + 1 < pieces.count ? String(pieces[index + 1].prefix(60)) : ""
      let exempt = before.lowercased().contains("optional") || after.contains("no test reads it")
      result.append((span, exempt))
    }
    return result
  }

  /// Where a recipe's path is: as written from the package root, under `Sources/`, or (a bare
  /// file name) anywhere under `Sources/` or `Tests/`; `<library>` stands for each library folder.
  static func exists(_ path: String) -> Bool {
    if path.contains("<library>") {
      return libraryFolders.allSatisfy { exists(path.replacing("<library>", with: $0)) }
    }
    if path.contains("<") {
      // A placeholder file name (`<Name>.swift`): its folder.
      return exists(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/")
    }
    let manager = FileManager.default
    for base in ["", "Sources/"] where manager.fileExists(atPath: root.appendingPathComponent(base + path).path) {
      return true
    }
    guard !path.contains("/") else { return false }
    for folder in ["Sources", "Tests"] {
      let files = manager.enumerator(atPath: root.appendingPathComponent(folder).path)
      while let file = files?.nextObject() as? String {
        if file.hasSuffix("/" + path) || file == path { return true }
      }
    }
    return false
  }

  /// A document or a generated file (not code, not a test's source).
  static func isDocument(_ path: String) -> Bool {
    path.hasPrefix("docs/") || path.hasPrefix("schemas/") || path.hasSuffix(".md") || path.hasSuffix(".yaml")
      || path.hasSuffix(".json")
  }

  @Test func theRecipesAreThere() {
    #expect(Self.allRecipes.count >= 10)
    #expect(Self.allRecipes.contains { $0.place.hasPrefix("README.md") })
  }

  @Test(arguments: allRecipes)
  func aRecipeNamesFilesThatExistAndDocumentsATestRequires(_ recipe: Recipe) {
    for (path, exempt) in Self.paths(in: recipe) {
      #expect(Self.exists(path), "\(recipe.place) names '\(path)', which does not exist")
      if Self.isDocument(path), !exempt {
        #expect(
          Self.requiredBy[path] != nil,
          "\(recipe.place) names '\(path)' as a place to edit, which no test requires; say it is optional, or 'no test reads it'"
        )
      }
    }
  }

  /// Adding an operator: both recipes name the reference entry `ReferenceDocsTests` requires.
  @Test func addingAnOperatorNamesTheReferenceEntry() {
    let recipes = Self.allRecipes.filter { $0.place.contains("operator") && !$0.place.contains("library") }
    #expect(recipes.count == 2, "\(recipes.map(\.place))")
    for recipe in recipes {
      #expect(Self.paths(in: recipe).contains { $0.path == "docs/reference/operators.md" }, "\(recipe.place)")
    }
  }

  /// The check catches the recipe the page had: an optional page named as required, and no
  /// reference entry.
  @Test func theCheckCatchesAStaleRecipe() {
    let stale = Recipe(
      place: "add or change an operator",
      text:
        "| add or change an operator | its observer in `FlowrunCore/Operators/`, its step in `FlowrunScenario` (compile and instantiate), its page in `docs/operators/`, its case in `Tests/FlowrunScenarioTests/Operators/` |"
    )
    let paths = Self.paths(in: stale)
    #expect(paths.contains { $0.path == "docs/operators/" && !$0.exempt && Self.requiredBy[$0.path] == nil })
    #expect(!paths.contains { $0.path == "docs/reference/operators.md" })
  }
}
