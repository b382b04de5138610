import Flowrun
import Foundation
import Testing

@Suite struct FlowrunAPITests {
  @Test func libraryProductExposesTheLoader() {
    let file = ScenarioLoader.load(path: "x.yaml", bytes: Array("flowrun: 1\nname: x\n".utf8))
    #expect(file.scenarios.count == 1)
  }

  static let failing = """
    flowrun: 1
    name: Status label
    values: { a: "", b: "登录中,请稍后.", c: "登录成功" }
    signals:
      status: { hot: "a----b-------c--" }
    expect:
      status: "a----b----c-----"
    """

  @Test func aPassingFileHasNoFailureDescription() {
    let outcome = Flowrun.run(text: "flowrun: 1\nname: ok\nsignals: { a: { cold: \"-x|\" } }\nexpect: { a: \"-x|\" }\n")
    #expect(outcome.passed)
    #expect(outcome.failureDescription == "")
    #expect(outcome.results.count == 1)
    #expect(outcome.summary.passed == 1)
    #expect(
      outcome.report == """
        ✓ scenario.yaml  ok  (1 expectation)
        1 scenario, 1 passed, 0 failed (1 expectation, 0 failed)

        """)
    #expect(outcome.description == "scenario.yaml: 1 scenario, 1 passed, 0 failed (1 expectation, 0 failed)")
  }

  @Test func aFailureIsDescribedAsTheHumanOutputWithoutColour() {
    let outcome = Flowrun.run(text: Self.failing, path: "status.yaml")
    #expect(!outcome.passed)
    #expect(
      outcome.failureDescription == """
        ✗ status.yaml  Status label
          status.yaml:7:3: error: expectation 'status' failed
                     0    5    10
            expected a----b----c
            actual   a----b-------c
                               ^ frame 10: expected c, got nothing (c at frame 13)
            legend: a = "", b = "登录中,请稍后.", c = "登录成功"
        """)
    #expect(!outcome.failureDescription.contains("\u{1B}"))
  }

  @Test func aFileThatDoesNotLoadFailsWithItsDiagnostics() {
    let outcome = Flowrun.run(text: "flowrun: 1\nname: x\nsignalz: {}\n", path: "bad.yaml")
    #expect(!outcome.passed)
    #expect(
      outcome.failureDescription.hasPrefix("✗ bad.yaml  (did not load)\n  bad.yaml:3:1: error: unknown key 'signalz'"))
    let missing = Flowrun.run(file: "/nonexistent/flowrun.yaml")
    #expect(!missing.passed)
    #expect(missing.failureDescription.contains("cannot read the file"))
  }

  @Test func aRunTimeErrorFails() {
    let outcome = Flowrun.run(
      text: "flowrun: 1\nname: x\nlimit: { time: 5 }\nsignals: { t: { interval: 1 } }\nexpect: { t: \"-0\" }\n")
    #expect(!outcome.passed)
    #expect(outcome.results.first?.status == .error)
    #expect(outcome.failureDescription.contains("time limit of 5 frames"))
  }

  @Test func checkValidatesWithoutRunning() throws {
    let root = Flowrun.packageRoot(of: #filePath)
    let file = try #require(Flowrun.scenarioFiles(in: ["scenarios/login"], root: root).first)
    let outcome = Flowrun.check(file)
    #expect(outcome.passed)
    #expect(outcome.results.isEmpty)
    #expect(outcome.report.contains("(valid)"))
    let broken = Flowrun.check(file: root + "/Tests/Schema/invalid/unknown-step.yaml")
    #expect(!broken.passed)
    #expect(broken.failureDescription.contains("unknown operator 'mapp'"))
  }

  @Test func packageRootIsFoundFromThisFile() {
    let root = Flowrun.packageRoot(of: #filePath)
    #expect(FileManager.default.fileExists(atPath: root + "/Package.swift"))
    #expect(!root.hasSuffix("/"))
  }

  @Test(arguments: ["../schemas/flowrun-scenario.schema.json", nil])
  func theStarterScenarioPasses(schema: String?) {
    let text = StarterScenario.text(schema: schema)
    if let schema {
      #expect(text.hasPrefix("# yaml-language-server: $schema=\(schema)\n"))
    } else {
      #expect(text.hasPrefix("# (no scenario schema found: attach one with `# yaml-language-server: $schema=PATH`"))
    }
    let outcome = Flowrun.run(text: text, path: "starter.yaml")
    #expect(outcome.passed, "\(outcome.failureDescription)")
    #expect(outcome.summary.expectations == 2)
  }

  @Test func theStarterInThisCheckoutPointsAtTheSchemaFile() {
    let root = Flowrun.packageRoot(of: #filePath)
    #expect(
      StarterScenario.schemaReference(forFileAt: root + "/scenarios/new/x.yaml")
        == "../../schemas/flowrun-scenario.schema.json")
    #expect(StarterScenario.schemaReference(forFileAt: root + "/x.yaml") == "schemas/flowrun-scenario.schema.json")
    // Outside any checkout: the schema of the checkout flowrun was built in, by absolute path;
    // without one, none (never a made-up address).
    #expect(
      StarterScenario.schemaReference(forFileAt: "/x.yaml", checkout: URL(fileURLWithPath: root))
        == root + "/schemas/flowrun-scenario.schema.json")
    #expect(StarterScenario.schemaReference(forFileAt: "/x.yaml", checkout: nil) == nil)
  }

  @Test func theCheckoutIsFoundAboveTheRunningExecutable() throws {
    let root = Flowrun.packageRoot(of: #filePath)
    // The test binary is built under <root>/.build.
    let found = try #require(FlowrunCheckout.root())
    #expect(found.standardizedFileURL.path == URL(fileURLWithPath: root).standardizedFileURL.path)
    #expect(FlowrunCheckout.root(executable: URL(fileURLWithPath: "/usr/bin/env")) == nil)
  }
}
