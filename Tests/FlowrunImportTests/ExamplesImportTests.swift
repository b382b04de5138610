import FlowrunDiagnostics
import FlowrunImport
import FlowrunTestSupport
import Foundation
import Testing

/// The importer on real view models: the Examples package's Combine and async view models
/// (`Sources/ViewModels`) and its RxSwift ones (`Sources/RxViewModels`). The drafts load, nine
/// calls in ten or more are read, `flowrun --update` records their expectations, and the drafts
/// committed under `Examples/Imported` (checked against the code by `swift test --package-path
/// Examples`) are what the importer writes today. `FLOWRUN_RECORD=1` rewrites them (draft +
/// `--update`).
@Suite struct ExamplesImportTests {
  static let examples = [
    "LoginViewModel", "SearchViewModel", "PagingViewModel", "SignUpViewModel", "AsyncLoginViewModel",
    "AsyncSearchViewModel",
  ]
  static let rxExamples = ["RxLoginViewModel", "RxSearchViewModel", "RxActionViewModel"]
  /// Drafts whose expectations already hold before `--update` (none today).
  static let nothingToRecord: Set<String> = []
  /// The drafts the Examples package checks against its view models.
  static let committed = examples + rxExamples

  /// The module of a view model of the Examples package.
  static func module(_ name: String) -> String { rxExamples.contains(name) ? "RxViewModels" : "ViewModels" }

  static func source(_ name: String) -> (path: String, text: String) {
    let path = "Examples/Sources/\(module(name))/\(name).swift"
    let url = packageRoot.appendingPathComponent(path)
    return (path, (try? String(contentsOf: url, encoding: .utf8)) ?? "")
  }

  /// Where the Examples package keeps a view model's drafted binding test.
  static func testPath(_ name: String) -> String {
    "Examples/Tests/\(module(name))Tests/Imported/\(name)DraftTests.swift"
  }

  static func draft(_ name: String) -> SwiftImporter.Result {
    let (path, text) = source(name)
    // The folder's other files, as flowrun-import reads them: `User` is declared in
    // LoginViewModel.swift.
    return SwiftImporter.draft(
      path: path, source: text, scenarioPath: "Examples/Imported/\(name).yaml", testPath: "Imported/\(name).yaml",
      module: module(name), neighbours: neighbours(of: name))
  }

  static func neighbours(of name: String) -> [String] {
    let folder = packageRoot.appendingPathComponent("Examples/Sources/\(module(name))")
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    return files.filter { $0.hasSuffix(".swift") && $0 != "\(name).swift" }.compactMap {
      try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
    }
  }

  @Test(arguments: examples + rxExamples)
  func theDraftLoadsAndHasItsBindingTest(_ name: String) throws {
    let result = Self.draft(name)
    let errors = result.diagnostics.filter { $0.severity == .error }.map(\.rendered)
    #expect(errors == [], "\(result.scenario)")
    #expect(result.test != nil)
    #expect(!result.summary.isEmpty)
  }

  /// The view models by library: each library's, and all together, read nine calls in ten.
  static let byLibrary: [String: [String]] = [
    "combine": ["LoginViewModel", "SearchViewModel", "PagingViewModel", "SignUpViewModel"],
    "async": ["AsyncLoginViewModel", "AsyncSearchViewModel"],
    "rxswift": rxExamples,
  ]

  @Test(arguments: ["combine", "async", "rxswift", "all"])
  func nineCallsInTenAreRead(_ library: String) {
    var read = 0
    var total = 0
    var lines: [String] = []
    for name in Self.byLibrary[library] ?? Self.examples + Self.rxExamples {
      let result = Self.draft(name)
      read += result.recognised
      total += result.total
      lines += result.summary
    }
    #expect(total > (library == "all" ? 60 : 10), "\(lines.joined(separator: "\n"))")
    #expect(Double(read) >= 0.9 * Double(total), "\(read) of \(total):\n\(lines.joined(separator: "\n"))")
  }

