import Testing

/// `takeLast`, `skipUntil`, `first`, `last`, `elementAt`, `ignoreElements`, `ignore` run as
/// scenarios; several cases are ported from RxJS 7's marble specs.
@Suite struct FilterOperatorTests {
  @Test(arguments: [
    OperatorCase(
      "takeLast emits the last n at completion (RxJS)",
      """
      signals:
        e1: { hot: "--a-----b----c---d--|" }
        s: [{ from: e1 }, { takeLast: 2 }]
      expect:
        s: "--------------------(cd|)"
        e1.subscriptions: "^-------------------!"
      """),
    OperatorCase(
      "takeLast with fewer values emits them all",
      """
      signals:
        s: [{ hot: "-a-b-|" }, { takeLast: 5 }]
      expect:
        s: "-----(ab|)"
      """),
    OperatorCase(
      "takeLast forwards an error and drops the buffer (RxJS)",
      """
      signals:
        s: [{ hot: "--a-----b----c---d--#" }, { takeLast: 2 }]
      expect:
        s: "--------------------#"
      """),
    OperatorCase(
      "takeLast 0 completes at once without subscribing (RxJS)",
      """
      signals:
        e1: { cold: "--a-----b----c---d--|" }
        s: [{ from: e1 }, { takeLast: 0 }]
      expect:
        s: "|"
        e1.subscriptions: []
      """),
    OperatorCase(
      "takeLast of an empty source completes",
      """
      signals:
        s: [{ hot: "-----|" }, { takeLast: 3 }]
      expect:
        s: "-----|"
      """),
    OperatorCase(
      "takeLast disposed before completion emits nothing",
      """
      signals:
        e1: { hot: "-a-b-c-|" }
        s: [{ from: e1 }, { takeLast: 1 }]
      expect:
        s: { subscribe: "^---!", marble: "----" }
        e1.subscriptions: "^---!"
      """),
    OperatorCase(
      "skipUntil passes values after the notifier's first value (RxJS)",
      """
      signals:
        e1: { hot: "--a--b--c--d--e----|" }
        skip: { hot: "---------x------|" }
        s: [{ from: e1 }, { skipUntil: skip }]
      expect:
        s: "-----------d--e----|"
        e1.subscriptions: "^------------------!"
        skip.subscriptions: "^--------!"
      """),
    OperatorCase(
      "skipUntil with a notifier that completes silently passes nothing (RxJS)",
      """
      signals:
        e1: { hot: "--a--b--c--d--e----|" }
        skip: { hot: "-------------|" }
        s: [{ from: e1 }, { skipUntil: skip }]
      expect:
        s: "-------------------|"
        skip.subscriptions: "^------------!"
      """),
    OperatorCase(
      "skipUntil fails with the notifier's error (RxJS)",
      """
      signals:
        e1: { hot: "--a--b--c--d--e--|" }
        skip: { hot: "-------------#" }
        s: [{ from: e1 }, { skipUntil: skip }]
      expect:
        s: "-------------#"
        e1.subscriptions: "^------------!"
      """),
    OperatorCase(
      "skipUntil subscribes the notifier before the source",
      """
      signals:
        s: [{ of: [1, 2] }, { skipUntil: { just: x } }]
      expect:
        s: "(12|)"
      """),
    OperatorCase(
      "skipUntil: notifier in the same frame as a value, scheduled earlier, opens first",
      """
      signals:
        skip: { hot: "--x" }
        e1: { hot: "--a-b-|" }
        s: [{ from: e1 }, { skipUntil: skip }]
      expect:
        s: "--a-b-|"
      """),
    OperatorCase(
      "first takes the first value and unsubscribes (RxJS)",
      """
      signals:
        e1: { hot: "--a--^--b--c--|" }
        s: [{ from: e1 }, first]
      expect:
        s: "---(b|)"
        e1.subscriptions: "^--!"
      """),
    OperatorCase(
      "first of an empty source fails (RxJS)",
      """
      signals:
        s: [{ hot: "-----|" }, first]
      expect:
        s: { marble: "-----#", error: no elements in sequence }
      """),
    OperatorCase(
      "first with a predicate",
      """
      signals:
        s: [{ hot: "-1-2-3-|" }, { first: '$0 > 1' }]
      expect:
        s: "---(2|)"
      """),
    OperatorCase(
      "first with a predicate no value passes and a default",
      """
      signals:
        s:
          - hot: "-1-2-3-|"
          - first: '$0 > 5'
            default: 0
      expect:
        s: "-------(0|)"
      """),
    OperatorCase(
      "first with only a default",
      """
      signals:
        s:
          - hot: "---|"
          - first:
            default: d
      expect:
        s: "---(d|)"
      """),
    OperatorCase(
      "first forwards an error",
      """
      signals:
        s: [{ hot: "--#" }, first]
      expect:
        s: "--#"
      """),
    OperatorCase(
      "first: the predicate's error fails the result",
      """
      signals:
        e1: { hot: "-1-2-3-|" }
        s: [{ from: e1 }, { first: '$0 == 2 ? throw("bad") : false' }]
      expect:
        s: { marble: "---#", error: bad }
        e1.subscriptions: "^--!"
      """),
    OperatorCase(
      "first: the predicate sees the index",
      """
      signals:
        s: [{ hot: "-a-b-c-|" }, { first: 'index == 2' }]
      expect:
        s: "-----(c|)"
      """),
    OperatorCase(
      "last emits the last value at completion (RxJS)",
      """
      signals:
        e1: { hot: "--a----b--c--|" }
        s: [{ from: e1 }, last]
      expect:
        s: "-------------(c|)"
        e1.subscriptions: "^------------!"
      """),
    OperatorCase(
      "last of an empty source fails",
      """
      signals:
        s: [{ hot: "--|" }, last]
      expect:
        s: { marble: "--#", error: no elements in sequence }
      """),
    OperatorCase(
      "last with a predicate",
      """
      signals:
        s: [{ hot: "-1-2-3-|" }, { last: '$0 < 3' }]
      expect:
        s: "-------(2|)"
      """),
    OperatorCase(
      "last with a default on an empty source",
      """
      signals:
        s:
          - hot: "--|"
          - last: '$0 > 0'
            default: 9
      expect:
        s: "--(9|)"
      """),
    OperatorCase(
      "last forwards an error, dropping the value",
      """
      signals:
        s: [{ hot: "-a-#" }, last]
      expect:
        s: "---#"
      """),
    OperatorCase(
      "elementAt takes the value at the index (RxJS)",
      """
      signals:
        e1: { hot: "--a--b--c--|" }
        s: [{ from: e1 }, { elementAt: 1 }]
      expect:
        s: "-----(b|)"
        e1.subscriptions: "^----!"
      """),
    OperatorCase(
      "elementAt 0",
      """
      signals:
        s: [{ hot: "--a--b--|" }, { elementAt: 0 }]
      expect:
        s: "--(a|)"
      """),
    OperatorCase(
      "elementAt past the end fails (RxJS)",
      """
      signals:
        s: [{ hot: "--a--b--|" }, { elementAt: 3 }]
      expect:
        s: { marble: "--------#", error: argument out of range }
      """),
    OperatorCase(
      "elementAt past the end with a default",
      """
      signals:
        s:
          - hot: "--a--b--|"
          - elementAt: 3
            default: x
      expect:
        s: "--------(x|)"
      """),
    OperatorCase(
      "elementAt forwards an error",
      """
      signals:
        s: [{ hot: "--a--#" }, { elementAt: 3 }]
      expect:
        s: "-----#"
      """),
    OperatorCase(
      "ignoreElements keeps only completion (RxJS)",
      """
      signals:
        e1: { hot: "--a--b--c--|" }
        s: [{ from: e1 }, ignoreElements]
      expect:
        s: "-----------|"
        e1.subscriptions: "^----------!"
      """),
    OperatorCase(
      "ignoreValues keeps only the error",
      """
      signals:
        s: [{ hot: "--a--#" }, ignoreValues]
      expect:
        s: "-----#"
      """),
    OperatorCase(
      "ignore drops values equal to its argument (RAC2)",
      """
      signals:
        s: [{ hot: "-a-b-a-|" }, { ignore: a }]
      expect:
        s: "---b---|"
      """),
    OperatorCase(
      "ignore compares deeply",
      """
      values: { x: [1, 2], y: [1, 3] }
      signals:
        s: [{ hot: "-x-y-|" }, { ignore: [1.0, 2] }]
      expect:
        s: "---y-|"
      """),
  ])
  func scenario(_ testCase: OperatorCase) {
    check(testCase)
  }
}
