import Testing

/// The operators of the first version (`map` … `name`) run as scenarios, as the catalogue's do.
struct CoreOperatorTests {
  @Test(arguments: [
    OperatorCase(
      "map transforms each value",
      """
      signals:
        s: [{ hot: "-1-2-3-|" }, { map: '$0 * 2' }]
      expect:
        s: "-2-4-6-|"
      """),
    OperatorCase(
      "map expression error fails and unsubscribes",
      """
      signals:
        src: { hot: "-1-2-3-|" }
        s: [{ from: src }, { map: '$0 == 2 ? throw("boom") : $0' }]
      expect:
        s: { marble: "-1-#", error: boom }
        src.subscriptions: "^--!"
      """),
    OperatorCase(
      "mapTo replaces each value",
      """
      signals:
        s: [{ hot: "-a-b-|" }, { mapTo: x }]
      expect:
        s: "-x-x-|"
      """),
    OperatorCase(
      "filter passes the values that hold",
      """
      signals:
        s: [{ hot: "-1-2-3-4-|" }, { filter: '$0 % 2 == 0' }]
      expect:
        s: "---2---4-|"
      """),
    OperatorCase(
      "scan without a seed emits the first value as it is",
      """
      signals:
        s: [{ hot: "-1-2-3-|" }, { scan: '$0 + $1' }]
      expect:
        s: "-1-3-6-|"
      """),
    OperatorCase(
      "scan with a seed",
      """
      signals:
        s: [{ hot: "-1-2-|" }, { scan: '$0 + $1', seed: 10 }]
      expect:
        s: { marble: "-a-b-|", values: { a: 11, b: 13 } }
      """),
    OperatorCase(
      "distinctUntilChanged drops repeats",
      """
      signals:
        s: [{ hot: "-a-a-b-a-|" }, distinctUntilChanged]
      expect:
        s: "-a---b-a-|"
      """),
    OperatorCase(
      "distinctUntilChanged by a key",
      """
      signals:
        s: [{ hot: "-1-3-2-4-|" }, { distinctUntilChanged: '$0 % 2' }]
      expect:
        s: "-1---2---|"
      """),
    OperatorCase(
      "skip drops the first values",
      """
      signals:
        s: [{ hot: "-a-b-c-|" }, { skip: 1 }]
      expect:
        s: "---b-c-|"
      """),
    OperatorCase(
      "take completes after n values and unsubscribes",
      """
      signals:
        src: { hot: "-a-b-c-|" }
        s: [{ from: src }, { take: 2 }]
      expect:
        s: "-a-(b|)"
        src.subscriptions: "^--!"
      """),
    OperatorCase(
      "take counts a value sent back to its source while one is delivered (RxJS take-spec: reentrant source)",
      """
      subjects:
        source: {}
        out: {}
      signals:
        t: [{ from: source }, { take: 5 }, share]
      effects:
        - { on: t, send: out, onCompleted: { complete: out } }
        - { on: t, send: { source: 1 } }
      timeline:
        - { at: 0, send: { source: 1 } }
      expect:
        out: "(11111|)"
      """),
    OperatorCase(
      "concat tears down a finished input before subscribing the next: a shared source starts over (RxJS share-spec)",
      """
      grammar: rxjs
      signals:
        source: { cold: "-1-2-3-4-|" }
        sharedSource: [{ from: source }, share, { take: 2 }]
        r: { concat: [sharedSource, sharedSource] }
      expect:
        r: "-1-21-(2|)"
        source.subscriptions: ["^--!", "---^--!"]
      """),
    OperatorCase(
      "concatMap tears down a finished inner before subscribing the next",
      """
      grammar: rxjs
      signals:
        source: { cold: "-1-2-3-4-|" }
        sharedSource: [{ from: source }, share, { take: 2 }]
        m: [{ of: [a, b] }, { concatMap: sharedSource }]
      expect:
        m: "-1-21-(2|)"
        source.subscriptions: ["^--!", "---^--!"]
      """),
    OperatorCase(
      "retry tears down the failed attempt before subscribing again (RxJS retry)",
      """
      grammar: rxjs
      signals:
        source: { cold: "-a-b-c-d-|" }
        shared: [{ from: source }, share]
        retried: [{ from: shared }, { map: '$0 == "c" ? throw("bad") : $0' }, { retry: 1 }]
      expect:
        retried: { marble: "-a-b--a-b-#", error: bad }
        source.subscriptions: ["^----!", "-----^----!"]
      """),
    OperatorCase(
      "catch tears down the failed chain before subscribing the fallback (RxJS catchError)",
      """
      grammar: rxjs
      signals:
        source: { cold: "-a-b-c-d-|" }
        shared: [{ from: source }, share]
        caught: [{ from: shared }, { map: '$0 == "c" ? throw("bad") : $0' }, { catch: { from: shared } }]
      expect:
        caught: "-a-b--a-b-c-d-|"
        source.subscriptions: ["^----!", "-----^--------!"]
      """),
    OperatorCase(
      "take 0 completes at once",
      """
      signals:
        s: [{ hot: "-a-|" }, { take: 0 }]
      expect:
        s: "|"
      """),
    OperatorCase(
      "takeWhile completes at the first failing value",
      """
      signals:
        s: [{ hot: "-1-2-3-1-|" }, { takeWhile: '$0 < 3' }]
      expect:
        s: "-1-2-|"
      """),
    OperatorCase(
      "takeWhile inclusive sends the failing value first",
      """
      signals:
        s: [{ hot: "-1-2-3-1-|" }, { takeWhile: '$0 < 3', inclusive: true }]
      expect:
        s: "-1-2-(3|)"
      """),
    OperatorCase(
      "skipWhile passes everything from the first failing value",
      """
      signals:
        s: [{ hot: "-1-2-3-1-|" }, { skipWhile: '$0 < 3' }]
      expect:
        s: "-----3-1-|"
      """),
    OperatorCase(
      "takeUntil completes at the notifier's first value",
      """
      signals:
        stop: { hot: "-----x" }
        s: [{ hot: "-a-b-c-d-|" }, { takeUntil: stop }]
      expect:
        s: "-a-b-|"
      """),
    OperatorCase(
      "takeUntil ignores the notifier's completion",
      """
      signals:
        stop: { hot: "---|" }
        s: [{ hot: "-a-b-c-|" }, { takeUntil: stop }]
      expect:
        s: "-a-b-c-|"
      """),
    OperatorCase(
      "takeUntilRAC completes with the notifier",
      """
      signals:
        stop: { hot: "---|" }
        s: [{ hot: "-a-b-c-|" }, { takeUntilRAC: stop }]
      expect:
        s: "-a-|"
      """),
    OperatorCase(
      "takeUntilRAC ignores the notifier's error (RAC2 subscribes it without an error block)",
      """
      signals:
        stop: { hot: "--#" }
        s: [{ hot: "-a-b-c-|" }, { takeUntilRAC: stop }]
      expect:
        s: "-a-b-c-|"
        stop.subscriptions: "^-!"
      """),
    OperatorCase(
      "startWith sends its values at subscription",
      """
      signals:
        s: [{ hot: "-a-|" }, { startWith: [x, y] }]
      expect:
        s: "(xy)a-|"
      """),
    OperatorCase(
      "combineLatestWith pairs the latest values",
      """
      signals:
        a: { hot: "-1--3-|" }
        b: { hot: "--2-----|" }
        s: [{ from: a }, { combineLatestWith: b }, { map: '$0 * 10 + $1' }]
      expect:
        s: { marble: "--x-y---|", values: { x: 12, y: 32 } }
      """),
    OperatorCase(
      "zipWith pairs values by index",
      """
      signals:
        a: { hot: "-1-2-3-|" }
        b: { hot: "--4-5--|" }
        s: [{ from: a }, { zipWith: b }, { map: '$0 * 10 + $1' }]
      expect:
        s: { marble: "--x-y--|", values: { x: 14, y: 25 } }
      """),
    OperatorCase(
      "mergeWith interleaves",
      """
      signals:
        b: { hot: "--b---d|" }
        s: [{ hot: "-a---c-|" }, { mergeWith: b }]
      expect:
        s: "-ab--cd|"
      """),
    OperatorCase(
      "concatWith subscribes the next signal after completion",
      """
      signals:
        s: [{ cold: "-a|" }, { concatWith: { cold: "-b|" } }]
      expect:
        s: "-a-b|"
      """),
    OperatorCase(
      "tap and doNext change nothing",
      """
      signals:
        s: [{ hot: "-a-b-|" }, tap, doNext]
      expect:
        s: "-a-b-|"
      """),
    OperatorCase(
      "name changes nothing",
      """
      signals:
        s: [{ hot: "-a-#" }, { name: labelled }]
      expect:
        s: "-a-#"
      """),
  ])
  func scenario(_ testCase: OperatorCase) {
    check(testCase)
  }

  @Test(arguments: [
    ("s: [{ hot: '-a|' }, map]", "'map' needs an argument"),
    ("s: [{ hot: '-a|' }, { take: -1 }]", "'take' must be an integer ≥ 0, found -1"),
    ("s: [{ hot: '-a|' }, { takeWhile: '$0', inclusive: 1 }]", "'inclusive' must be true or false, found 1"),
    ("s: [{ hot: '-a|' }, { scan: '$0 + $1', sed: 1 }]", "unknown key 'sed' in step 'scan'; did you mean 'seed'?"),
    ("s: [{ hot: '-a|' }, { takeUntil: nope }]", "unknown signal 'nope'"),
    ("s: [{ hot: '-a|' }, { hot: '-b|' }]", "'hot' is a source; only the first step of a signal may be one"),
    ("s: [{ map: '$0' }]", "'map' is an operator; a signal must start with a source"),
    ("s: [{ hot: '-a|' }, { mapp: '$0' }]", "unknown operator 'mapp'; did you mean 'map'?"),
  ])
  func reportsTheError(_ signal: String, _ message: String) {
    let errors = loadErrors("signals:\n  \(signal)\n")
    #expect(errors.contains { $0.contains(message) }, "got: \(errors)")
  }
}
