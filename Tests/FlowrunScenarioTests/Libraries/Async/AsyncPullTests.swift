import FlowrunCore
import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// Operators that compute when they are pulled, under a slow consumer (`consumer: { busy: n }`,
/// docs/libraries.md `async-throttle-pull-based`, `async-zip-pulls-one-per-base`,
/// `async-combinelatest-pulls-on-demand`, `async-observed-skips-for-a-slow-consumer`): each
/// case's marbles are what the package's source gives that consumer.
@Suite struct AsyncPullTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var body: String
    var testDescription: String { name }
  }

  /// `_throttle` (`AsyncThrottleSequence.swift` `Iterator.next()`): each pull reduces the
  /// values pulled at that frame and after it, measured from the last emission.
  static let throttle: [Case] = [
    // source          a-b-c-d-e-f-|
    // busy 2, d 5     a-----d-----f-|   pull at 2 reduces b, c (4 < 5 after a), d at 6 is sent
    Case(
      name: "a pull measures from the last emission and sends the reduction of the values since",
      body: """
        signals:
          out: [{ hot: "a-b-c-d-e-f-|" }, { throttle: 5 }]
          atOnce: [{ hot: "a-b-c-d-e-f-|" }, { throttle: 5 }]
        expect:
          out: { marble: "a-----d-----f-|", consumer: { busy: 2 } }
          atOnce: "a-----d-----(f|)"
        """),
    // source          abcd|
    // busy 3, d 2     a--b--c--d--|   each pull comes d frames after the last emission or later
    Case(
      name: "a consumer busy longer than the window gets the waiting values one per pull",
      body: """
        signals:
          out: [{ hot: "abcd|" }, { throttle: 2 }]
          atOnce: [{ hot: "abcd|" }, { throttle: 2 }]
        expect:
          out: { marble: "a--b--c--d--|", consumer: { busy: 3 } }
          atOnce: "a-c-(d|)"
        """),
    Case(
      name: "latest: false sends the first value pulled since the last emission",
      body: """
        signals:
          out: [{ hot: "a-b-c-d-e-f-|" }, { throttle: { for: 5, latest: false } }]
        expect:
          out: { marble: "a-----b-----e-|", consumer: { busy: 2 } }
        """),
  ]

  /// `zip` (`Zip/ZipStateMachine.swift`): one value from each base per pull.
  static let zip: [Case] = [
    // a               -1-2-3-4-|
    // b               -a-b-c-d-|
    // busy 3          -p--q--r--s--|   the end is seen when the pull after s asks a
    Case(
      name: "each pull takes one value from every base; the end is seen at the pull that asks for it",
      body: """
        signals:
          a: { hot: "-1-2-3-4-|" }
          b: { hot: "-a-b-c-d-|" }
          out: { zip: [a, b] }
        expect:
          out:
            marble: "-p--q--r--s--|"
            values: { p: [1, a], q: [2, b], r: [3, c], s: [4, d] }
            consumer: { busy: 3 }
        """),
    // a               -1-#
    // b               ----a|
    // zip             ----(p#)   a is not pulled again until b gave its value for this pull
    Case(
      name: "a base that already gave its value for the pull fails at the next pull",
      body: """
        signals:
          a: { hot: "-1-#" }
          b: { hot: "----a|" }
          out: { zip: [a, b] }
        expect:
          out: { marble: "----(p#)", values: { p: [1, a] } }
        """),
    // a               1-#
    // b               x-|
    // busy 4          p---|   at the pull at 4, a's failure and b's end both wait: the end wins
    Case(
      name: "an end and a failure waiting at one pull: the end wins (the failure is one task hop later)",
      body: """
        signals:
          a: { hot: "1-#" }
          b: { hot: "x-|" }
          out: { zip: [a, b] }
        expect:
          out: { marble: "p---|", values: { p: [1, x] }, consumer: { busy: 4 } }
        """),
  ]

  /// `combineLatest` (`CombineLatest/CombineLatestStateMachine.swift`).
  static let combineLatest: [Case] = [
    // c1              -1-2-3-----|
    // c2              x----------|
    // busy 3          -p--q--r---|   each pull resumes c1 once: its waiting values, one by one
    Case(
      name: "a pull after a busy period pulls each suspended base once",
      body: """
        signals:
          c1: { hot: "-1-2-3-----|" }
          c2: { hot: "x----------|" }
          out: { combineLatest: [c1, c2] }
        expect:
          out:
            marble: "-p--q--r---|"
            values: { p: [1, x], q: [2, x], r: [3, x] }
            consumer: { busy: 3 }
        """),
    // a               1-23---|
    // b               x--y---|
    // busy 4          p---q---r---s---|   2 arrives while a is still pulled: q is buffered;
    //                                     at 8 a and b are resumed: a's 3 first, b's y buffered
    Case(
      name: "a value of a base still pulled is buffered as a combination for the next pull",
      body: """
        signals:
          a: { hot: "1-23---|" }
          b: { hot: "x--y---|" }
          out: { combineLatest: [a, b] }
        expect:
          out:
            marble: "p---q---r---s---|"
            values: { p: [1, x], q: [2, x], r: [3, x], s: [3, y] }
            consumer: { busy: 4 }
        """),
    // a               1-#
    // b               x---|
    // busy 4          p---#   the failure waits for the pull
    Case(
      name: "a failure while the consumer is busy is sent at its next pull",
      body: """
        signals:
          a: { hot: "1-#" }
          b: { hot: "x---|" }
          out: { combineLatest: [a, b] }
        expect:
          out: { marble: "p---#", values: { p: [1, x] }, consumer: { busy: 4 } }
        """),
  ]

  /// The standard library's `flatMap` (`AsyncFlatMapSequence.Iterator.next()`): the next inner
  /// sequence is made when the consumer pulls after the previous one returned nil.
  static let flatMap: [Case] = [
    // outer           (ab|)
    // inner per v     --v|           (from its subscription)
    // first pull at 3 ,,,--a--(b|)   the first inner starts at the pull, the second at the pull after a
    Case(
      name: "an inner sequence starts at the consumer's pull (TestValidationTests.test_delayNext_into_emptyTick)",
      body: """
        signals:
          out: [{ hot: "(ab|)" }, { flatMap: [{ just: 0 }, { delay: 2 }, { map: outer }] }]
        expect:
          out: ",,,--a-(b|)"
        """),
    // busy 3: a at 2, the consumer pulls again at 5: b's inner runs 5..7, the end is seen at the pull at 10
    Case(
      name: "a busy consumer delays the next inner until its next pull",
      body: """
        signals:
          out: [{ hot: "(ab|)" }, { flatMap: [{ just: 0 }, { delay: 2 }, { map: outer }] }]
        expect:
          out: { marble: "--a----b--|", consumer: { busy: 3 } }
        """),
    Case(
      name: "a consumer that pulls at once gets concatMap's result",
      body: """
        signals:
          out: [{ hot: "(ab|)" }, { flatMap: [{ just: 0 }, { delay: 2 }, { map: outer }] }]
        expect:
          out: "--a-(b|)"
        """),
  ]

  /// `merge` (`Merge/MergeStateMachine.swift`): a base that gave a value waits for the next
  /// round; what comes while the consumer does not wait is buffered.
  static let merge: [Case] = [
    // a               -123|
    // b               -x---y|
    // busy 3          -1--x--2--y--3--|   after x (buffered at 1) each pull resumes a and b:
    //                                     a's 2, then b's y (buffered), a's 3, a's and b's ends
    Case(
      name: "after a pause the bases take turns, one value each per round",
      body: """
        signals:
          a: { hot: "-123|" }
          b: { hot: "-x---y|" }
          out: { merge: [a, b] }
        expect:
          out: { marble: "-1--x--2--y--3--|", consumer: { busy: 3 } }
        """),
    // a               1-#
    // b               x---y|
    // busy 4          1---x---y---#   the pull at 8 resumes a (its failure is one task hop
    //                                 later) and b (y): y first, then the failure at the next pull
    Case(
      name: "a failure seen while the consumer is busy comes after the buffered values",
      body: """
        signals:
          a: { hot: "1-#" }
          b: { hot: "x---y|" }
          out: { merge: [a, b] }
        expect:
          out: { marble: "1---x---y---#", consumer: { busy: 4 } }
        """),
    // A sequential flatMap pulls its base only when its inner ended: 2 waits in a while 7,
    // which b sent while the inner for 1 ran, was buffered first.
    Case(
      name: "a sequential flatMap over a merge takes the buffered value first",
      body: """
        signals:
          a: { hot: "1-2---|" }
          b: { hot: "--7---|" }
          out: [{ merge: [a, b] }, { flatMap: [{ cold: "---(x|)" }, { map: 'outer' }] }]
        expect:
          out: "---1--7--(2|)"
        """),
  ]

  /// `observed:` (Observations, SE-0475): the current value at the next pull.
  static let observed: [Case] = [
    // name            a gh--m
    // busy 3          a--h--m   g is replaced by h before the pull at 3
    Case(
      name: "a slow consumer of an observed property gets only the current value at its pull",
      body: """
        properties:
          name: { initial: a }
          shown: { observed: name }
        timeline:
          - { at: 1, set: { name: g } }
          - { at: 2, set: { name: h } }
          - { at: 5, set: { name: m } }
        expect:
          shown: { marble: "a--h--m", consumer: { busy: 3 } }
        """)
  ]

  @Test(arguments: throttle + zip + combineLatest + flatMap + merge + observed)
  func theOperatorComputesWhenItIsPulled(_ test: Case) {
    let text = "flowrun: 1\nname: case\nlibrary: async\n" + test.body + "\n"
    let problems = problemsRunning(text)
    #expect(problems == nil, "\(test.name): \(problems ?? "")")
  }

  /// Runs the resumed bases of a `combineLatest` (or of the operator named `prefix`) in the
  /// other order; inputs keep theirs.
  final class Reversed: TieBreaker {
    private let prefix: String
    private(set) var asked: [[String]] = []

    init(_ prefix: String = "combineLatest") {
      self.prefix = prefix
    }

    func order(frame: Int, owners: [NodeLabel]) -> [Int]? {
      guard owners.allSatisfy({ $0.name.hasPrefix(prefix) }) else { return nil }
      asked.append(owners.map(\.name))
      return Array(owners.indices.reversed())
    }
  }

  /// Which of the bases resumed together runs first is the runtime's choice: the tie-breaker
  /// of `explore --orders` chooses it (here b's y before a's 3 at frame 8).
  @Test func theTieBreakerOrdersTheResumedBases() throws {
    let yaml = """
      flowrun: 1
      name: resumed together
      library: async
      signals:
        a: { hot: "1-23---|" }
        b: { hot: "x--y---|" }
        out: { combineLatest: [a, b] }
      expect:
        out:
          marble: "p---q---r---s---|"
          values: { p: [1, x], q: [2, x], r: [2, y], s: [3, y] }
          consumer: { busy: 4 }
      """
    let file = ScenarioLoader.load(path: "test.yaml", bytes: Array(yaml.utf8))
    let scenario = try #require(file.scenarios.first)
    #expect(ScenarioRunner.run(scenario).status != .passed)
    let reversed = Reversed()
    let result = ScenarioRunner.run(scenario, order: reversed)
    #expect(result.status == .passed, "\(result.expectations.map(\.actual))")
    #expect(reversed.asked.contains(["combineLatest input 1", "combineLatest input 2"]))
  }

  /// After a pause, which of a `merge`'s resumed bases with a value waiting runs first is the
  /// runtime's choice: reversed, b's y comes before a's 2 at frame 7 (and a's 3 before b's end
  /// at frame 13).
  @Test func theTieBreakerOrdersTheResumedBasesOfAMerge() throws {
    let yaml = """
      flowrun: 1
      name: resumed together
      library: async
      signals:
        a: { hot: "-123|" }
        b: { hot: "-x---y|" }
        out: { merge: [a, b] }
      expect:
        out: { marble: "-1--x--y--2--3--|", consumer: { busy: 3 } }
      """
    let file = ScenarioLoader.load(path: "test.yaml", bytes: Array(yaml.utf8))
    let scenario = try #require(file.scenarios.first)
    #expect(ScenarioRunner.run(scenario).status != .passed)
    let reversed = Reversed("merge")
    let result = ScenarioRunner.run(scenario, order: reversed)
    #expect(result.status == .passed, "\(result.expectations.map(\.actual))")
    #expect(reversed.asked.first == ["merge input 1", "merge input 2"])
  }
}
