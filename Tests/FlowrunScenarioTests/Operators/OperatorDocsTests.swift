import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunScenario

/// Every operator page's marble example is a real scenario in `docs/operators/examples/`, and it
/// passes.
@Suite struct OperatorDocsTests {
  /// The operator pages.
  static let docs = packageRoot.appendingPathComponent("docs/operators")

  static let pages: [String] = [
    "reduce", "pairwise", "materialize", "dematerialize", "takeLast", "skipUntil", "first", "last",
    "elementAt", "ignoreElements", "ignore", "withLatestFrom", "sample", "sampleRAC", "then", "debounce",
    "throttle", "delay", "delaySubscription", "timeout", "timeoutRAC", "bufferTime", "buffer", "share",
    "shareReplay", "replay", "replayLast", "replayLazily", "observeOn",
  ]

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

  @Test func everyCatalogueStepHasAPage() {
    let aliases = ["ignoreValues": "ignoreElements", "deliverOn": "observeOn"]
    for name in CatalogueOperator.names {
      #expect(Self.pages.contains(aliases[name] ?? name), "no page for \(name)")
    }
  }
}
