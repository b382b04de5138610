import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// `library: async` in swift-async-algorithms 1.1.4's public spellings, to the letter
/// (docs/libraries.md "async"): `AsyncBufferSequencePolicy.bufferingLatest(_:)`, `_throttle`,
/// `tolerance:` (which virtual time ignores), `share(bufferingPolicy:)`, `reductions(into:_:)` and
/// `AsyncChannel.finish()`. Each case writes the package's word and, where flowrun had another
/// word before, the same marbles with the old one, which keeps working.
@Suite struct AsyncPackageWordsTests {
  typealias Case = LibraryCase

  static let cases: [Case] = [
    Case(
      name: "buffer(policy: .bufferingLatest(1)) keeps the newest value for a slow consumer, as bufferingNewest",
      body: """
        signals:
          latest: [{ hot: "-1-2-3-4-|" }, { buffer: { policy: { bufferingLatest: 1 } } }, { map: '$0 * 10' }]
          newest: [{ hot: "-1-2-3-4-|" }, { buffer: { policy: { bufferingNewest: 1 } } }, { map: '$0 * 10' }]
          atOnce: [{ hot: "-1-2|" }, { buffer: { policy: { bufferingLatest: 1 } } }]
        values: { a: 10, b: 20, c: 40 }
        expect:
          latest: { marble: "-a--b--c--|", consumer: { busy: 3 } }
          newest: { marble: "-a--b--c--|", consumer: { busy: 3 } }
          atOnce: "-1-2|"
        """),
    Case(
      name: "a buffer policy the package does not have names the package's four",
      body: "signals:\n  out: [{ hot: \"-1\" }, { buffer: { policy: { dropping: 1 } } }]\n",
      error: "a buffer policy is 'unbounded', { bounded: n }, { bufferingLatest: n } or { bufferingOldest: n }"),
    Case(
      name: "_throttle is the package's word for throttle",
      body: """
        signals:
          taps: { hot: "abc----d--|" }
          out: [{ from: taps }, { _throttle: 3 }]
          first: [{ from: taps }, { _throttle: { for: 3, latest: false } }]
          same: [{ from: taps }, { throttle: 3 }]
        expect:
          out: "a------d--|"
          first: "a------b--|"
          same: "a------d--|"
        """),
    Case(
      name: "debounce(for:tolerance:): virtual time ignores the tolerance",
      body: """
        signals:
          taps: { hot: "-a-b----c|" }
          tolerant: [{ from: taps }, { debounce: { for: 3, tolerance: 1 } }]
          exact: [{ from: taps }, { debounce: { for: 3 } }]
        expect:
          tolerant: "------b--(c|)"
          exact: "------b--(c|)"
        """),
    Case(
      name: "a tolerance is a duration",
      body: "signals:\n  out: [{ hot: \"-1\" }, { debounce: { for: 3, tolerance: soon } }]\n",
      error: "invalid duration 'soon'"),
    Case(
      name: ".repeating(every:tolerance:): a chunk's timer ticks at its frames whatever the tolerance",
      body: """
        signals:
          byTime: [{ hot: "ab---c-----|" }, { chunked: { by: { every: 4, tolerance: 2 } } }]
          either: [{ hot: "abc------d|" }, { chunks: { ofCount: 2, or: { every: 4, tolerance: 1 } } }]
        values: { p: [a, b], s: [c], t: [d] }
        expect:
          byTime: "----p---s--|"
          either: "-p--s-----(t|)"
        """),
    Case(
      name: "share(bufferingPolicy:) keeps by its policy what a slow consumer has not pulled",
      body: """
        signals:
          latest: [{ hot: "-1-2-3-4-|" }, { share: { bufferingPolicy: { bufferingLatest: 1 } } }]
          bounded: [{ hot: "-1-2-3-4-|" }, { share: { bufferingPolicy: { bounded: 1 } } }]
          plain: [{ hot: "-1-2|" }, share]
        expect:
          latest: { marble: "-1--2--4--|", consumer: { busy: 3 } }
          bounded: { marble: "-1--2--3--4--|", consumer: { busy: 3 } }
          plain: "-1-2|"
        """),
    Case(
      name: "share takes only a buffering policy",
      body: "signals:\n  out: [{ hot: \"-1\" }, { share: 3 }]\n",
      error: "'share' takes no argument or { bufferingPolicy: policy }"),
    Case(
      name: "reductions(into:_:) is reductions(_:_:): the initial value is not sent",
      body: """
        signals:
          into: [{ hot: "-1-2|" }, { reductions: '$0 + $1', into: 10 }]
          seeded: [{ hot: "-1-2|" }, { reductions: '$0 + $1', seed: 10 }]
        values: { a: 11, b: 13 }
        expect:
          into: "-a-b|"
          seeded: "-a-b|"
        """),
    Case(
      name: "reduce(into:_:) is reduce(_:_:): the result at the end",
      body: """
        signals:
          into: [{ hot: "-1-2|" }, { reduce: '$0 + $1', into: 10 }]
          seeded: [{ hot: "-1-2|" }, { reduce: '$0 + $1', seed: 10 }]
        expect:
          into: "----(x|)"
          seeded: "----(x|)"
        values: { x: 13 }
        """),
    Case(
      name: "mapError (AsyncMapErrorSequence) maps the failure",
      body: """
        signals:
          src: { hot: "-1#", error: e }
          mapped: [{ from: src }, { mapError: '"wrapped " + $0' }]
        expect:
          mapped: { marble: "-1#", error: "wrapped e" }
        """),
    Case(
      name: "reductions takes seed or into, not both",
      body: "signals:\n  out: [{ hot: \"-1\" }, { reductions: '$0 + $1', seed: 1, into: 1 }]\n",
      error: "takes 'seed' or 'into'"),
    Case(
      name: "AsyncChannel.finish(): the timeline's finish is complete",
      body: """
        subjects:
          jobs: { channel: true }
          stream: { stream: unbounded }
        signals:
          first: { from: jobs }
          second: { from: jobs }
          each: { from: stream }
        timeline:
          - { at: 1, send: { jobs: a, stream: a } }
          - { at: 2, send: { jobs: b } }
          - { at: 3, send: { jobs: c } }
          - { at: 4, finish: jobs }
          - { at: 5, finish: stream }
        expect:
          first: "-a-c|"
          second: "--b-|"
          each: "-a---|"
        """),
    Case(
      name: "an effect may finish a channel too",
      body: """
        subjects:
          jobs: { channel: true }
        signals:
          stop: { hot: "--x" }
          out: { from: jobs }
        effects:
          - { on: stop, finish: jobs }
        timeline:
          - { at: 1, send: { jobs: a } }
        expect:
          out: "-a|"
        """),
  ]

  @Test(arguments: cases)
  func asyncTakesThePackagesWords(_ test: Case) {
    test.check(under: "async")
  }

  /// `finish:` is async's word: under another library it is an unknown key.
  @Test func finishOutsideAsyncIsAnUnknownKey() {
    let text = """
      flowrun: 1
      name: c
      subjects:
        jobs: {}
      timeline:
        - { at: 1, finish: jobs }

      """
    let problems = problemsRunning(text)
    #expect(problems?.contains("unknown key 'finish'") == true, "\(problems ?? "")")
  }

  /// The package's words are in async's table, where the loader, the schema and the language
  /// server read them.
  @Test func thePackagesWordsAreInTheTable() {
    let throttle = StepTable.async.operator(named: "_throttle")
    #expect(throttle?.library == .async)
    #expect(throttle?.name == "throttle")
    for name in ["reductions", "reduce"] {
      #expect(StepTable.async.operator(named: name)?.extras.map(\.name).contains("into") == true, "\(name)")
    }
    #expect(StepTable.async.operator(named: "mapError")?.library == .async)
  }
}
