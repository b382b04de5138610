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

  @Test func everyKnownDifferenceStillDiffers() throws {
    var failing: Set<String> = []
    for library in ["rxswift", "rac2", "async"] {
      for url in Self.files(library) { failing.formUnion(try Self.failures(of: url).failed) }
    }
    for name in Self.knownDifferences.keys { #expect(failing.contains(name), "'\(name)' now passes") }
  }
}
