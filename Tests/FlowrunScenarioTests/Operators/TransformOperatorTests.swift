import Testing

/// `reduce`, `pairwise`, `materialize`, `dematerialize` run as scenarios.
@Suite struct TransformOperatorTests {
  @Test(arguments: [
    OperatorCase(
      "reduce sums on completion",
      """
      signals:
        s: [{ hot: "-1-2-3-|" }, { reduce: '$0 + $1' }]
      expect:
        s: "-------(6|)"
      """),
    OperatorCase(
      "reduce with a seed",
      """
      signals:
        s: [{ cold: "-1-2-|" }, { reduce: '$0 + $1', seed: 10 }]
      expect:
        s: "-----(d|)"
      values: { d: 13 }
      """),
    OperatorCase(
      "reduce of an empty source without seed only completes",
      """
      signals:
        s: [{ hot: "---|" }, { reduce: '$0 + $1' }]
      expect:
        s: "---|"
      """),
    OperatorCase(
      "reduce of an empty source with a seed sends the seed",
      """
      signals:
        s: [{ hot: "---|" }, { reduce: '$0 + $1', seed: 0 }]
      expect:
        s: "---(0|)"
      """),
    OperatorCase(
      "reduce forwards an error and drops the accumulation",
      """
      signals:
        s: [{ hot: "-1-2-#" }, { reduce: '$0 + $1' }]
      expect:
        s: "-----#"
      """),
    OperatorCase(
      "reduce expression error fails and unsubscribes",
      """
      signals:
        src: { hot: "-1-2-3-|" }
        s: [{ from: src }, { reduce: '$1 == 2 ? throw("boom") : $0 + $1' }]
      expect:
        s: { marble: "---#", error: boom }
        src.subscriptions: "^--!"
      """),
    OperatorCase(
      "reduce of a single value without seed emits it",
      """
      signals:
        s: [{ just: 5 }, { reduce: '$0 + $1' }]
      expect:
        s: "(5|)"
      """),
    OperatorCase(
      "pairwise emits [previous, current]",
      """
      signals:
        s: [{ hot: "-a-b-c-|" }, pairwise]
      expect:
        s: { marble: "---p-q-|", values: { p: [a, b], q: [b, c] } }
      """),
    OperatorCase(
      "pairwise gives $0 and $1 to the next step",
      """
      signals:
        s: [{ hot: "-1-3-6-|" }, pairwise, { map: '$1 - $0' }]
      expect:
        s: "---2-3-|"
      """),
    OperatorCase(
      "pairwise of one value emits nothing",
      """
      signals:
        s: [{ hot: "-a-|" }, pairwise]
      expect:
        s: "---|"
      """),
    OperatorCase(
      "pairwise forwards errors",
      """
      signals:
        s: [{ hot: "-a-b-#" }, pairwise]
      expect:
        s: { marble: "---p-#", values: { p: [a, b] } }
      """),
    OperatorCase(
      "materialize turns events into values",
      """
      signals:
        s: [{ hot: "-a-|" }, materialize]
      expect:
        s:
          marble: "-n-(c|)"
          values: { n: { kind: next, value: a }, c: { kind: completed } }
      """),
    OperatorCase(
      "materialize turns an error into a value and completes",
      """
      signals:
        s: [{ hot: "-a-#", error: oops }, materialize]
      expect:
        s:
          marble: "-n-(e|)"
          values: { n: { kind: next, value: a }, e: { kind: error, error: oops } }
      """),
    OperatorCase(
      "dematerialize reverses materialize",
      """
      signals:
        s: [{ hot: "-a-b-#" }, materialize, dematerialize]
      expect:
        s: "-a-b-#"
      """),
    OperatorCase(
      "dematerialize completes on a completed notification and unsubscribes",
      """
      values:
        n: { kind: next, value: 1 }
        c: { kind: completed }
      signals:
        src: { hot: "-n-c-n-|" }
        s: [{ from: src }, dematerialize]
      expect:
        s: "-1-|"
        src.subscriptions: "^--!"
      """),
    OperatorCase(
      "dematerialize fails on a value that is not a notification",
      """
      signals:
        s: [{ hot: "-x-|" }, dematerialize]
      expect:
        s: { marble: "-#", error: 'dematerialize: not a notification: "x"' }
      """),
  ])
  func scenario(_ testCase: OperatorCase) {
    check(testCase)
  }
}
