import FlowrunApp
import FlowrunTestSupport
import Foundation
import Testing

/// `library:` and `flowrun run --library`, and `flowrun compare` (libraries.md), end to end.
/// The golden outputs are under `LibraryGolden/` (record with FLOWRUN_RECORD=1).
@Suite struct LibraryCLITests {
  static let directory = CLI.packageRoot.appendingPathComponent("Tests/flowrunTests/LibraryGolden")

  static func golden(_ name: String) -> URL {
    directory.appendingPathComponent(name)
  }

  @Test func compareTheLibraryFlowsHuman() throws {
    let output = try CLI.run(["compare", "--color", "never", "scenarios/libraries"])
    #expect(output.status == 0, "\(output.stderr)")
    assertGolden(output.stdout, file: Self.golden("compare-scenarios.out"))
    // Every divergence of the teaching flows is shown with the row that explains it.
    for row in [
      "rac2-delay-completion", "rxswift-retry-counts-attempts", "rxswift-throttle-window-end-inclusive",
      "rac2-subject-keeps-no-terminal-state", "combine-published-sends-before-store",
      "async-throttle-pull-based", "async-combinelatest-ends-on-empty-input",
      "rxswift-zip-completes-when-all-done", "rxswift-sample-waits-for-tick", "rxswift-command-is-action",
    ] {
      #expect(output.stdout.contains("why: ") && output.stdout.contains(row), "\(row)")
    }
  }

  @Test func compareAsJSON() throws {
    let output = try CLI.run(["compare", "--reporter", "json", "mixed.yaml"], in: Self.directory)
    #expect(output.status == 0)
    assertGolden(output.stdout, file: Self.golden("compare-mixed.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    let compared = try #require(json["compare"] as? [[String: Any]])
    let differences = try #require(compared.first?["differences"] as? [[String: Any]])
    #expect(differences.compactMap { $0["target"] as? String } == ["search"])
  }

  /// Each difference names the rows of the steps it depends on, not every row of the file.
  @Test func compareNamesTheRowsOfWhatAnExpectationReads() throws {
    let output = try CLI.run(["compare", "--reporter", "json", "rows-per-expectation.yaml"], in: Self.directory)
    #expect(output.status == 0)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    let compared = try #require(json["compare"] as? [[String: Any]])
    let differences = try #require(compared.first?["differences"] as? [[String: Any]])
    var rows: [String: [String]] = [:]
    for difference in differences {
      let target = try #require(difference["target"] as? String)
      rows[target] = (difference["rows"] as? [[String: Any]])?.compactMap { $0["row"] as? String }
    }
    let takeUntil = ["rac2-takeuntil-trigger-completes", "rac2-takeuntil-trigger-error-ignored"]
    #expect(rows["search"] == ["rac2-throttle-is-debounce", "async-throttle-pull-based"])
    #expect(rows["upTo"] == takeUntil)
    #expect(rows["chained"] == takeUntil)  // through the signal it reads
  }

  @Test func compareNamesTheKeyThatStopsALibraryAndFailsWhenNoneLoads() throws {
    let output = try CLI.run(
      ["compare", "--color", "never", "--libraries", "rac2,combine", "mixed.yaml", "blocked-everywhere.yaml"],
      in: Self.directory)
    #expect(output.status == 1)
    assertGolden(output.stdout, file: Self.golden("compare-blocked.out"))
    #expect(
      output.stdout.contains("cannot run under combine: mixed.yaml:5:14: library 'combine' has no replay subject"))
  }

  /// A file of several documents: a load error is reported against its document only, the
  /// others are compared, and the summary counts each document once.
  @Test func compareReadsEachDocumentOfAFileOnItsOwn() throws {
    let output = try CLI.run(
      ["compare", "--color", "never", "--libraries", "rac2,rxswift,combine", "several-documents.yaml"],
      in: Self.directory)
    #expect(output.status == 1)
    assertGolden(output.stdout, file: Self.golden("compare-several-documents.out"))
    #expect(output.stdout.contains("≠ several-documents.yaml  retry counts differ"))
    #expect(output.stdout.contains("= several-documents.yaml  the same everywhere"))
    #expect(output.stdout.contains("✗ several-documents.yaml  a document that does not load"))
    #expect(output.stdout.contains("cannot run under combine: several-documents.yaml:18:"))
    #expect(
      output.stdout.contains(
        "4 scenarios, 1 differ between libraries, 1 cannot run under every library, 1 did not load"))
  }

  @Test func compareUsageErrors() throws {
    #expect(try CLI.run(["compare", "--libraries", "rac3", "scenarios/libraries"]).status == 64)
    #expect(try CLI.run(["compare"]).status == 64)
    #expect(try CLI.run(["compare", "nowhere/"]).status == 64)
  }

  /// `--library rxswift`: a file without `library:` is read in RxSwift, a file of another
  /// library is reported as not run (and does not fail the run).
  @Test func runWithALibrary() throws {
    let output = try CLI.run(
      ["--color", "never", "--library", "rxswift", "mixed.yaml", "other-library.yaml", "no-library.yaml"],
      in: Self.directory)
    #expect(output.status == 1)  // no-library.yaml's `retry: 1` is one attempt under rxswift
    assertGolden(CLI.maskingDuration(output.stdout), file: Self.golden("run-library.out"))
    #expect(output.stdout.contains("- mixed.yaml  a RAC2 flow compared with the others  (not run under 'rxswift'"))
    #expect(output.stdout.contains("3 scenarios, 1 passed, 1 failed, 1 skipped"))
    let passing = try CLI.run(["--library", "rac2", "no-library.yaml", "mixed.yaml"], in: Self.directory)
    #expect(passing.status == 0, "\(passing.stdout)")
    #expect(try CLI.run(["--library", "rx", "mixed.yaml"], in: Self.directory).status == 64)
    // The note points at the file's own `library:`.
    let json = try CLI.run(["--library", "rxswift", "--reporter", "json", "mixed.yaml"], in: Self.directory)
    #expect(json.stdout.contains("\"line\": 3,\n          \"column\": 10,"), "\(json.stdout)")
  }

  @Test func aMisspelledLibraryIsALoadErrorWithASuggestion() throws {
    let output = try CLI.run(["--color", "never", "misspelled.yaml"], in: Self.directory)
    #expect(output.status == 1)
    #expect(
      output.stdout.contains(
        "misspelled.yaml:3:10: error: unknown library 'RxSwift'; did you mean 'rxswift'?"))
  }
}
