import FlowrunDiagnostics
import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunScenario

/// The step table: written out as `schemas/steps.json` (which `schemas/scenario_schema.py`
/// reads), and consistent with itself.
struct StepTableTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// One row of `steps.json`: a step, or an alias of one.
  struct Row: Encodable {
    var name: String
    var role: String
    var aliasOf: String?
    /// The library whose dialect the definition belongs to (none: the default catalogue).
    var library: String?
    /// For an alias, the library the name comes from.
    var nameFrom: String?
    var argument: String
    var mayBeBare: Bool
    var extras: [Extra]
    var summary: String
    var docs: String?
  }

  /// An extra key beside a step; `argument` only where it differs from the key's own.
  struct Extra: Encodable {
    var name: String
    var argument: String?
  }

  struct Key: Encodable {
    var name: String
    var argument: String
    var summary: String
  }

  struct Dump: Encodable {
    var note =
      "Generated from the step table (Sources/FlowrunScenario/Steps and Libraries) by StepTableTests; do not edit."
    var extraKeys: [Key]
    var steps: [Row]
    /// Per library (libraries.md), the definitions its dialect adds or redefines.
    var libraries: [String: [Row]]
  }

  static func dump(_ table: StepTable) throws -> String {
    var libraries: [String: [Row]] = [:]
    for library in Library.allCases {
      let own = StepTable.catalogue.filter { $0.library == library }
      if !own.isEmpty { libraries[library.rawValue] = rows(own) }
    }
    let keys = ExtraKey.all.map { Key(name: $0.name, argument: $0.argument.rawValue, summary: $0.summary) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(Dump(extraKeys: keys, steps: rows(table.definitions), libraries: libraries))
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  static func rows(_ definitions: [StepDefinition]) -> [Row] {
    var rows: [Row] = []
    for definition in definitions {
      let extras = definition.extras.map { key in
        let registered = ExtraKey.all.first { $0.name == key.name }
        return Extra(name: key.name, argument: registered?.argument == key.argument ? nil : key.argument.rawValue)
      }
      var docs: String?
      if case .page(let page) = definition.docs { docs = page }
      let row = Row(
        name: definition.name, role: definition.role.rawValue, aliasOf: nil, library: definition.library?.rawValue,
        nameFrom: nil, argument: definition.argument.rawValue, mayBeBare: definition.argument.mayBeBare, extras: extras,
        summary: definition.summary, docs: docs)
      rows.append(row)
      for alias in definition.aliases {
        var aliasRow = row
        aliasRow.name = alias.name
        aliasRow.aliasOf = definition.name
        aliasRow.nameFrom = alias.library?.rawValue
        if let library = alias.library { aliasRow.summary = "\(library.title) name of \(definition.name)." }
        rows.append(aliasRow)
      }
    }
    return rows
  }

  @Test func stepsJSONIsCurrent() throws {
    assertGolden(try Self.dump(.standard), file: Self.root.appendingPathComponent("schemas/steps.json"))
  }

  @Test func everyNameIsOneSourceAndOrOneOperator() {
    var seen: [String: Set<String>] = [:]
    for definition in StepTable.standard.definitions {
      for name in definition.names {
        #expect(seen[name, default: []].insert(definition.role.rawValue).inserted, "'\(name)' declared twice")
      }
    }
  }

  /// The libraries' own words for default keys (the data of the note `flowrun check` gives)
  /// name default steps, and the library does not accept the default key under that word.
  @Test(arguments: [(Library.rxswift, StepTable.rxSwiftWords), (.rac2, StepTable.rac2Words)])
  func aLibraryWordIsForADefaultKey(_ library: Library, _ words: [String: String]) {
    #expect(words.count >= 20)
    for (key, word) in words {
      #expect(StepTable.standard.contains(key), "\(library.rawValue): '\(key)' is no default step")
      #expect(key != word, "\(library.rawValue): '\(key)' is its own word")
    }
  }

  /// Under `rxswift` and `rac2`, a default key the library spells otherwise keeps its meaning and
  /// `flowrun check` names the library's word, as it does under `combine`.
  @Test(arguments: [
    (Library.rxswift, "[{ of: [1, 2] }, { mapTo: 0 }]", "RxSwift calls it 'map'"),
    (.rac2, "[{ of: [1, 2] }, { mapTo: 0 }]", "RAC2 calls it 'mapReplace:'"),
  ])
  func aDefaultKeyTheLibraryCallsOtherwiseIsNoted(_ library: Library, _ chain: String, _ word: String) {
    let text = """
      flowrun: 1
      name: notes
      library: \(library.rawValue)
      signals:
        out: \(chain)
      expect:
        out: "(00|)"

      """
    let file = loadScenarios(text)
    #expect(problems(of: file) == nil)
    #expect(
      file.notes.map(\.message) == [
        "'mapTo' keeps the default catalogue's meaning under library '\(library.rawValue)'; \(word)"
      ])
  }

  /// Every definition RxSwift and RAC2 add or redefine is a word of the library's own: their
  /// words tables name none of them.
  @Test(arguments: [(Library.rxswift, StepTable.rxSwiftWords), (.rac2, StepTable.rac2Words)])
  func aLibraryWordNamesNoStepOfTheLibrary(_ library: Library, _ words: [String: String]) {
    let table = StepTable.dialect(library)
    for (key, _) in words {
      #expect(table.operator(named: key)?.library != library, "\(library.rawValue): \(key)")
      #expect(table.source(named: key)?.library != library, "\(library.rawValue): \(key)")
    }
  }

  @Test func everyExtraKeyIsRegistered() {
    for definition in StepTable.standard.definitions {
      for key in definition.extras {
        #expect(
          ExtraKey.all.contains { $0.name == key.name }, "\(definition.name): '\(key.name)' is not in ExtraKey.all")
      }
    }
  }

  /// A step written bare compiles when its argument shape allows that, and otherwise says it
  /// needs an argument.
  @Test(arguments: StepTable.standard.definitions.filter { $0.role == .operator }.map(\.name))
  func aBareStepCompilesExactlyWhenItsShapeAllowsIt(_ name: String) throws {
    let definition = try #require(StepTable.standard.operator(named: name))
    let errors = loadErrors("signals:\n  s: [{ just: 1 }, \(name)]\n")
    if definition.argument.mayBeBare {
      #expect(errors.isEmpty, "\(name): \(errors)")
    } else {
      #expect(errors.contains("'\(name)' needs an argument"), "\(name): \(errors)")
    }
  }
}

