import Testing

/// `debounce`, `throttle`, `delay`, `delaySubscription`, `timeout`, `timeoutRAC`, `bufferTime`
/// and `buffer` run as scenarios, including same-frame ordering against the FIFO scheduler and
/// timers pending at completion or disposal.
@Suite struct TimeOperatorTests {
  @Test(arguments: [
    OperatorCase(
      "debounce emits after silence (RxJS)",
      """
      signals:
        s: [{ hot: "-a--------b------c----|" }, { debounce: 2 }]
      expect:
        s: "---a--------b------c--|"
      """),
    OperatorCase(
      "debounce restarts on every value of a burst",
      """
      signals:
        s: [{ hot: "-abc-----" }, { debounce: 2 }]
      expect:
        s: "-----c"
      """),
    OperatorCase(
      "debounce sends the pending value with the completion",
      """
      signals:
        s: [{ hot: "-a-b|" }, { debounce: 3 }]
      expect:
        s: "----(b|)"
      """),
    OperatorCase(
      "debounce drops the pending value on error",
      """
      signals:
        s: [{ hot: "-a-#" }, { debounce: 5 }]
      expect:
        s: "---#"
      """),
    OperatorCase(
      "debounce: a hot value at the timer's frame comes first and restarts it",
      """
      signals:
        s: [{ hot: "-a-b-----" }, { debounce: 2 }]
      expect:
        s: "-----b"
      """),
    OperatorCase(
      "debounce 0 re-emits at the same frame",
      """
      signals:
        s: [{ hot: "-a-(bc)-|" }, { debounce: 0 }]
      expect:
        s: "-a-c-|"
      """),
    OperatorCase(
      "debounce disposed with a value pending sends nothing more",
      """
      signals:
        e1: { hot: "-a-b------" }
        s: [{ from: e1 }, { debounce: 3 }]
      expect:
        s: { subscribe: "^----!", marble: "-----" }
        e1.subscriptions: "^----!"
      """),
    OperatorCase(
      "debounce with a duration in ms",
      """
      tick: 10ms
      signals:
        s: [{ hot: "-a-------|" }, { debounce: 30ms }]
      expect:
        s: "----a----|"
      """),
    OperatorCase(
      "throttle leading and trailing",
      """
      signals:
        s: [{ hot: "-a-b-c-----|" }, { throttle: 3 }]
      expect:
        s: "-a--b--c---|"
      """),
    OperatorCase(
      "throttle leading only drops the window's values",
      """
      signals:
        s:
          - hot: "-a-b-c-------d-e----|"
          - throttle: 3
            trailing: false
      expect:
        s: "-a---c-------d------|"
      """),
    OperatorCase(
      "throttle trailing only",
      """
      signals:
        s:
          - hot: "-a-b-c-----|"
          - throttle: 3
            leading: false
      expect:
        s: "----b--c---|"
      """),
    OperatorCase(
      "throttle waits for the window to send the trailing value, then completes",
      """
      signals:
        s: [{ hot: "-ab|" }, { throttle: 4 }]
      expect:
        s: "-a---(b|)"
      """),
    OperatorCase(
      "throttle completes at once with nothing pending",
      """
      signals:
        s: [{ hot: "-a|" }, { throttle: 4 }]
      expect:
        s: "-a|"
      """),
    OperatorCase(
      "throttle forwards an error at once",
      """
      signals:
        s: [{ hot: "-a-b#" }, { throttle: 3 }]
      expect:
        s: "-a--#"
      """),
    OperatorCase(
      "throttle: a hot value at the window's end falls inside it",
      """
      signals:
        s:
          - hot: "-a--b---"
          - throttle: 3
            latest: false
      expect:
        s: "-a------"
      """),
    OperatorCase(
      "throttle trailing sends a value at the window's end when it closes",
      """
      signals:
        s: [{ hot: "-a--b---" }, { throttle: 3 }]
      expect:
        s: "-a--b---"
      """),
    OperatorCase(
      "delay shifts values; completion not delayed when nothing is pending",
      """
      signals:
        s: [{ hot: "-a--b--|" }, { delay: 2 }]
      expect:
        s: "---a--b|"
      """),
    OperatorCase(
      "delay completes after the last pending value",
      """
      signals:
        s: [{ hot: "-a-b|" }, { delay: 3 }]
      expect:
        s: "----a-(b|)"
      """),
    OperatorCase(
      "delay of an empty source completes at once",
      """
      signals:
        s: [{ hot: "---|" }, { delay: 5 }]
      expect:
        s: "---|"
      """),
    OperatorCase(
      "delay forwards an error at once, dropping pending values",
      """
      signals:
        e1: { hot: "-a-#" }
        s: [{ from: e1 }, { delay: 5 }]
      expect:
        s: "---#"
      """),
    OperatorCase(
      "delay disposed drops pending values",
      """
      signals:
        e1: { hot: "-a-b-----" }
        s: [{ from: e1 }, { delay: 2 }]
      expect:
        s: { subscribe: "^---!", marble: "---a" }
        e1.subscriptions: "^---!"
      """),
    OperatorCase(
      "delaySubscription subscribes later",
      """
      signals:
        e1: { cold: "-a-|" }
        s: [{ from: e1 }, { delaySubscription: 2 }]
      expect:
        s: "---a-|"
        e1.subscriptions: "--^--!"
      """),
    OperatorCase(
      "delaySubscription disposed before the delay never subscribes",
      """
      signals:
        e1: { cold: "-a-|" }
        s: [{ from: e1 }, { delaySubscription: 3 }]
      expect:
        s: { subscribe: "^-!", marble: "--" }
        e1.subscriptions: []
      """),
    OperatorCase(
      "delaySubscription on a hot source misses earlier values",
      """
      signals:
        s: [{ hot: "-a---b-|" }, { delaySubscription: 3 }]
      expect:
        s: "-----b-|"
      """),
    OperatorCase(
      "timeout fails when a value is late",
      """
      signals:
        e1: { hot: "-a-----b-|" }
        s: [{ from: e1 }, { timeout: 3 }]
      expect:
        s: { marble: "-a--#", error: timeout }
        e1.subscriptions: "^---!"
      """),
    OperatorCase(
      "timeout lets a punctual source through",
      """
      signals:
        s: [{ hot: "-a-b-c-|" }, { timeout: 3 }]
      expect:
        s: "-a-b-c-|"
      """),
    OperatorCase(
      "timeout counts from subscription",
      """
      signals:
        s: [{ hot: "-----a" }, { timeout: 2 }]
      expect:
        s: { marble: "--#", error: timeout }
      """),
    OperatorCase(
      "timeout switches to the fallback",
      """
      signals:
        e1: { hot: "-a-----b-|" }
        fb: { cold: "-x-|" }
        s:
          - from: e1
          - timeout: 3
            fallback: fb
      expect:
        s: "-a---x-|"
        e1.subscriptions: "^---!"
        fb.subscriptions: "----^--!"
      """),
    OperatorCase(
      "timeout: a hot value at the timer's frame comes first and restarts it",
      """
      signals:
        s: [{ hot: "-a--b----" }, { timeout: 3 }]
      expect:
        s: { marble: "-a--b--#", error: timeout }
      """),
    OperatorCase(
      "timeout forwards the source's error",
      """
      signals:
        s: [{ hot: "-a-#" }, { timeout: 3 }]
      expect:
        s: "-a-#"
      """),
    OperatorCase(
      "timeoutRAC fails unless terminated in time (RAC2)",
      """
      signals:
        e1: { hot: "-a-b-c-|" }
        s: [{ from: e1 }, { timeoutRAC: 4 }]
      expect:
        s: { marble: "-a-b#", error: timeout }
        e1.subscriptions: "^---!"
      """),
    OperatorCase(
      "timeoutRAC passes a source that completes in time",
      """
      signals:
        s: [{ hot: "-a-|" }, { timeoutRAC: 5 }]
      expect:
        s: "-a-|"
      """),
    OperatorCase(
      "bufferTime emits a buffer per period, empty ones included (RxJS)",
      """
      signals:
        e1: { hot: "---a---b---c---d---e---f---g-----|" }
        s: [{ from: e1 }, { bufferTime: 10 }]
      expect:
        s:
          marble: "----------w---------x---------y--(z|)"
          values: { w: [a, b], x: [c, d, e], y: [f, g], z: [] }
        e1.subscriptions: "^--------------------------------!"
      """),
    OperatorCase(
      "bufferTime with every opens overlapping buffers",
      """
      signals:
        s:
          - hot: "-a-b-c-d-|"
          - bufferTime: 4
            every: 2
      expect:
        s:
          marble: "----w-x-y(zv|)"
          values: { w: [a, b], x: [b, c], y: [c, d], z: [d], v: [] }
      """),
    OperatorCase(
      "bufferTime with max sends a full buffer at once",
      """
      signals:
        s:
          - hot: "-a-b-c-|"
          - bufferTime: 10
            max: 2
      expect:
        s: { marble: "---x---(y|)", values: { x: [a, b], y: [c] } }
      """),
    OperatorCase(
      "bufferTime drops its buffer on error",
      """
      signals:
        s: [{ hot: "-a-#" }, { bufferTime: 10 }]
      expect:
        s: "---#"
      """),
    OperatorCase(
      "bufferTime: a hot value at the period's end belongs to that period",
      """
      signals:
        s: [{ hot: "-a-b-|" }, { bufferTime: 3 }]
      expect:
        s: { marble: "---x-(y|)", values: { x: [a, b], y: [] } }
      """),
    OperatorCase(
      "buffer counts values (RxJS bufferCount)",
      """
      signals:
        s: [{ hot: "-a-b-c-d-e-|" }, { buffer: 2 }]
      expect:
        s: { marble: "---x---y---(z|)", values: { x: [a, b], y: [c, d], z: [e] } }
      """),
    OperatorCase(
      "buffer with every 1 overlaps (RxJS)",
      """
      signals:
        e1: { hot: "--a--^--b--c--d--e--|" }
        s:
          - from: e1
          - buffer: 3
            every: 1
      expect:
        s:
          marble: "---------v--w--(yz|)"
          values: { v: [b, c, d], w: [c, d, e], y: [d, e], z: [e] }
      """),
    OperatorCase(
      "buffer with every larger than the size skips values",
      """
      signals:
        s:
          - hot: "-a-b-c-d-e-|"
          - buffer: 2
            every: 3
      expect:
        s: { marble: "---x-----y-|", values: { x: [a, b], y: [d, e] } }
      """),
    OperatorCase(
      "buffer drops the partial buffer on error",
      """
      signals:
        s: [{ hot: "-a-#" }, { buffer: 2 }]
      expect:
        s: "---#"
      """),
  ])
  func scenario(_ testCase: OperatorCase) {
    check(testCase)
  }
}
