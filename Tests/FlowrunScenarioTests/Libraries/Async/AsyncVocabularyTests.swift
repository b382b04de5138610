import FlowrunDiagnostics
import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunScenario

/// `library: async` in the words of the standard library's `AsyncSequence` and of
/// swift-async-algorithms 1.1.4 (libraries.md, docs/libraries.md "async"): one case per row,
/// each with the marbles the package's source gives a consumer that pulls at once.
@Suite struct AsyncVocabularyTests {
  typealias Case = LibraryCase

  /// The standard library's operators.
  static let standardLibrary: [Case] = [
    Case(
      name: "compactMap drops nil results",
      body: """
        signals:
          out: [{ hot: "-1-2-3|" }, { compactMap: '$0 == 2 ? nil : $0 * 10' }]
        expect:
          out: { marble: "-a---b|", values: { a: 10, b: 30 } }
        """),
    Case(
      name: "prefix(n) ends right after the n-th value; prefix(while:) at the first that fails",
      body: """
        signals:
          out: [{ hot: "-1-2-3|" }, { prefix: 2 }]
          upTo: [{ hot: "-1-2-3|" }, { prefix: { while: '$0 < 3' } }]
        expect:
          out: "-1-(2|)"
          upTo: "-1-2-|"
        """),
    Case(
      name: "dropFirst and drop(while:)",
      body: """
        signals:
          out: [{ hot: "-1-2-3|" }, { dropFirst: 1 }]
          after: [{ hot: "-1-2-1|" }, { drop: { while: '$0 < 2' } }]
        expect:
          out: "---2-3|"
          after: "---2-1|"
        """),
    Case(
      name: "flatMap iterates each inner sequence to its end first (AsyncFlatMapSequence)",
      body: """
        signals:
          out: [{ hot: "-ab|" }, { flatMap: { cold: "xy|" } }]
        expect:
          out: "-xyxy|"
        """),
    // The base is pulled only when the inner ended: its failure waits behind b's inner.
    Case(
      name: "flatMap sees its base's failure when it pulls the base again",
      body: """
        signals:
          out: [{ hot: "-ab#" }, { flatMap: { cold: "xy|" } }]
        expect:
          out: "-xyxy#"
        """),
    Case(
      name: "first(where:) returns nil on an empty sequence: the lane finishes",
      body: """
        signals:
          none: [{ hot: "---|" }, { first: { where: '$0 > 2' } }]
          found: [{ hot: "-1-3-|" }, { first: '$0 > 2' }]
        expect:
          none: "---|"
          found: "---(3|)"
        """),
    Case(
      name: "contains, allSatisfy, min and max answer once",
      body: """
        signals:
          has: [{ hot: "-1-2-3|" }, { contains: 2 }]
          all: [{ hot: "-1-2-3|" }, { allSatisfy: '$0 < 3' }]
          least: [{ hot: "-2-1-3|" }, min]
          most: [{ hot: "-2-1-3|" }, max]
        expect:
          has: "---(t|)"
          all: "-----(f|)"
          least: "------(1|)"
          most: "------(3|)"
        values: { t: true, f: false }
        """),
  ]

