import Testing

/// `share`, `shareReplay`, RAC2 `replay` / `replayLast` / `replayLazily`, and `observeOn` /
/// `deliverOn` run as scenarios; subscription logs show connections.
@Suite struct SharingOperatorTests {
  @Test(arguments: [
    OperatorCase(
      "share: two subscribers, one subscription of the source",
      """
      signals:
        src: { cold: "-a-b-|" }
        sh: [{ from: src }, share]
        x: [{ from: sh }]
        y: [{ from: sh }]
      expect:
        x: "-a-b-|"
        y: { subscribe: "--^", marble: "---b-|" }
        src.subscriptions: "^----!"
      """),
    OperatorCase(
      "share disconnects when the last subscriber leaves and reconnects later",
      """
      signals:
        src: { cold: "-a-b-|" }
        sh: [{ from: src }, share]
        x: [{ from: sh }]
        y: [{ from: sh }]
      expect:
        x: { subscribe: "^-!", marble: "-a" }
        y: { subscribe: "----^", marble: "-----a-b-|" }
        src.subscriptions: ["^-!", "----^----!"]
      """),
    OperatorCase(
      "share resets after completion: a later subscriber subscribes anew",
      """
      signals:
        src: { cold: "-a-b-|" }
        sh: [{ from: src }, share]
        x: [{ from: sh }]
        y: [{ from: sh }]
      expect:
        x: "-a-b-|"
        y: { subscribe: "-------^", marble: "--------a-b-|" }
        src.subscriptions: ["^----!", "-------^----!"]
      """),
    OperatorCase(
      "share: after a reset only the new subscribers count towards disconnecting",
      """
      signals:
        src: { cold: "-a-b-|" }
        sh: [{ from: src }, share]
        x: [{ from: sh }]
        y: [{ from: sh }]
      expect:
        x: "-a-b-|"
        y: { subscribe: "-------^-!", marble: "--------a" }
        src.subscriptions: ["^----!", "-------^-!"]
      """),
    OperatorCase(
      "share resets after an error",
      """
      signals:
        src: { cold: "-a-#" }
        sh: [{ from: src }, share]
        x: [{ from: sh }]
        y: [{ from: sh }]
      expect:
        x: "-a-#"
        y: { subscribe: "-----^", marble: "------a-#" }
        src.subscriptions: ["^--!", "-----^--!"]
      """),
    OperatorCase(
      "shareReplay replays its buffer to a later subscriber",
      """
      signals:
        src: { cold: "-a-b-c-|" }
        sh: [{ from: src }, { shareReplay: 2 }]
        x: [{ from: sh }]
        y: [{ from: sh }]
      expect:
        x: "-a-b-c-|"
        y: { subscribe: "-----^", marble: "-----(abc)-|" }
        src.subscriptions: "^------!"
      """),
    OperatorCase(
      "shareReplay stays connected when every subscriber left",
      """
      signals:
        src: { cold: "-a-b-c-|" }
        sh: [{ from: src }, { shareReplay: 1 }]
        x: [{ from: sh }]
        y: [{ from: sh }]
      expect:
        x: { subscribe: "^--!", marble: "-a-" }
        y: { subscribe: "----^", marble: "----bc-|" }
        src.subscriptions: "^------!"
      """),
    OperatorCase(
      "shareReplay replays the completion",
      """
      signals:
        src: { cold: "-a-b-c-|" }
        sh: [{ from: src }, { shareReplay: 2 }]
        x: [{ from: sh }]
        y: [{ from: sh }]
      expect:
        x: "-a-b-c-|"
        y: { subscribe: "---------^", marble: "---------(bc|)" }
        src.subscriptions: "^------!"
      """),
    OperatorCase(
      "shareReplay resets after an error",
      """
      signals:
        src: { cold: "-a-#" }
        sh: [{ from: src }, { shareReplay: 1 }]
        x: [{ from: sh }]
        y: [{ from: sh }]
      expect:
        x: "-a-#"
        y: { subscribe: "-----^", marble: "------a-#" }
        src.subscriptions: ["^--!", "-----^--!"]
      """),
    OperatorCase(
      "replay connects at setup and replays everything (RAC2)",
      """
      signals:
        src: { cold: "-a-b-|" }
        r: [{ from: src }, replay]
      expect:
        r: { subscribe: "----^", marble: "----(ab)|" }
        src.subscriptions: "^----!"
      """),
    OperatorCase(
      "replay connects even when nobody subscribes",
      """
      signals:
        src: { cold: "-a-b-|" }
        r: [{ from: src }, replay]
      expect:
        src.subscriptions: "^----!"
      """),
    OperatorCase(
      "replay replays an error to a later subscriber",
      """
      signals:
        src: { cold: "-a-#" }
        r: [{ from: src }, replay]
      expect:
        r: { subscribe: "-----^", marble: "-----(a#)" }
      """),
    OperatorCase(
      "replayLast replays only the latest value (RAC2)",
      """
      signals:
        src: { hot: "-a-b-|" }
        r: [{ from: src }, replayLast]
      expect:
        r: { subscribe: "----^", marble: "----b|" }
        src.subscriptions: "^----!"
      """),
    OperatorCase(
      "replayLazily connects on its first subscriber (RAC2)",
      """
      signals:
        src: { cold: "-a-b-|" }
        r: [{ from: src }, replayLazily]
        x: [{ from: r }]
        y: [{ from: r }]
      expect:
        x: { subscribe: "--^", marble: "---a-b-|" }
        y: { subscribe: "----^", marble: "----ab-|" }
        src.subscriptions: "--^----!"
      """),
    OperatorCase(
      "observeOn re-delivers after what is already scheduled for the frame",
      """
      signals:
        e1: { hot: "-a-|" }
        e2: { hot: "-x-|" }
        s:
          merge:
            - [{ from: e1 }, { observeOn: main }]
            - e2
      expect:
        s: "-(xa)-|"
      """),
    OperatorCase(
      "without observeOn the earlier-scheduled event comes first",
      """
      signals:
        e1: { hot: "-a-|" }
        e2: { hot: "-x-|" }
        s: { merge: [e1, e2] }
      expect:
        s: "-(ax)-|"
      """),
    OperatorCase(
      "deliverOn keeps the order of the events it re-delivers",
      """
      signals:
        s: [{ hot: "-(ab)-(c|)" }, { deliverOn: main }]
      expect:
        s: "-(ab)-(c|)"
      """),
    OperatorCase(
      "deliverOn drops events pending when disposed",
      """
      signals:
        e1: { hot: "-(ab)-|" }
        s: [{ from: e1 }, { deliverOn: main }, { take: 1 }]
      expect:
        s: "-(a|)"
        e1.subscriptions: "^!"
      """),
    OperatorCase(
      "deliverOn of a synchronous source delivers in frame 0 after subscription",
      """
      signals:
        s: [{ of: [1, 2] }, { deliverOn: main }]
      expect:
        s: "(12|)"
      """),
  ])
  func scenario(_ testCase: OperatorCase) {
    check(testCase)
  }
}
