import FlowrunCore
import FlowrunDiagnostics
import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunScenario

/// The libraries' own tests, ported as scenarios (`Ports/<library>/*.yaml`): RxSwift's
/// `Tests/RxSwiftTests` (written by `scripts/port_rxswift_tests.py`), ReactiveObjC's specs and
/// swift-async-algorithms' `validate` diagrams (`scripts/port_async_algorithms_tests.py`).
/// Every scenario passes, except the known differences below, each explained (docs/libraries.md,
/// "Ports"); a known difference that starts passing fails the test, so the list stays true.
@Suite struct PortTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Ports")

  /// Scenario name → why flowrun differs from the library's test there.
  static let knownDifferences: [String: String] = {
    var differences = [
      "testTake_TakeZero":
        "RxTest's TestScheduler runs an action due now one tick later (TestScheduler.adjustScheduledTime); flowrun runs it in the same frame"
    ]
    for name in ["testGenerate_Finite", "testRange_ZeroCount", "testRange_Dispose"] {
      differences[name] =
        "RxTest's TestScheduler runs each recursive action of generate/range one tick later (TestScheduler.adjustScheduledTime), so the values come one per tick; flowrun sends them at subscription, as the CurrentThreadScheduler a view model uses does"
    }
    for arity in 2...8 {
      differences["testZip_AllCompleted\(arity)"] =
        "flowrun's zip is Observable.zip([...]) (Zip+Collection.swift: a value that cannot be paired while the others are done completes it, as the spec's row says); the fixed-arity Observable.zip(a, b) completes only when every input has (RxSwift 5, commit f962ddd5)"
    }
    return differences
  }()

  static func files(_ library: String) -> [URL] {
    let folder = root.appendingPathComponent(library)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0) }
  }

  /// The failing scenarios' names of a port file, or its load errors.
  static func failures(of url: URL) throws -> (failed: [String], loadErrors: String?, count: Int) {
    let text = try String(contentsOf: url, encoding: .utf8)
    let file = ScenarioLoader.load(path: url.lastPathComponent, bytes: Array(text.utf8))
    if file.hasErrors { return ([], file.diagnostics.map(\.rendered).joined(separator: "\n"), 0) }
    var failed: [String] = []
    for scenario in file.scenarios where ScenarioRunner.run(scenario).status != .passed {
      failed.append(scenario.name)
    }
    return (failed, nil, file.scenarios.count)
  }

  @Test(arguments: ["rxswift", "rac2", "async"])
  func everyPortedTestPassesOrIsAKnownDifference(_ library: String) throws {
    var total = 0
    for url in Self.files(library) {
      let (failed, loadErrors, count) = try Self.failures(of: url)
      #expect(loadErrors == nil, "\(url.lastPathComponent): \(loadErrors ?? "")")
      total += count
      for name in failed {
        #expect(Self.knownDifferences[name] != nil, "\(library)/\(url.lastPathComponent): '\(name)' fails")
      }
    }
    let floor = ["rxswift": 100, "async": 50][library] ?? 10
    #expect(total >= floor, "\(library): \(total) ported scenarios")
  }

  /// swift-async-algorithms' diagrams that expect its harness to report failures
  /// (`Ports/async-failing`, each description holding the package's messages) fail in flowrun
  /// too, in the same place: a diagram the harness refuses to parse does not load (flowrun's
  /// marbles have the same rule), and one whose expectation is wrong fails at the frame of the
  /// package's first message.
  @Test func thePackagesExpectedFailuresFailAtTheSamePlace() throws {
    let refusals = [
      "validation diagram unbalanced grouping": "unclosed group in marble",
      "validation diagram nested grouping": "nested group",
      "validation diagram step symbol in group": "'-' is not allowed in a group",
    ]
    var count = 0
    for url in Self.files("async-failing") {
      let text = try String(contentsOf: url, encoding: .utf8)
      for document in text.components(separatedBy: "\n---\n") {
        count += 1
        let json = try #require(document.split(separator: "\n").first { $0.hasPrefix("{") })
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let name = fields["name"] as? String ?? "?"
        let expected = try #require(fields["description"] as? String)
        let file = ScenarioLoader.load(path: url.lastPathComponent, bytes: Array(document.utf8))
        if let refusal = refusals[expected] {
          let rendered = file.diagnostics.map(\.rendered).joined(separator: "\n")
          #expect(rendered.contains(refusal), "\(name): \(rendered)")
          continue
        }
        #expect(!file.hasErrors, "\(name): \(file.diagnostics.map(\.rendered))")
        let scenario = try #require(file.scenarios.first)
        let result = ScenarioRunner.run(scenario)
        let ticks = expected.matches(of: /at tick (\d+)/).compactMap { Int($0.1) }
        #expect(Self.firstDifferingFrame(result) == ticks.min(), "\(name): \(expected)")
      }
    }
    #expect(count >= 17)
  }

  /// The frame of the first event where a failed expectation and what happened part.
  static func firstDifferingFrame(_ result: ScenarioResult) -> Int? {
    guard let failed = result.expectations.first(where: { !$0.passed }), let index = failed.firstDifference,
      case .events(let expected) = failed.spec.expected, case .events(let actual) = failed.actual
    else { return nil }
    let frames = [expected.events, actual.events].compactMap { $0.indices.contains(index) ? $0[index].frame : nil }
    return frames.min()
  }

  @Test func everyKnownDifferenceStillDiffers() throws {
    var failing: Set<String> = []
    for library in ["rxswift", "rac2", "async"] {
      for url in Self.files(library) { failing.formUnion(try Self.failures(of: url).failed) }
    }
    for name in Self.knownDifferences.keys { #expect(failing.contains(name), "'\(name)' now passes") }
  }
}
