/// The cases of `CombineVocabularyTests` that OpenCombine fixed: its source and its own tests,
/// and the differential run against it.
extension CombineVocabularyTests {
  /// Meanings OpenCombine's source and its own tests fix, each different before.
  static let fromTheSource: [Case] = [
    Case(
      name:
        "prefix(untilOutputFrom:) does not cancel its notifier when it fires (PrefixUntilOutput.terminationReceive)",
      body: """
        signals:
          values: { hot: "-a-b-c-d-|" }
          trigger: { cold: "---x---|" }
          out: [{ from: values }, { prefix: { untilOutputFrom: trigger } }]
        expect:
          out: "-a-(b|)"
          trigger.subscriptions: "^------!"
        """),
    Case(
      name: "flatMap does not cancel its upstream when an inner fails (FlatMap.receiveInner(completion:))",
      body: """
        signals:
          outer: { cold: "-a----b-|" }
          out: [{ from: outer }, { flatMap: [{ cold: "-#" }] }]
        expect:
          out: "--#"
          outer.subscriptions: "^-------!"
        """),
    Case(
      name:
        "prepend then prefix: 1 never subscribes the source (Concatenate subscribes its suffix after the prefix finished)",
      body: """
        signals:
          src: { cold: "---1|" }
          out: [{ from: src }, { prepend: [5, 4] }, { prefix: 1 }]
        expect:
          out: "(5|)"
          src.subscriptions: ""
        """),
    Case(
      name: "prepend before flatMap(maxPublishers: 1) subscribes the source after its last value was requested",
      body: """
        signals:
          src: { cold: "---1|" }
          out:
            - { from: src }
            - { prepend: [5, 4] }
            - { flatMap: { maxPublishers: 1, signal: [{ cold: "-v|" }, { map: outer }] } }
        expect:
          out: "-5-4--1|"
          src.subscriptions: "--^---!"
        """),
  ]

