import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// `library: rac2` in ReactiveObjC's own words: its class methods that start a signal, its
/// multicast connections and the operators that split or flatten signals, with the behaviours
/// ReactiveObjC's specs (`RACSignalSpec.m`) and source (`RACSignal+Operations.m`) fix.
@Suite struct Rac2VocabularyTests {
  typealias Case = LibraryCase

  static let cases: [Case] = [
    // -deliverOnMainThread delivers at once on the main thread (-deliverOn: is a new action).
    Case(
      name: "-deliverOnMainThread passes events on in their own delivery",
      body: """
        signals:
          taps: { hot: "-a-b|" }
          main: [{ from: taps }, deliverOnMainThread]
          both: { merge: [main, { hot: "-x" }] }
          hopped: [{ from: taps }, { deliverOn: main }]
          late: { merge: [hopped, { hot: "-x" }] }
        expect:
          main: "-a-b|"
          both: "-(ax)-b"
          late: "-(xa)-b"
        """),
    Case(
      name: "+return:, +error:, +defer:",
      body: """
        signals:
          one: { return: 1 }
          failed: { error: oops }
          deferred: { defer: { cold: "-z|" } }
        expect:
          one: "(1|)"
          failed: { marble: "#", error: oops }
          deferred: "-z|"
        """),
    Case(
      name: "+if:then:else: switches at each Bool (RACSignalSpec '+if:then:else')",
      body: """
        values: { t: true, f: false }
        signals:
          flag: { hot: "-t--f--t|" }
          out: { if: { signal: flag, then: { cold: "x-x-x-x" }, else: { cold: "y|" } } }
        expect:
          out: "-x-xy--x-x-x-x"
        """),
    Case(
      name: "+switch:cases:default: fails on a key without a case and no default (RACSignalErrorNoMatchingCase)",
      body: """
        signals:
          keys: { hot: "-a--b--c|" }
          out: { switch: { signal: keys, cases: { a: { return: 1 }, b: { return: 2 } } } }
          fallback: { switch: { signal: keys, cases: { a: { return: 1 } }, default: { return: 0 } } }
        expect:
          out: { marble: "-1--2--#", error: "no matching case for \\"c\\"" }
          fallback: "-1--0--0|"
        """),
    Case(
      name: "-flatten: 1 runs the inner signals one after another; -flatten the same as mergeAll",
      body: """
        values: { x: !cold "--1|", y: !cold "-2--|" }
        signals:
          src: { hot: "-x-y-|" }
          one: [{ from: src }, { flatten: 1 }]
          all: [{ from: src }, flatten]
        expect:
          one: "---1-2--|"
          all: "---12--|"
        """),
    Case(
      name: "-takeUntilReplacement: the replacement's completion ends it; the source's does not",
      body: """
        signals:
          src: { hot: "-a|" }
          out: [{ from: src }, { takeUntilReplacement: { hot: "----x|" } }]
        expect:
          out: "-a--x|"
        """),
    Case(
      name: "-repeat: an error ends it",
      body: """
        signals:
          attempts: { cold: "-a|" }
          failing: { cold: "-#" }
          out: [{ from: attempts }, repeat, { take: 2 }]
          failed: [{ from: failing }, repeat]
        expect:
          out: "-a-(a|)"
          failed: "-#"
        """),
    Case(
      name: "-throttle:valuesPassingTest: holds only the values that pass",
      body: """
        values: { a: 1, b: 2, c: 3 }
        signals:
          src: { hot: "-a-c-----b|" }
          out: [{ from: src }, { throttle: 2, valuesPassingTest: '$0 % 2 == 1' }]
        expect:
          out: "-----c---b|"
        """),
    Case(
      name: "-groupBy: the groups complete after the outer signal",
      body: """
        values: { g: !cold "a---a-|", h: !cold "b---|" }
        signals:
          src: { hot: "-a-b-a-|" }
          out: [{ from: src }, { groupBy: '$0' }]
        expect:
          out: "-g-h---|"
        """),
    Case(
      name: "-multicast: with a RACReplaySubject, connected at setup, replays to a late subscriber",
      body: """
        signals:
          src: { cold: "-a-b|" }
          shared: [{ from: src }, { multicast: { subject: { replay: 1 } } }]
          late: { from: shared }
        expect:
          late: { subscribe: "------^", marble: "------(b|)" }
          src.subscriptions: "^---!"
        """),
    Case(
      name: "autoconnect follows publish or multicast",
      body: "signals:\n  out: [{ hot: \"-a\" }, autoconnect]\n",
      error: "'autoconnect' follows a RACMulticastConnection"),
  ]

  @Test(arguments: cases)
  func rac2ReadsTheFileInItsOwnWords(_ test: Case) {
    test.check(under: "rac2")
  }
}
