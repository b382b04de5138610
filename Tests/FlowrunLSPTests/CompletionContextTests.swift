import Foundation
import Testing

@testable import FlowrunLSP

/// The place of the cursor, read from the text around it (the line being typed is often not
/// YAML yet), and what completion offers there.
@Suite struct CompletionContextTests {
  struct Case: CustomTestStringConvertible, Sendable {
    /// The text with `|` where the cursor is.
    var text: String
    var path: [CompletionContext.Segment]
    var place: CompletionContext.Place
    var partial: Int
    var testDescription: String { text.replacingOccurrences(of: "\n", with: "⏎") }
  }

  static let cases: [Case] = [
    Case(text: "flowrun: 1\nna|", path: [], place: .key(siblings: ["flowrun"]), partial: 2),
    Case(
      text: "signals:\n  a:\n    - from: b\n    - deb|", path: [.key("signals"), .key("a")], place: .item(position: 1),
      partial: 3),
    Case(text: "signals:\n  a:\n    - |", path: [.key("signals"), .key("a")], place: .item(position: 0), partial: 0),
    Case(
      text: "signals:\n  a:\n    - hot: \"-a\"\n      val|",
      path: [.key("signals"), .key("a"), .item(position: 0)], place: .key(siblings: ["hot"]), partial: 3),
    Case(text: "signals:\n  a: { ho|", path: [.key("signals"), .key("a")], place: .key(siblings: []), partial: 2),
    Case(
      text: "signals:\n  a: { hot: \"-a|", path: [.key("signals"), .key("a"), .key("hot")], place: .quoted(tag: nil),
      partial: 0),
    Case(
      text: "signals:\n  a:\n    - combineLatest: [x, y|",
      path: [.key("signals"), .key("a"), .item(position: 0), .key("combineLatest")], place: .value, partial: 1),
    Case(
      text: "signals:\n  a:\n    - from: b\n    - takeUntil: |",
      path: [.key("signals"), .key("a"), .item(position: 1), .key("takeUntil")], place: .value, partial: 0),
    Case(text: "expect:\n  x: \"-a\"\n  vm.|", path: [.key("expect")], place: .key(siblings: ["x"]), partial: 3),
    Case(text: "expect:\n  x: \"-|", path: [.key("expect"), .key("x")], place: .quoted(tag: nil), partial: 0),
    Case(
      text: "values:\n  x: !cold \"-|", path: [.key("values"), .key("x")], place: .quoted(tag: "!cold"), partial: 0),
    // A list at its key's own column.
    Case(
      text: "signals:\n  a:\n  - from: b\n  - ma|", path: [.key("signals"), .key("a")], place: .item(position: 1),
      partial: 2),
    Case(
      text: "effects:\n  - on: a\n    exe|", path: [.key("effects"), .item(position: 0)], place: .key(siblings: ["on"]),
      partial: 3),
    Case(
      text: "a: 1\n---\nflowrun: 1\nsig|", path: [], place: .key(siblings: ["flowrun"]), partial: 3),
  ]

  @Test(arguments: cases)
  func contextIsReadFromTheText(_ testCase: Case) throws {
    let (lines, cursor) = Self.document(testCase.text)
    let context = try #require(CompletionContext(lines: lines, line: cursor.line, character: cursor.character))
    #expect(context.path == testCase.path)
    #expect(context.place == testCase.place)
    #expect(context.partialLength == testCase.partial)
  }

  @Test func noCompletionInAComment() {
    let (lines, cursor) = Self.document("signals: # a com|")
    #expect(CompletionContext(lines: lines, line: cursor.line, character: cursor.character) == nil)
  }

  struct Offer: Sendable {
    var text: String
    var includes: [String]
    var excludes: [String]
  }

  static let offers: [Offer] = [
    Offer(
      text: "flowrun: 1\nna|", includes: ["name", "signals", "expect", "until"], excludes: ["flowrun", "debounce"]),
    Offer(text: "signals:\n  a:\n    - |", includes: ["hot", "from", "combineLatest"], excludes: ["debounce"]),
    Offer(
      text: "signals:\n  a:\n    - from: b\n    - |", includes: ["debounce", "map", "flattenMap"], excludes: ["hot"]),
    Offer(
      text: "signals:\n  a:\n    - throttle: 2\n      lea|", includes: ["leading", "trailing", "latest"],
      excludes: ["map"]),
    Offer(text: "signals:\n  a: { hot: \"-a\" }\n  b:\n    - from: |", includes: ["a", "b"], excludes: ["hot"]),
    Offer(
      text: "signals:\n  a: { hot: \"-a\" }\ncommands:\n  c: { work: a }\neffects:\n  - on: a\n    execute: |",
      includes: ["c"], excludes: ["a", "c.values"]),
    Offer(
      text: "signals:\n  a: { hot: \"-a\" }\ncommands:\n  c: { work: a }\nexpect:\n  |",
      includes: ["a", "c.executing", "c.values", "a.subscriptions"], excludes: ["c", "c.subscriptions"]),
    Offer(
      text: "values: { x: 1, long: 2 }\nsignals:\n  a: { hot: \"-|\" }", includes: ["x", "'long'"], excludes: ["a"]),
    // `finish:` is library: async's word for `complete:` (AsyncChannel.finish()).
    Offer(
      text: "library: async\nsubjects:\n  s: { channel: true }\ntimeline:\n  - at: 1\n    fi|",
      includes: ["finish", "fail"], excludes: ["map"]),
    Offer(
      text: "subjects:\n  s: {}\ntimeline:\n  - at: 1\n    fi|", includes: ["fail"], excludes: ["finish"]),
    Offer(
      text: "library: async\nsubjects:\n  s: { channel: true }\ntimeline:\n  - at: 1\n    finish: |",
      includes: ["s"], excludes: []),
  ]

  @Test(arguments: offers.indices)
  func completionOffersWhatThePlaceTakes(_ index: Int) {
    let offer = Self.offers[index]
    let (lines, cursor) = Self.document(offer.text)
    let text = String(decoding: lines.bytes, as: UTF8.self)
    let document = OpenDocument(uri: "file:///x.yaml", version: 1, text: text)
    let labels: [String] =
      (Completion.items(document, at: cursor)["items"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
    for label in offer.includes { #expect(labels.contains(label), "\(label) missing in \(labels)") }
    for label in offer.excludes { #expect(!labels.contains(label), "\(label) offered") }
  }

  /// The text without its `|`, and the cursor's position.
  static func document(_ marked: String) -> (LineIndex, Position) {
    let cursor = marked.firstIndex(of: "|")!
    let before = marked[..<cursor]
    let line = before.filter { $0 == "\n" }.count
    let column = before.split(separator: "\n", omittingEmptySubsequences: false).last!.utf16.count
    var text = marked
    text.remove(at: cursor)
    return (LineIndex(bytes: Array(text.utf8)), Position(line: line, character: column))
  }
}