  /// swift-async-algorithms' operators.
  static let algorithms: [Case] = [
    Case(
      name: "debounce sends the pending value when the base finishes (TestDebounce.test_finishDoesntDebounce)",
      body: """
        signals:
          out: [{ hot: "a|" }, { debounce: 3 }]
          failed: [{ hot: "a#" }, { debounce: { for: 3 } }]
        expect:
          out: "-(a|)"
          failed: "-#"
        """),
    Case(
      name: "throttle is pull-based: a value inside the window waits for the next value, not for a timer",
      body: """
        signals:
          taps: { hot: "abc----d--|" }
          out: [{ from: taps }, { throttle: 3 }]
          first: [{ from: taps }, { throttle: { for: 3, latest: false } }]
        expect:
          out: "a------d--|"
          first: "a------b--|"
        """),
    Case(
      name: "throttle sends the pending value at the end, after the interval (TestThrottle.test_rate_3)",
      body: """
        signals:
          out: [{ hot: "abcdefghijk|" }, { throttle: { for: 3 } }]
        expect:
          out: "a--d--g--j--(k|)"
        """),
    Case(
      name: "combineLatest ends at once when an input finishes before its first value",
      body: """
        signals:
          early: { combineLatest: [{ hot: "-a-b-c-|" }, { hot: "--|" }] }
          late: [{ hot: "-a-b---|" }, { combineLatest: [{ hot: "--1|" }] }]
        expect:
          early: "--|"
          late: { marble: "--xy---|", values: { x: [a, 1], y: [b, 1] } }
        """),
    Case(
      name: "zip ends when an input ends; merge when all end; chain is concat",
      body: """
        signals:
          zipped: { zip: [{ hot: "-a-b-c|" }, { hot: "--1|" }] }
          merged: { merge: [{ hot: "-a|" }, { hot: "--b---|" }] }
          chained: [{ cold: "a|" }, { chain: { cold: "-b|" } }]
        expect:
          zipped: { marble: "--x|", values: { x: [a, 1] } }
          merged: "-ab---|"
          chained: "a-b|"
        """),
    Case(
      name: "removeDuplicates, compacted, adjacentPairs, reductions",
      body: """
        signals:
          dedup: [{ hot: "-1-1-2|" }, removeDuplicates]
          byParity: [{ hot: "-1-3-2|" }, { removeDuplicates: { by: '$0 % 2 == $1 % 2' } }]
          compact: [{ hot: "-1-n-2|" }, compacted]
          pairs: [{ hot: "-1-2-3|" }, adjacentPairs]
          sums: [{ hot: "-1-2-3|" }, { reductions: '$0 + $1' }]
          seeded: [{ hot: "-1-2|" }, { reductions: '$0 + $1', seed: 10 }]
        values: { n: null, p: [1, 2], q: [2, 3] }
        expect:
          dedup: "-1---2|"
          byParity: "-1---2|"
          compact: "-1---2|"
          pairs: "---p-q|"
          sums: { marble: "-a-b-c|", values: { a: 1, b: 3, c: 6 } }
          seeded: { marble: "-a-b|", values: { a: 11, b: 13 } }
        """),
    Case(
      name: "chunks by count, by a signal and by a repeating timer; no empty chunks; the partial one at the end",
      body: """
        signals:
          tick: { hot: "--X---X--X|" }
          byCount: [{ hot: "abcde|" }, { chunks: 2 }]
          bySignal: [{ hot: "ab-c-----d|" }, { chunked: { by: tick } }]
          byTime: [{ hot: "ab---c-----|" }, { chunked: { by: { every: 4 } } }]
          either: [{ hot: "abc---d|" }, { chunks: { ofCount: 2, or: tick } }]
        values: { p: [a, b], q: [c, d], r: [e], s: [c], t: [d], u: [a, b, c], v: [c, d] }
        expect:
          byCount: "-p-q-(r|)"
          bySignal: "--p---s---(t|)"
          byTime: "----p---s--|"
          either: "-p----(s)(t|)"
        """),
    Case(
      name: "chunked(by:) a test of adjacent values and chunked(on:) a projection",
      body: """
        signals:
          byCase: [{ hot: "ABcdE|" }, { chunked: { by: '$0.first.matches("[A-Z]") == $1.first.matches("[A-Z]")' } }]
          always: [{ hot: "abc|" }, { chunked: { by: true } }]
          rising: [{ hot: "1231-2#" }, { chunked: { by: '$1 > $0' } }]
          onParity: [{ hot: "1352|" }, { chunked: { on: '$0 % 2' } }, { map: '$0 * 10 + $1.count' }]
        values: { p: [A, B], q: [c, d], r: [E], s: [a, b, c], t: [1, 2, 3] }
        expect:
          byCase: "--p-q(r|)"
          always: "---(s|)"
          rising: "---t--#"
          onParity: { marble: "---a(b|)", values: { a: 13, b: 1 } }
        """),
    Case(
      name: "chunked needs 'by' or 'on'",
      body: "signals:\n  out: [{ hot: \"-1\" }, { chunked: { every: 2 } }]\n",
      error: "'chunked' takes { by: signal }"),
    Case(
      name: "buffer(policy:) passes values on for a consumer that pulls at once",
      body: """
        signals:
          out: [{ hot: "-1-2|" }, { buffer: { policy: { bufferingNewest: 1 } } }]
        expect:
          out: "-1-2|"
        """),
    Case(
      name: "a buffer policy that is not the package's is a load error",
      body: "signals:\n  out: [{ hot: \"-1\" }, { buffer: { policy: dropping } }]\n",
      error: "a buffer policy is 'unbounded', { bounded: n }, { bufferingLatest: n } or { bufferingOldest: n }"),
  ]

