import Foundation
import Testing

@testable import FlowrunApp

/// `--update`: only the failing marbles (and the legend entries they need) change, the result
/// passes, and CI refuses without `force`.
@Suite struct UpdateTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var before: String
    var after: String
    var testDescription: String { name }
  }

  static let header = """
    flowrun: 1
    name: update   # a comment that stays
    values: { t: true }
    signals:
      src: { hot: "-a-b-c|" }
      mapped: [{ from: src }, { map: '$0 + "!"' }]
      nums: { cold: "-1-2|" }
      bad: { cold: "-1-#", error: { code: 1 } }

    """

  static let cases: [Case] = [
    Case(
      name: "a bare double-quoted marble keeps its quotes and comment",
      before: "expect:\n  src: \"-a-b|\"   # wrong\n",
      after: "expect:\n  src: \"-a-b-c|\"   # wrong\n"),
    Case(
      name: "a plain marble that cannot stay plain is double-quoted",
      before: "expect:\n  nums: a\n",
      after: "expect:\n  nums: \"-1-2|\"\n"),
    Case(
      name: "a single-quoted marble in a block map gets new legend entries in its flow values",
      before: "expect:\n  mapped:\n    marble: '-x'\n    values: { x: \"a!\" }\n",
      after: "expect:\n  mapped:\n    marble: '-x-a-b|'\n    values: { x: \"a!\", a: \"b!\", b: \"c!\" }\n"),
    Case(
      name: "a bare marble that needs a legend becomes a flow map",
      before: "expect:\n  mapped: \"-x\"\n",
      after: "expect:\n  mapped: { marble: \"-a-b-c|\", values: { a: \"a!\", b: \"b!\", c: \"c!\" } }\n"),
    Case(
      name: "a block map without values gets a values line",
      before: "expect:\n  mapped:\n    marble: \"-\"\n",
      after: "expect:\n  mapped:\n    marble: \"-a-b-c|\"\n    values: { a: \"a!\", b: \"b!\", c: \"c!\" }\n"),
    Case(
      name: "a different error value is written as error",
      before: "expect:\n  bad: { marble: \"-1\" }\n",
      after: "expect:\n  bad: { marble: \"-1-#\", error: { code: 1 } }\n"),
    Case(
      name: "subscription logs are rewritten",
      before: "expect:\n  nums: \"-1-2|\"\n  nums.subscriptions: [\"^-!\", \"^\"]\n",
      after: "expect:\n  nums: \"-1-2|\"\n  nums.subscriptions: [\"^---!\"]\n"),
    Case(
      name: "a service call log keeps the call made while the graph is set up",
      before: "services:\n  api: { just: 1 }\nproperties:\n  vm.data: { call: api, with: '\"open\"' }\n"
        + "expect:\n  vm.data: \"1\"\n  api.calls: \"-\"\n",
      after: "services:\n  api: { just: 1 }\nproperties:\n  vm.data: { call: api, with: '\"open\"' }\n"
        + "expect:\n  vm.data: \"1\"\n  api.calls: { marble: \"a\", values: { a: \"open\" } }\n"),
  ]

  @Test(arguments: cases)
  func updateRewritesOnlyTheFailingMarble(_ example: Case) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-update-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("u.yaml").path
    try (Self.header + example.before).write(toFile: path, atomically: true, encoding: .utf8)
    var options = RunOptions(paths: [path])
    options.update = .on
    options.jobs = 1
    var output = ""
    let first = try Session.run(options) { if case .standardOutput(let text) = $0 { output += text } }
    // Every failing marble was rewritten: the update succeeds and says how many it wrote.
    #expect(first == Session.exitSuccess, "\(output)")
    #expect(output.contains("updated \(path)"))
    #expect(output.contains("--update wrote 1 expectation\n"))
    let updated = try String(contentsOfFile: path, encoding: .utf8)
    #expect(updated == Self.header + example.after)
    options.update = .off
    let second = try Session.run(options) { _ in }
    #expect(second == Session.exitSuccess, "the updated file should pass:\n\(updated)")
  }

  /// `library: async`: a cancelled lane is written `(;|)`; a marble whose `,` set the pulls is
  /// left for a person to edit.
  @Test func updateWritesTheCancellationAndKeepsDelayedPulls() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-update-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("u.yaml").path
    let header =
      "flowrun: 1\nname: async update\nlibrary: async\nsignals:\n  src: { hot: \"a--b--c|\" }\n"
      + "  xs: { hot: \"xxx|\" }\nexpect:\n"
    try (header + "  src: \"a--(b;|)\"\n  xs: \",(xx),x|\"\n").write(toFile: path, atomically: true, encoding: .utf8)
    var options = RunOptions(paths: [path])
    options.update = .on
    options.jobs = 1
    var output = ""
    _ = try Session.run(options) { if case .standardOutput(let text) = $0 { output += text } }
    #expect(output.contains("not updated \(path):9:3 'xs': its marble's ',' set when the consumer pulls"))
    #expect(output.contains("--update wrote 1 expectation; 1 left as they were"))
    let updated = try String(contentsOfFile: path, encoding: .utf8)
    #expect(updated == header + "  src: \"a--(;|)\"\n  xs: \",(xx),x|\"\n")
  }

  /// A run-time error of the scenario's own graph (a step given a value of the wrong kind, an
  /// expression that fails) is reported, never written as the expectation; the update fails.
  @Test(arguments: [
    ("'switchToLatest' needs signal values", "  bad: [{ from: src }, { switchToLatest: true }]\n"),
    ("expressionError", "  bad: [{ from: src }, { map: '$0 + 1' }]\n"),
  ])
  func updateNeverRecordsAGraphError(_ example: (message: String, signal: String)) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-update-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("u.yaml").path
    let text =
      "flowrun: 1\nname: graph error\nsignals:\n  src: { hot: \"-a|\" }\n" + example.signal
      + "expect:\n  bad: \"-\"\n  src: \"-\"\n"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    var options = RunOptions(paths: [path])
    options.update = .on
    options.jobs = 1
    var output = ""
    let status = try Session.run(options) { if case .standardOutput(let text) = $0 { output += text } }
    #expect(status == Session.exitFailure)
    #expect(output.contains("not updated \(path):7:3 'bad': the scenario's own graph failed at run time"), "\(output)")
    #expect(output.contains("--update wrote 1 expectation; 1 left as they were"))
    let updated = try String(contentsOfFile: path, encoding: .utf8)
    #expect(updated.contains("  bad: \"-\"\n"))
    #expect(updated.contains("  src: \"-a|\"\n"))
  }

  @Test func updateRefusesInCIWithoutForce() throws {
    var options = RunOptions(paths: ["scenarios"])
    options.update = .on
    options.isCI = true
    #expect(throws: UsageError.self) { try Session.run(options) { _ in } }
  }
}