  @Test(arguments: committed)
  func theCommittedDraftIsTheImportersOutput(_ name: String) throws {
    let result = Self.draft(name)
    let scenarioURL = packageRoot.appendingPathComponent("Examples/Imported/\(name).yaml")
    let testURL = packageRoot.appendingPathComponent(Self.testPath(name))
    let test = try #require(result.test)
    if ProcessInfo.processInfo.environment["FLOWRUN_RECORD"] != nil {
      try FileManager.default.createDirectory(
        at: scenarioURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.createDirectory(
        at: testURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(result.scenario.utf8).write(to: scenarioURL)
      try Data(test.utf8).write(to: testURL)
      let update = try FlowrunCLI.run(["--update", scenarioURL.path])
      #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
      Issue.record("recorded \(scenarioURL.path) and \(testURL.path)")
      return
    }
    let committed = try String(contentsOf: scenarioURL, encoding: .utf8)
    #expect(Self.draftPart(committed) == Self.draftPart(result.scenario), "FLOWRUN_RECORD=1 rewrites it")
    #expect(Self.expectedTargets(committed) == Self.expectedTargets(result.scenario))
    #expect(try String(contentsOf: testURL, encoding: .utf8) == test, "FLOWRUN_RECORD=1 rewrites it")
  }

  @Test(arguments: examples + rxExamples)
  func updateRecordsTheExpectations(_ name: String) throws {
    let result = Self.draft(name)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("\(name).yaml")
    try Data(result.scenario.utf8).write(to: file)
    let update = try FlowrunCLI.run(["--update", file.path])
    let recorded = try String(contentsOf: file, encoding: .utf8)
    if Self.nothingToRecord.contains(name) {
      #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
      #expect(recorded == result.scenario)
    } else {
      // The draft's '-' expectations fail, and `--update` rewrites every one: it succeeds and
      // says how many it wrote.
      #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
      #expect(update.stdout.contains("updated "), "\(update.stdout)")
      #expect(update.stdout.contains("--update wrote "), "\(update.stdout)")
      #expect(!update.stdout.contains("left as they were"), "\(update.stdout)")
      #expect(recorded != result.scenario)
    }
    #expect(Self.draftPart(recorded) == Self.draftPart(result.scenario))
    let rerun = try FlowrunCLI.run([file.path])
    #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
  }

  /// A guard over two properties (here the login's, with `account != nil` added) is left to
  /// fill in as the command's `enabled:`, and `check` names it at the command.
  @Test func checkNamesWhatIsLeftToFillIn() throws {
    let (path, text) = Self.source("LoginViewModel")
    let edited = text.replacingOccurrences(
      of: "guard user == nil, !isLoggingIn", with: "guard user == nil, account != nil, !isLoggingIn")
    #expect(edited != text)
    let result = SwiftImporter.draft(
      path: path, source: edited, scenarioPath: "LoginViewModel.yaml", module: "ViewModels")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("LoginViewModel.yaml")
    try Data(result.scenario.utf8).write(to: file)
    let check = try FlowrunCLI.run(["check", file.path])
    let lines = (check.stdout + check.stderr).split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let warnings = lines.compactMap { line in
      line.range(of: ": warning: left to fill in: ").map { String(line[$0.lowerBound...]) }
    }
    #expect(
      warnings == [": warning: left to fill in: enabled: the guard at LoginViewModel.swift:58"],
      "\(check.stdout)\(check.stderr)")
    let lineOfLogin = try #require(
      result.scenario.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("  login:") })
    #expect(
      lines.contains {
        $0.hasPrefix("\(file.path):\(lineOfLogin + 1):") && $0.contains("the guard at LoginViewModel.swift:58")
      })
    // The logout's guard reads one property: its `enabled:`.
    #expect(result.scenario.contains("    enabled: [{ from: vm.user }, { map: '$0 != nil' }]"))
  }

  /// The file up to its `expect:` section (which `--update` rewrites).
  static func draftPart(_ text: String) -> String {
    text.components(separatedBy: "\nexpect:").first ?? text
  }

  /// The expectation targets: the keys indented by two spaces after `expect:`.
  static func expectedTargets(_ text: String) -> [String] {
    let section = text.components(separatedBy: "\nexpect:").dropFirst().first ?? ""
    return section.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map {
      String($0.dropFirst(2).prefix { $0 != ":" })
    }
  }
}
