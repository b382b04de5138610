import FlowrunDiagnostics
import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunScenario

/// Every operator page's marble example is a real scenario in `docs/operators/examples/`, and it
/// passes.
@Suite struct OperatorDocsTests {
  /// The operator pages.
  static let docs = packageRoot.appendingPathComponent("docs/operators")

  /// The page of every step that has one (StepTable.swift).
  static let pages: [String] = StepTable.standard.definitions.compactMap {
    if case .page(let page) = $0.docs { page } else { nil }
  }

  @Test(arguments: pages)
  func exampleRunsAndPasses(_ name: String) throws {
    let path = Self.docs.appendingPathComponent("examples/\(name).yaml").path
    let data = try #require(FileManager.default.contents(atPath: path), "missing \(path)")
    let text = String(decoding: data, as: UTF8.self)
    let problems = problemsRunning(text, path: path)
    #expect(problems == nil, "\(problems ?? "")")
  }

  @Test(arguments: pages)
  func pageShowsItsExampleVerbatim(_ name: String) throws {
    let page = try #require(FileManager.default.contents(atPath: Self.docs.appendingPathComponent("\(name).md").path))
    let example = try #require(
      FileManager.default.contents(atPath: Self.docs.appendingPathComponent("examples/\(name).yaml").path))
    let pageText = String(decoding: page, as: UTF8.self)
    let exampleText = String(decoding: example, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(pageText.contains(exampleText))
    for section in ["## Example", "## Completion and errors", "## RxSwift, RxJS and RAC2"] {
      #expect(pageText.contains(section), "\(name).md lacks \(section)")
    }
  }

  @Test func everyPageBelongsToAStep() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.docs.path)
    let pageNames = files.filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }
    #expect(!pageNames.isEmpty)
    for page in pageNames {
      #expect(Self.pages.contains(page), "docs/operators/\(page).md documents no step of the table")
    }
  }

  @Test func aPageIsNamedAfterItsStep() {
    for definition in StepTable.standard.definitions {
      guard case .page(let page) = definition.docs else { continue }
      #expect(page == definition.name, "\(definition.name) points at \(page).md")
    }
  }
}
