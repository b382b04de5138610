import Testing

/// `withLatestFrom`, `sample`, `sampleRAC`, `then` run as scenarios.
@Suite struct CombineOperatorTests {
  @Test(arguments: [
    OperatorCase(
      "withLatestFrom pairs each value with the other's latest (RxJS)",
      """
      signals:
        e1: { hot: "-a--b-----c-d-e-|" }
        e2: { hot: "--1--2-3-4---|" }
        s: [{ from: e1 }, { withLatestFrom: e2 }]
      expect:
        s:
          marble: "----B-----C-D-E-|"
          values: { B: [b, 1], C: [c, 4], D: [d, 4], E: [e, 4] }
        e1.subscriptions: "^---------------!"
        e2.subscriptions: "^------------!"
      """),
    OperatorCase(
      "withLatestFrom several others (RxJS)",
      """
      signals:
        e1: { hot: "-a--b-----c-d-e-|" }
        e2: { hot: "--e--f-g-h------|" }
        e3: { hot: "--i--j-k-l------|" }
        s: [{ from: e1 }, { withLatestFrom: [e2, e3] }]
      expect:
        s:
          marble: "----x-----y-z-w-|"
          values: { x: [b, e, i], y: [c, h, l], z: [d, h, l], w: [e, h, l] }
      """),
    OperatorCase(
      "withLatestFrom gives $0, $1 to the next step",
      """
      signals:
        s: [{ hot: "---1--2-|" }, { withLatestFrom: { hot: "-5------" } }, { map: '$0 + $1' }]
      expect:
        s: "---6--7-|"
      """),
    OperatorCase(
      "withLatestFrom fails with the other's error and unsubscribes the source",
      """
      signals:
        e1: { hot: "-a--b--c-|" }
        e2: { hot: "--1--#" }
        s: [{ from: e1 }, { withLatestFrom: e2 }]
      expect:
        s: { marble: "----x#", values: { x: [b, 1] } }
        e1.subscriptions: "^----!"
      """),
    OperatorCase(
      "withLatestFrom completes with the source and unsubscribes the other",
      """
      signals:
        e1: { hot: "-a--|" }
        e2: { hot: "--1------" }
        s: [{ from: e1 }, { withLatestFrom: e2 }]
      expect:
        s: "----|"
        e2.subscriptions: "^---!"
      """),
    OperatorCase(
      "withLatestFrom subscribes the other before the source",
      """
      signals:
        s: [{ of: [1, 2] }, { withLatestFrom: { just: x } }]
      expect:
        s: { marble: "(pq|)", values: { p: [1, x], q: [2, x] } }
      """),
    OperatorCase(
      "withLatestFrom: an other that never sends drops every value",
      """
      signals:
        s: [{ hot: "-a-b-|" }, { withLatestFrom: { never: true } }]
      expect:
        s: "-----|"
      """),
    OperatorCase(
      "sample emits the latest value once per new value",
      """
      signals:
        e1: { hot: "-a-b-----c--|" }
        e2: { hot: "----x-x-x-x---" }
        s: [{ from: e1 }, { sample: e2 }]
      expect:
        s: "----b-----c-|"
        e2.subscriptions: "^-----------!"
      """),
    OperatorCase(
      "sampleRAC re-emits the latest value at every sample",
      """
      signals:
        e1: { hot: "-a-b-----c--|" }
        e2: { hot: "----x-x-x-x---" }
        s: [{ from: e1 }, { sampleRAC: e2 }]
      expect:
        s: "----b-b-b-c-|"
      """),
    OperatorCase(
      "sample ignores the sampler completing (RxJS 7)",
      """
      signals:
        s: [{ hot: "-a---b---|" }, { sample: { hot: "--x-|" } }]
      expect:
        s: "--a------|"
      """),
    OperatorCase(
      "sampleRAC completes when the sampler completes (RAC2)",
      """
      signals:
        e1: { hot: "-a---b---|" }
        s: [{ from: e1 }, { sampleRAC: { hot: "--x-|" } }]
      expect:
        s: "--a-|"
        e1.subscriptions: "^---!"
      """),
    OperatorCase(
      "sample fails with the sampler's error",
      """
      signals:
        s: [{ hot: "-a---b---|" }, { sample: { hot: "--x-#" } }]
      expect:
        s: "--a-#"
      """),
    OperatorCase(
      "sample subscribes the source first",
      """
      signals:
        s: [{ cold: "-a-|" }, { sample: { just: x } }]
        r: [{ cold: "-a-|" }, { sampleRAC: { just: x } }]
      expect:
        s: "---|"
        r: "|"
      """),
    OperatorCase(
      "sample: a sample in the same frame as a value, scheduled later, sees it",
      """
      signals:
        e1: { hot: "-a-b-|" }
        e2: { hot: "---x--" }
        s: [{ from: e1 }, { sample: e2 }]
      expect:
        s: "---b-|"
      """),
    OperatorCase(
      "then ignores the values and continues with the signal (RAC2)",
      """
      signals:
        nxt: { cold: "-x-|" }
        s: [{ hot: "-a-b-|" }, { then: nxt }]
      expect:
        s: "------x-|"
        nxt.subscriptions: "-----^--!"
      """),
    OperatorCase(
      "then forwards an error without subscribing the signal",
      """
      signals:
        nxt: { cold: "-x-|" }
        s: [{ hot: "-a-#" }, { then: nxt }]
      expect:
        s: "---#"
        nxt.subscriptions: []
      """),
  ])
  func scenario(_ testCase: OperatorCase) {
    check(testCase)
  }
}
