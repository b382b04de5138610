import FlowrunDiagnostics
import FlowrunTestSupport
import FlowrunYAML
import Foundation
import Testing

@testable import FlowrunScenario

/// One test per row of docs/libraries.md, from its marble evidence in `Libraries/differences.yaml`:
/// the scenario without `library:` gives the default's marbles, and with `library: <library>`
/// the library's (or, for a row marked proposed, `dialect: default`, the default's; for a key
/// the library cannot express, a load error). The library run names the row among the meanings
/// it used, which is what `flowrun compare` prints.
@Suite struct LibraryDifferenceTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let table = root.appendingPathComponent("Libraries/differences.yaml")
  static let docs = root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
    "docs/libraries.md")

  /// One row of the table.
  struct Row: CustomTestStringConvertible, Sendable {
    var id: String
    var library: Library
    /// The scenario's top-level keys, as JSON members.
    var scenario: [(String, String)]
    var defaultSignals: [(String, String)]?
    var equivalentSignals: [(String, String)]?
    var expect: [String: String]
    var loadError: String?
    var keepsDefault: Bool

    var testDescription: String { id }

    /// A whole scenario file (JSON) for one column.
    func file(library: Library?, signals: [(String, String)]?, expect column: String?) -> String {
      var members = [("flowrun", "1"), ("name", json(string: "\(id) (\(library?.rawValue ?? "default"))"))]
      if let library { members.append(("library", json(string: library.rawValue))) }
      for (key, value) in scenario {
        guard key == "signals", let signals else {
          members.append((key, value))
          continue
        }
        members.append((key, merged(value, with: signals)))
      }
      if scenario.allSatisfy({ $0.0 != "signals" }), let signals {
        members.append(
          ("signals", "{" + signals.map { "\(json(string: $0.0)): \($0.1)" }.joined(separator: ", ") + "}"))
      }
      if let column, let marbles = expect[column] { members.append(("expect", marbles)) }
      return "{" + members.map { "\(json(string: $0.0)): \($0.1)" }.joined(separator: ",\n") + "}\n"
    }

    /// The scenario's `signals` with `replacing` in place of the signals of the same names.
    private func merged(_ signals: String, with replacing: [(String, String)]) -> String {
      let file = YAMLFile.parse(path: "signals", bytes: Array(signals.utf8), limits: YAMLLimits()).0
      guard let pairs = file.documents.first?.root?.mappingPairs else { return signals }
      var members = pairs.map { (($0.key.scalarValue ?? ""), jsonText($0.value)) }
      for (name, value) in replacing {
        if let index = members.firstIndex(where: { $0.0 == name }) {
          members[index].1 = value
        } else {
          members.append((name, value))
        }
      }
      return "{" + members.map { "\(json(string: $0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }
  }

  static let rows: [Row] = {
    guard let data = FileManager.default.contents(atPath: table.path) else { return [] }
    let file = YAMLFile.parse(path: table.path, bytes: [UInt8](data), limits: YAMLLimits()).0
    guard let items = file.documents.first?.root?.sequenceItems else { return [] }
    return items.compactMap { item -> Row? in
      guard let id = item["id"]?.scalarValue, let library = item["library"]?.scalarValue.flatMap(Library.init)
      else { return nil }
      func members(_ node: YAMLNode?) -> [(String, String)]? {
        node?.mappingPairs.map { $0.map { ($0.key.scalarValue ?? "", jsonText($0.value)) } }
      }
      var expect: [String: String] = [:]
      if let pairs = item["expect"]?.mappingPairs {
        for pair in pairs { expect[pair.key.scalarValue ?? ""] = jsonText(pair.value) }
      }
      return Row(
        id: id, library: library, scenario: members(item["scenario"]) ?? [],
        defaultSignals: members(item["default_signals"]), equivalentSignals: members(item["equivalent_signals"]),
        expect: expect, loadError: item["load_error"]?.scalarValue,
        keepsDefault: item["dialect"]?.scalarValue == "default")
    }
  }()

  /// Loads and runs a scenario file; the problems, or nil when it loaded and passed.
  static func run(_ text: String) -> (problems: String?, rows: [String]) {
    let file = ScenarioLoader.load(path: "row.yaml", bytes: Array(text.utf8))
    guard let scenario = file.scenarios.first, !file.hasErrors else {
      return (file.diagnostics.map(\.rendered).joined(separator: "\n"), [])
    }
    return (problemsRunning(text, path: "row.yaml"), scenario.libraryRows)
  }

  @Test func theTableHasARowPerDocsRowAndTheReverse() throws {
    let docs = try String(contentsOf: Self.docs, encoding: .utf8)
    let documented = Set(
      docs.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("| `") else { return nil }
        let id = line.dropFirst(3).prefix { $0 != "`" }
        return id.contains("-") && !id.contains(" ") ? String(id) : nil
      })
    let tabled = Set(Self.rows.map(\.id))
    #expect(Self.rows.count >= 50)
    #expect(
      tabled.subtracting(documented).isEmpty, "rows without a docs row: \(tabled.subtracting(documented).sorted())")
    #expect(
      documented.subtracting(tabled).isEmpty, "docs rows without evidence: \(documented.subtracting(tabled).sorted())")
  }

  @Test(arguments: rows.filter { $0.expect["default"] != nil })
  func withoutLibraryTheDefaultMeaningHolds(_ row: Row) {
    let problems = Self.run(row.file(library: nil, signals: row.defaultSignals, expect: "default")).problems
    #expect(problems == nil, "\(row.id) (default): \(problems ?? "")")
  }

  @Test(arguments: rows.filter { $0.loadError == nil })
  func underItsLibraryTheLibraryMeaningHolds(_ row: Row) {
    let column = row.keepsDefault ? "default" : row.library.rawValue
    let (problems, used) = Self.run(row.file(library: row.library, signals: nil, expect: column))
    #expect(problems == nil, "\(row.id) (\(row.library.rawValue)): \(problems ?? "")")
    if !row.keepsDefault {
      #expect(used.contains(row.id), "\(row.id): the run names \(used), not the row")
    }
  }

  @Test(arguments: rows.filter { $0.loadError != nil })
  func aKeyTheLibraryCannotExpressIsALoadError(_ row: Row) throws {
    let text = row.file(library: row.library, signals: nil, expect: nil)
    let file = ScenarioLoader.load(path: "row.yaml", bytes: Array(text.utf8))
    let messages = file.diagnostics.filter { $0.severity == .error }.map(\.message)
    let expected = try #require(row.loadError)
    #expect(file.scenarios.isEmpty)
    #expect(messages.contains { $0.contains(expected) && $0.contains(row.library.rawValue) }, "\(messages)")
  }

  @Test(arguments: rows.filter { $0.equivalentSignals != nil })
  func theDefaultCatalogueSpellingGivesTheLibraryMarbles(_ row: Row) {
    let problems = Self.run(row.file(library: nil, signals: row.equivalentSignals, expect: row.library.rawValue))
      .problems
    #expect(problems == nil, "\(row.id) (equivalent): \(problems ?? "")")
  }
}

/// A JSON string literal.
private func json(string: String) -> String {
  var out = "\""
  for scalar in string.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    default:
      if scalar.value < 0x20 {
        out += String(format: "\\u%04x", scalar.value)
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}

/// A YAML node as JSON text (JSON is YAML, so the loader reads it back with the same values).
private func jsonText(_ node: YAMLNode) -> String {
  if let pairs = node.mappingPairs {
    return "{"
      + pairs.map { "\(json(string: $0.key.scalarValue ?? "")): \(jsonText($0.value))" }.joined(separator: ", ") + "}"
  }
  if let items = node.sequenceItems { return "[" + items.map(jsonText).joined(separator: ", ") + "]" }
  // A tagged marble (`!cold "-a|"`, an inner signal's legend value) keeps its tag: the text is
  // YAML, read back by the loader.
  if node.tag == "!cold", let text = node.scalarValue { return "!cold " + json(string: text) }
  switch node.resolvedScalar {
  case .null?: return "null"
  case .bool(let flag)?: return flag ? "true" : "false"
  case .int(let value)?: return String(value)
  case .double(let value)?: return String(value)
  case .string(let text)?: return json(string: text)
  case nil: return "null"
  }
}