  /// AsyncChannel and AsyncStream as subjects.
  static let subjects: [Case] = [
    Case(
      name: "an AsyncChannel gives each value to one consumer, in turn",
      body: """
        subjects:
          jobs: { channel: true }
        signals:
          first: { from: jobs }
          second: { from: jobs }
        timeline:
          - { at: 1, send: { jobs: a } }
          - { at: 2, send: { jobs: b } }
          - { at: 3, send: { jobs: c } }
          - { at: 4, complete: jobs }
        expect:
          first: "-a-c|"
          second: "--b-|"
        """),
    Case(
      name: "a value sent to a channel while no consumer waits waits for one; finishing drops it",
      body: """
        subjects:
          jobs: { channel: true }
          ended: { channel: true }
        signals:
          late: { from: jobs }
          afterEnd: { from: ended }
        timeline:
          - { at: 1, send: { jobs: a, ended: a } }
          - { at: 2, complete: ended }
          - { at: 5, send: { jobs: b } }
        expect:
          late: { subscribe: "---^", marble: "---a-b" }
          afterEnd: { subscribe: "---^", marble: "---|" }
        """),
    Case(
      name: "an AsyncStream keeps what its policy keeps until a consumer iterates",
      body: """
        subjects:
          newest: { stream: { bufferingNewest: 1 } }
          oldest: { stream: { bufferingOldest: 2 } }
          all: { stream: unbounded }
        signals:
          n: { from: newest }
          o: { from: oldest }
          u: { from: all }
        timeline:
          - { at: 1, send: { newest: a, oldest: a, all: a } }
          - { at: 2, send: { newest: b, oldest: b, all: b } }
          - { at: 3, send: { newest: c, oldest: c, all: c } }
        expect:
          n: { subscribe: "----^", marble: "----c" }
          o: { subscribe: "----^", marble: "----(ab)" }
          u: { subscribe: "----^", marble: "----(abc)" }
        """),
    Case(
      name: "a stream's policy is one of the three",
      body: "subjects:\n  s: { stream: { dropping: 1 } }\n",
      error: "'stream' takes a buffering policy"),
  ]

  /// A slow consumer (`consumer: { busy: n }`) and the buffer nearest to it.
  static let consumerPace: [Case] = [
    Case(
      name: "a marble keeps every value until the slow consumer pulls it",
      body: """
        signals:
          out: { hot: "-1-2-3-4-|" }
        expect:
          out: { marble: "-1--2--3--4--|", consumer: { busy: 3 } }
        """),
    Case(
      name: "buffer(policy: .bufferingNewest(1)) drops what a newer value replaces while the consumer is busy",
      body: """
        signals:
          out: [{ hot: "-1-2-3-4-|" }, { buffer: { policy: { bufferingNewest: 1 } } }, { map: '$0 * 10' }]
        expect:
          out: { marble: "-a--b--c--|", values: { a: 10, b: 20, c: 40 }, consumer: { busy: 3 } }
        """),
    Case(
      name: "bufferingOldest(1) keeps the first value that waited",
      body: """
        signals:
          out: [{ hot: "-1-2-3-4-|" }, { buffer: { policy: { bufferingOldest: 1 } } }]
        expect:
          out: { marble: "-1--2--3--|", consumer: { busy: 3 } }
        """),
    Case(
      name: "busy 0 is the consumer that pulls at once",
      body: """
        signals:
          out: { hot: "-1-2|" }
        expect:
          out: { marble: "-1-2|", consumer: { busy: 0 } }
        """),
    Case(
      name: "a consumer says how long it is busy",
      body: "signals:\n  out: { hot: \"-1\" }\nexpect:\n  out: { marble: \"-1\", consumer: {} }\n",
      error: "needs 'busy'"),
  ]

  @Test(arguments: standardLibrary + algorithms + subjects + consumerPace)
  func asyncReadsTheFileInItsOwnWords(_ test: Case) {
    test.check(under: "async")
  }

  /// Every word `flowrun check` names for a default key is not itself redefined by async.
  @Test func asyncWordsNameNoAsyncStep() {
    for (key, _) in StepTable.asyncWords {
      #expect(StepTable.async.operator(named: key)?.library != .async, "\(key)")
      #expect(StepTable.async.source(named: key)?.library != .async, "\(key)")
    }
  }

  /// A consumer's pace outside `library: async` is a load error.
  @Test func aConsumerPaceOutsideAsyncIsALoadError() {
    let text =
      "flowrun: 1\nname: c\nsignals:\n  out: { hot: \"-1\" }\nexpect:\n  out: { marble: \"-1\", consumer: { busy: 2 } }\n"
    let problems = problemsRunning(text)
    #expect(problems?.contains("'consumer' is the pace of an AsyncSequence's consumer") == true, "\(problems ?? "")")
  }

  /// The channel and stream keys belong to `library: async`.
  @Test func aChannelOutsideAsyncIsAnUnknownKey() {
    let problems = problemsRunning("flowrun: 1\nname: c\nsubjects:\n  jobs: { channel: true }\n")
    #expect(problems?.contains("unknown key 'channel'") == true, "\(problems ?? "")")
  }
}
