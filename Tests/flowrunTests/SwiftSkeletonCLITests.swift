import FlowrunTestSupport
import Foundation
import Testing

/// `flowrun init --swift FILE`: the skeleton of the Swift test binding real code to a scenario
/// (golden files under SkeletonGolden; FLOWRUN_RECORD=1 rewrites them).
@Suite struct SwiftSkeletonCLITests {
  @Test(arguments: [
    ("scenarios/login/enable-button.yaml", "login-enable-button"),
    ("scenarios/login/command.yaml", "login-command"),
    ("scenarios/search/search-as-you-type.yaml", "search-as-you-type"),
  ])
  func skeletonOfAScenario(path: String, golden: String) throws {
    let output = try CLI.run(["init", "--swift", path])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stderr == "")
    let url = CLI.packageRoot.appendingPathComponent("Tests/flowrunTests/SkeletonGolden/\(golden).swift.out")
    assertGolden(output.stdout, file: url)
  }

  /// A subject is driven by sending into the code's subject, not by assigning to it.
  @Test func aSubjectIsDrivenBySend() throws {
    let output = try CLI.run(["init", "--swift", "scenarios/libraries/reused-racsubject.yaml"])
    #expect(output.status == 0)
    let drives = output.stdout.split(separator: "\n").filter { $0.contains("flow.drive(") }
    #expect(drives.contains { $0.contains(".send(value) }") }, "\(output.stdout)")
    #expect(!drives.contains { $0.contains("#> = value") && $0.contains("\"status\"") }, "\(output.stdout)")
  }

  @Test func aFileThatDoesNotLoadIsItsDiagnosticsAndExitCode1() throws {
    let output = try CLI.run(["init", "--swift", "no-such-file.yaml"])
    #expect(output.status == 1)
    #expect(output.stdout == "")
    #expect(output.stderr == "no-such-file.yaml:1:1: error: cannot read the file\n")
  }

  @Test func aNameAndSwiftTogetherAreAUsageError() throws {
    let output = try CLI.run(["init", "login", "--swift", "scenarios/login/command.yaml"])
    #expect(output.status == 64)
    #expect(output.stderr.contains("give either a name to create or --swift, not both"))
  }
}