  /// Found by the OpenCombine differential (with subscription logs).
  static let fromTheDifferential: [Case] = [
    Case(
      name: "a merge whose first input ended the downstream while subscribing subscribes no further input",
      body: """
        signals:
          later: { cold: "-1|" }
          out: [{ merge: [{ just: 0 }, { from: later }] }, first]
        expect:
          out: "(0|)"
          later.subscriptions: ""
        """),
    Case(
      name: "a prepend whose value ended the merge's downstream does not subscribe its source",
      body: """
        signals:
          later: { cold: "-1|" }
          out: [{ merge: [{ Empty: { completeImmediately: false } }, [{ from: later }, { prepend: 5 }]] }, first]
        expect:
          out: "(5|)"
          later.subscriptions: ""
        """),
    Case(
      name:
        "drop(untilOutputFrom:) leaves its notifier running when the source ends (DropUntilOutput.receive(completion:))",
      body: """
        signals:
          gate: { cold: "----x|" }
          out: [{ hot: "-1|" }, { drop: { untilOutputFrom: gate } }]
        expect:
          out: "--|"
          gate.subscriptions: "^----!"
        """),
    Case(
      name: "a prefix(while:) that ended during a prepend's values leaves the source unsubscribed (seed 9.427)",
      body: """
        signals:
          src: { cold: "7--01|" }
          out: [{ from: src }, { prepend: [7, 7, 4] }, { prefix: { while: "$0 < 6" } }]
        expect:
          out: "|"
          src.subscriptions: ""
        """),
    Case(
      name: "a merge before prefix(while:) that ended on its first input subscribes no further input (seed 8.476)",
      body: """
        signals:
          later: { cold: "-7--|" }
          out: [{ merge: [{ Just: 7 }, { from: later }] }, { prefix: { while: "$0 < 6" } }]
        expect:
          out: "|"
          later.subscriptions: ""
        """),
    Case(
      name: "mapError and output(at:) pass the downstream's end to a prepend (seeds 8.501, 11.331)",
      body: """
        signals:
          src: { cold: "-8---8" }
          out:
            - { from: src }
            - { prepend: [3, 0] }
            - { output: { at: 0 } }
            - { mapError: '"m" + $0' }
            - { replaceError: 2 }
        expect:
          out: "(3|)"
          src.subscriptions: ""
        """),
    Case(
      name: "a retry passes the downstream's end to the merge it resubscribes (seed 6.127)",
      body: """
        subjects:
          current: { behavior: 7 }
        signals:
          later: { cold: "--65" }
          out: [{ merge: [{ from: current }, { from: later }] }, { retry: 1 }, { allSatisfy: "$0 < 6" }]
        values: { f: false }
        expect:
          out: "(f|)"
          later.subscriptions: ""
        """),
    Case(
      name: "a flatMap above one whose inner failed goes on subscribing its inners (seed 12.38)",
      body: """
        subjects:
          taps: {}
        signals:
          each: { cold: "0" }
          failing: { cold: "--3#" }
          out: [{ from: taps }, { flatMap: { from: each } }, { flatMap: { from: failing } }]
        timeline:
          - { at: 1, send: { taps: 1 } }
          - { at: 6, send: { taps: 2 } }
        expect:
          out: "---3#"
          each.subscriptions: ["-^", "------^"]
          failing.subscriptions: "-^--!"
        """),
    Case(
      name: "a Record's failure waits for its values to be requested by flatMap(maxPublishers:) (seed 10.378)",
      body: """
        signals:
          inner: { cold: "" }
          out:
            - { Record: { output: [2, 7, 2], completion: { failure: r } } }
            - { flatMap: { maxPublishers: 1, signal: { from: inner } } }
        expect:
          out: ""
          inner.subscriptions: "^"
        """),
    Case(
      name: "a Record's failure follows the last value a flatMap(maxPublishers:) requested",
      body: """
        signals:
          out:
            - { Record: { output: [1, 2], completion: { failure: r } } }
            - { flatMap: { maxPublishers: 1, signal: [{ cold: "-x|" }, { map: "outer" }] } }
        values: { a: 1, b: 2 }
        expect:
          out: { marble: "-a#", error: r }
        """),
    Case(
      name: "a prepend before a flatMap(maxPublishers:) whose inner failed sends no more and subscribes nothing",
      body: """
        signals:
          src: { cold: "-5|" }
          out: [{ from: src }, { prepend: [1, 2] }, { flatMap: { maxPublishers: 1, signal: { Fail: x } } }]
        expect:
          out: { marble: "#", error: x }
          src.subscriptions: ""
        """),
    Case(
      name: "subscribe(on:) cancelled before its action ran still subscribes the source, and cancels it (seed 6.119)",
      body: """
        signals:
          src: { cold: "5-(19)" }
          stop: { hot: "3" }
          out: [{ from: src }, { subscribe: { on: scheduler } }, { prefix: { untilOutputFrom: stop } }]
        expect:
          out: "|"
          src.subscriptions: "(^!)"
        """),
    Case(
      name: "a connected makeConnectable keeps the current value for its first subscriber (seed 1.249)",
      body: """
        subjects:
          s: { behavior: 8 }
        signals:
          out: [{ from: s }, { replaceError: 0 }, makeConnectable]
        expect:
          out: "8"
        """),
    Case(
      name: "a connected makeConnectable keeps its connection when its subscriber leaves (seed 8.274)",
      body: """
        signals:
          src: { cold: "-a-b-c" }
          out: [{ from: src }, makeConnectable, { prefix: 1 }]
        expect:
          out: "-a-|"
          src.subscriptions: "^"
        """),
    Case(
      name: "a connected multicast keeps what a Sequence sent at connect() for its first subscriber",
      body: """
        signals:
          out: [{ publisher: [1, 2] }, multicast]
        expect:
          out: "(12|)"
        """),
  ]
}
