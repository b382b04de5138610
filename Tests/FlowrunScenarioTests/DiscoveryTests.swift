import Foundation
import Testing

@testable import FlowrunScenario

/// Discovery tells a scenario file by its first bytes when it can (`quickLook`), so that the
/// loader is the only one to parse it; when it decides, it decides as the parse does.
struct DiscoveryTests {
  static let cases: [(text: String, quick: Bool?)] = [
    ("flowrun: 1\nname: a\n", true),
    ("# a comment\n\n%YAML 1.2\n---\nflowrun: 1\nname: a\n", true),
    ("--- # first\r\nflowrun: 1\r\nname: a\r\n", true),
    ("\u{FEFF}flowrun:\n  1\nname: a\n", true),
    // Not valid YAML, but a line starts with `flowrun:`: still reported as a broken scenario.
    ("flowrun: 1\nname: [a\n", true),
    ("name: a\nflowrun: 1\n", nil),
    ("{ flowrun: 1, name: a }\n", nil),
    ("flowrunner: 1\nflowrun: 2\n", nil),
    ("--- !tag\nflowrun: 1\n", nil),
    ("\"flo\\x77run\": 1\n", nil),
    ("name: a\nsteps: [1, 2]\n", false),
    ("", false),
    ("# only a comment\n", false),
    ("a: [unclosed\n", false),
  ]

  @Test(arguments: cases.indices)
  func quickLookDecidesAsTheParseDoes(_ index: Int) {
    let (text, quick) = Self.cases[index]
    let bytes = Array(text.utf8)
    #expect(ScenarioDiscovery.quickLook(bytes, whole: true) == quick, "\(text.debugDescription)")
    if let quick {
      #expect(ScenarioLoader.isScenarioFileParsed(bytes: bytes) == quick, "\(text.debugDescription)")
    }
    #expect(ScenarioLoader.isScenarioFile(bytes: bytes) == ScenarioLoader.isScenarioFileParsed(bytes: bytes))
  }

  /// Only the whole file can show that `flowrun` is nowhere in it.
  @Test func aPrefixNeverRulesAFileOut() {
    #expect(ScenarioDiscovery.quickLook(Array("name: a\n".utf8), whole: false) == nil)
  }

  @Test func discoveryFindsTheSameFiles() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-discovery-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for (index, entry) in Self.cases.enumerated() {
      try Data(entry.text.utf8).write(to: directory.appendingPathComponent("case-\(index).yaml"))
    }
    // Longer than the prefix discovery reads first, with the key at its end.
    let long = "name: a\ndescription: \"" + String(repeating: "x", count: 70_000) + "\"\nflowrun: 1\n"
    try Data(long.utf8).write(to: directory.appendingPathComponent("long.yaml"))
    let found = Set(
      ScenarioDiscovery.files(in: [directory.path]).files.map { URL(fileURLWithPath: $0).lastPathComponent })
    var expected: Set<String> = ["long.yaml"]
    for (index, entry) in Self.cases.enumerated()
    where ScenarioLoader.isScenarioFileParsed(bytes: Array(entry.text.utf8)) {
      expected.insert("case-\(index).yaml")
    }
    #expect(found == expected)
  }
}
