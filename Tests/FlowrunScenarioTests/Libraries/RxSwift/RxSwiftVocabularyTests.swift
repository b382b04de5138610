import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// `library: rxswift` in RxSwift's own words: its inner-signal operators (`window`, `buffer`,
/// `groupBy`), `retry(when:)`, its connectable observables, `ifEmpty(switchTo:)` and its
/// sources, each with marbles from RxSwift's own tests (`Tests/RxSwiftTests`, frames counted
/// from 200 there, scaled down here) or its source; what cannot run is a load error.
@Suite struct RxSwiftVocabularyTests {
  typealias Case = LibraryCase

  static let cases: [Case] = [
    Case(
      name:
        "window(timeSpan:count:): a window per count or time span (ObservableWindowTest.testWindowWithTimeOrCount_Basic)",
      body: """
        values: { w: !cold "-a-(b|)", x: !cold "--c-|", y: !cold "--|" }
        signals:
          src: { hot: "^a-b-c---|" }
          out: [{ from: src }, { window: { timeSpan: 4, count: 2 } }, { name: windows }]
        expect:
          out: "w--x---y-|"
        """),
    Case(
      name: "window's inner signals flatten back to the source",
      body: """
        signals:
          src: { hot: "-a-b-c---|" }
          out: [{ from: src }, { window: { timeSpan: 2, count: 5 } }, mergeAll]
        expect:
          out: "-a-b-c---|"
        """),
    Case(
      name:
        "buffer(timeSpan:count:): empty lists at the timer, the buffer at completion (testBufferWithTimeOrCount_Basic)",
      body: """
        values: { p: [1, 2, 3], q: [4], e: [] }
        signals:
          src: { hot: "-12-3---4----|" }
          out: [{ from: src }, { buffer: { timeSpan: 5, count: 3 } }]
        expect:
          out: "----p----q---(e|)"
        """),
    Case(
      name: "buffer: n keeps no RxSwift meaning: the plain form is a load error that shows RxSwift's",
      body: "signals:\n  out: [{ hot: \"-a\" }, { buffer: 2 }]\n",
      error: "RxSwift's buffer is buffer(timeSpan:count:scheduler:); write 'buffer: { timeSpan: d, count: n }'"),
    Case(
      name: "groupBy: a group per key, its error reaches the groups first (ObservableGroupByTest)",
      body: """
        values: { g: !cold "a---c-#", h: !cold "b---#" }
        signals:
          src: { hot: "-a-b-c-#" }
          out: [{ from: src }, { groupBy: { keySelector: '$0 == "b"' } }]
        expect:
          out: "-g-h---#"
        """),
    Case(
      name: "retry(when:): a notifier that fails fails the result (ObservableRetryWhenTest)",
      body: """
        signals:
          src: { cold: "-a#" }
          out: [{ from: src }, { retry: { when: { fail: stop } } }]
        expect:
          out: { marble: "-a#", error: stop }
        """),
    Case(
      name: "retry(when:): a notifier that completes leaves the result silent",
      body: """
        signals:
          src: { cold: "-a#" }
          out: [{ from: src }, { retry: { when: { empty: true } } }]
        expect:
          out: "-a"
        """),
    Case(
      name: "publish + refCount reconnects after the last subscriber left, with the same subject",
      body: """
        signals:
          src: { cold: "-a-b" }
          shared: [{ from: src }, publish, refCount]
          first: { from: shared }
          again: { from: shared }
        expect:
          first: { subscribe: "^--!", marble: "-a" }
          again: { subscribe: "-----^", marble: "------a-b" }
          src.subscriptions: ["^--!", "-----^"]
        """),
    Case(
      name: "multicast(ReplaySubject) connected at setup replays to a late subscriber",
      body: """
        signals:
          src: { cold: "-a-b|" }
          shared: [{ from: src }, { multicast: { subject: { replay: 1 } } }, connect]
          late: { from: shared }
        expect:
          late: { subscribe: "------^", marble: "------(b|)" }
        """),
    Case(
      name: "refCount follows a connectable",
      body: "signals:\n  out: [{ hot: \"-a\" }, refCount]\n",
      error: "'refCount' follows a RxSwift connectable"),
    Case(
      name: "bare replay is a load error that shows replay(n)",
      body: "signals:\n  out: [{ hot: \"-a\" }, replay]\n",
      error: "RxSwift's replay needs the buffer size (replay(_:)); write 'replay: n' (or 'replayAll')"),
    Case(
      name: "ifEmpty(switchTo:) subscribes the other only when the source is empty (ObservableSwitchIfEmptyTest)",
      body: """
        signals:
          other: { cold: "-x|" }
          empty: [{ cold: "--|" }, { ifEmpty: { switchTo: other } }]
          full: [{ cold: "-a|" }, { ifEmpty: { switchTo: other } }]
        expect:
          empty: "---x|"
          full: "-a|"
          other.subscriptions: "--^-!"
        """),
    Case(
      name:
        "sources: from([…]), range, generate, repeatElement, deferred (ObservableRangeTest, ObservableGenerateTest)",
      body: """
        signals:
          list: { from: [1, 2] }
          named: { from: list }
          numbers: { range: { start: 5, count: 3 } }
          powers: { generate: { initialState: 1, condition: '$0 < 10', iterate: '$0 * 2' } }
          again: [{ repeatElement: 7 }, { take: 2 }]
          perSubscriber: { deferred: { cold: "-q|" } }
        expect:
          list: "(12|)"
          named: "(12|)"
          numbers: "(567|)"
          powers: "(1248|)"
          again: "(77|)"
          perSubscriber: "-q|"
        """),
    Case(
      name: "bind(to:) a subject bound by subscribeTo is a load error",
      body: """
        subjects:
          status: { subscribeTo: { hot: "-a" } }
        signals:
          src: { hot: "-b" }
          bound: [{ from: src }, { bind: { to: status } }]
        """,
      error: "subject 'status' is bound twice"),
    Case(
      name: "create cannot run in a scenario",
      body: "signals:\n  out: { create: { } }\n",
      error: "'create' cannot run in a scenario: its closure is Swift code"),
  ]

  @Test(arguments: cases)
  func rxSwiftReadsTheFileInItsOwnWords(_ test: Case) {
    test.check(under: "rxswift")
  }
}
