import FlowrunCore
import FlowrunDiagnostics
import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunExpressions
@testable import FlowrunScenario

/// `docs/reference/`: every example runs and passes, every step, top-level key, derived name,
/// expression operator, member, method and function has its entry, and the expression tables
/// say what the language does.
@Suite struct ReferenceDocsTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let directory = root.appendingPathComponent("docs/reference")

  static let pages: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".md") }.sorted()
  }()

  static func text(of page: String) -> String {
    let data = FileManager.default.contents(atPath: directory.appendingPathComponent(page).path) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// One fenced `yaml` block of a page.
  struct Example: CustomTestStringConvertible, Sendable {
    var page: String
    var line: Int
    var text: String
    var testDescription: String { "\(page):\(line)" }
  }

  static let examples: [Example] = pages.flatMap { page in
    var found: [Example] = []
    var block: [String]?
    var start = 0
    for (number, line) in text(of: page).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if block == nil, line == "```yaml" {
        block = []
        start = number + 2
      } else if let lines = block, line == "```" {
        found.append(Example(page: page, line: start, text: lines.joined(separator: "\n") + "\n"))
        block = nil
      } else {
        block?.append(String(line))
      }
    }
    return found
  }

  @Test func theReferenceHasItsPages() {
    for page in [
      "README.md", "scenario-file.md", "sources.md", "operators.md", "subjects.md", "properties.md", "commands.md",
      "services.md", "effects.md", "timeline.md", "expectations.md", "marbles.md", "expressions.md", "limits.md",
      "cli.md",
    ] {
      #expect(Self.pages.contains(page), "docs/reference/\(page) is missing")
    }
    #expect(Self.examples.count >= 30)
  }

  @Test(arguments: examples)
  func everyExampleIsAScenarioThatPasses(_ example: Example) {
    #expect(example.text.hasPrefix("flowrun: 1\n"), "a yaml block of the reference must be a whole scenario")
    let report = problemsRunning(example.text, path: "\(example.page):\(example.line)")
    #expect(report == nil, "\(report ?? "")")
  }

  /// The `### \`name\`` headings of a page, in order.
  static func entries(of page: String) -> [String] {
    text(of: page).split(separator: "\n").compactMap { line in
      guard line.hasPrefix("### `"), line.hasSuffix("`") else { return nil }
      return String(line.dropFirst(5).dropLast())
    }
  }

  /// The step names of the loader, by role (ScenarioVocabulary, over the step catalogue).
  static func registeredSteps(_ role: ScenarioVocabulary.Role) -> [String] {
    ScenarioVocabulary.steps.filter { $0.role == role }.map(\.name)
  }

  @Test(arguments: [(ScenarioVocabulary.Role.source, "sources.md"), (.operator, "operators.md")])
  func everyStepAndAliasHasOneEntry(_ role: ScenarioVocabulary.Role, _ page: String) {
    let entries = Self.entries(of: page)
    let steps = Self.registeredSteps(role)
    #expect(!steps.isEmpty)
    for name in steps { #expect(entries.contains(name), "\(page) has no entry for the \(role.rawValue) '\(name)'") }
    for entry in entries {
      #expect(steps.contains(entry), "\(page) documents '\(entry)', which is no \(role.rawValue)")
    }
    #expect(Set(entries).count == entries.count, "\(page) has an entry twice")
  }

  @Test func everyTopLevelKeyHasAnEntry() {
    #expect(Self.entries(of: "scenario-file.md") == ScenarioVocabulary.topLevelKeys)
  }

  @Test func everyDerivedNameHasAnEntry() {
    let commands = Self.entries(of: "commands.md")
    for member in ScenarioVocabulary.commandMembers { #expect(commands.contains(member), "commands.md: \(member)") }
    for member in ScenarioVocabulary.serviceMembers {
      #expect(Self.entries(of: "services.md").contains(member), "services.md: \(member)")
    }
    #expect(Self.entries(of: "expectations.md").contains(ScenarioVocabulary.subscriptionsMember))
  }

  // MARK: - Expressions

  /// The rows of the tables whose header is `header`, cells without their backticks, `\|` read
  /// as `|`.
  static func rows(of page: String, header: String) -> [[String]] {
    var rows: [[String]] = []
    var inTable = false
    for line in text(of: page).split(separator: "\n", omittingEmptySubsequences: false) {
      if line == header {
        inTable = true
        continue
      }
      guard inTable else { continue }
      guard line.hasPrefix("|") else {
        inTable = false
        continue
      }
      if line.hasPrefix("|---") { continue }
      let cells = line.replacingOccurrences(of: "\\|", with: "\u{0}").split(separator: "|").map {
        $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{0}", with: "|")
      }
      rows.append(cells)
    }
    return rows
  }

  /// The text of the first code span of a cell.
  static func code(_ cell: String) -> String? {
    guard cell.hasPrefix("`"), let end = cell.dropFirst().firstIndex(of: "`") else { return nil }
    return String(cell[cell.index(after: cell.startIndex)..<end])
  }

  static func evaluate(_ source: String) throws -> Value {
    try CompiledExpression(source, scope: ExpressionScope()).evaluate(EvalContext())
  }

  static let valueRows = rows(of: "expressions.md", header: "| expression | value |")

  @Test func everyExpressionRowGivesItsValue() throws {
    #expect(Self.valueRows.count > 50)
    for row in Self.valueRows {
      let expression = try #require(Self.code(row[0]))
      let value = try #require(Self.code(row[1]))
      #expect(try Self.evaluate(expression) == Self.evaluate(value), "\(expression) should be \(value)")
    }
  }

  @Test func everyOperatorMemberMethodAndFunctionHasARow() {
    let expressions = Self.valueRows.compactMap { Self.code($0[0]) }.joined(separator: "\n")
    let page = Self.text(of: "expressions.md")
    for symbol in ["||", "&&", "==", "!=", "<", "<=", ">", ">=", "??", "+", "-", "*", "/", "%"] {
      #expect(BinaryOp(rawValue: symbol) != nil)
      #expect(expressions.contains(" \(symbol) "), "no row uses '\(symbol)'")
    }
    for symbol in ["!", "-"] { #expect(UnaryOp(rawValue: symbol) != nil) }
    #expect(expressions.contains("!true") && expressions.contains("-(2"))
    for method in methodArity.keys.sorted() {
      #expect(expressions.contains(".\(method)("), "no row calls the method '\(method)'")
    }
    for function in functionArity.keys.sorted() where function != "throw" {
      #expect(expressions.contains("\(function)("), "no row calls the function '\(function)'")
    }
    #expect(page.contains("`throw(value)`"))
    for member in ["count", "isEmpty", "first", "last", "keys", "values"] {
      #expect(Member(member).name == member)
      #expect(expressions.contains(".\(member)"), "no row reads the member '\(member)'")
    }
  }

  @Test func theSwiftHabitsAreRejectedAndTheirReplacementsLoad() throws {
    let rows = Self.rows(of: "expressions.md", header: "| Swift habit | flowrun says | write instead |")
    #expect(rows.count >= 20)
    for row in rows {
      let habit = try #require(Self.code(row[0]))
      let message = try #require(Self.code(row[1]))
      do {
        _ = try CompiledExpression(habit, scope: ExpressionScope())
        Issue.record("'\(habit)' loads, but the reference says it does not")
      } catch {
        #expect(error.message == message, "'\(habit)'")
      }
      // Prose first ("a `reduce:` step") names no expression.
      if let instead = Self.code(row[2]) {
        #expect(throws: Never.self, "'\(instead)' should load") {
          try CompiledExpression(instead, scope: ExpressionScope())
        }
      }
    }
  }
}