/// A library's dialect is the default table overlaid with the library's own definitions
/// (libraries.md; the dialects themselves come with `library:`).
struct StepTableDialectTests {
  static func definition(_ name: String, library: Library) -> StepDefinition {
    .operator(name, .duration, summary: "\(library.title) \(name).", library: library) { _ in nil }
  }

  static let catalogue =
    StepTable.catalogue.filter { $0.library == nil }
    + [definition("throttle", library: .rac2), definition("mapReplace", library: .rac2)]

  @Test func aLibraryRedefinesAndAddsNames() throws {
    let rac2 = StepTable(Self.catalogue, library: .rac2)
    #expect(try #require(rac2.operator(named: "throttle")).library == .rac2)
    #expect(try #require(rac2.operator(named: "debounce")).library == nil)
    #expect(rac2.contains("mapReplace"))
    #expect(rac2.definitions.count == StepTable.standard.definitions.count + 1)
  }

  @Test func otherLibrariesAndTheDefaultKeepTheDefaultMeanings() throws {
    for library in [nil, Library.rxswift, .combine, .rxjs] {
      let table = StepTable(Self.catalogue, library: library)
      #expect(try #require(table.operator(named: "throttle")).library == nil)
      #expect(!table.contains("mapReplace"))
    }
  }
}
