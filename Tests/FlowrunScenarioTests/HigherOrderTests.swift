import FlowrunDiagnostics
import FlowrunScenario
import FlowrunTestSupport
import Testing

/// The flatMap family, switchToLatest, mergeAll/concatAll, catch, retry and race, as RxJS-style
/// marble tests (semantics.md; RxJS 7 where the libraries differ).
@Suite struct HigherOrderTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "flatMapLatest switches to the newest inner and disposes the previous one",
      yaml: """
        flowrun: 1
        name: switch
        signals:
          x: { cold: "--a--b--c--d--e--|" }
          y: { cold: "---f---g---h---i--|" }
          e1: { hot: "---------x---------y---------|" }
          result:
            - from: e1
            - flatMapLatest:
                cases:
                  - { when: 'outer == "x"', from: x }
                  - { from: y }
        expect:
          result: "-----------a--b--c----f---g---h---i--|"
          x.subscriptions: "---------^---------!"
          y.subscriptions: "-------------------^-----------------!"
          e1.subscriptions: "^----------------------------!"
        """),
    Case(
      name: "flatMapLatest completes only when the outer and the current inner have",
      yaml: """
        flowrun: 1
        name: switch completion
        signals:
          e1: { hot: "-a--|" }
          result: [{ from: e1 }, { flatMapLatest: { cold: "---b|" } }]
        expect:
          result: "----b|"
        """),
    Case(
      name: "flatMap merges inners and completes after the last",
      yaml: """
        flowrun: 1
        name: merge map
        signals:
          e1: { hot: "-a-b---|" }
          result: [{ from: e1 }, { flatMap: { cold: "--x-(y|)", values: { x: 1 } } }]
        values: { y: 2 }
        expect:
          result: "---1-(y1)-(y|)"
        """),
    Case(
      name: "flatMap with concurrent 1 queues inners in order",
      yaml: """
        flowrun: 1
        name: concurrent
        signals:
          e1: { hot: "-ab|" }
          result:
            - from: e1
            - flatMap: [{ cold: "--v|" }, { map: 'outer' }]
              concurrent: 1
        expect:
          result: "---a--b|"
        """),
    Case(
      name: "concatMap runs one inner after another",
      yaml: """
        flowrun: 1
        name: concat map
        signals:
          e1: { hot: "-ab-|" }
          result: [{ from: e1 }, { concatMap: [{ cold: "-1-2|" }, { map: 'outer + String($0)' }] }]
        expect:
          result: "--'a1'-'a2'-'b1'-'b2'|"
        """),
    Case(
      name: "exhaustMap ignores values while an inner runs",
      yaml: """
        flowrun: 1
        name: exhaust
        signals:
          e1: { hot: "-a-b---c---|" }
          result: [{ from: e1 }, { exhaustMap: [{ cold: "--v--|" }, { map: 'outer' }] }]
        expect:
          result: "---a-----c--|"
        """),
    Case(
      name: "switchToLatest over !cold values; same-frame disposal (RxJS grammar)",
      yaml: """
        flowrun: 1
        name: switch to latest
        grammar: rxjs
        values:
          x: !cold "--a---b--c|"
          y: !cold "---d--e|"
        signals:
          outer: { hot: "-x-----y---|" }
          latest: [{ from: outer }, switchToLatest]
        expect:
          latest: "---a------d--e|"
        """),
    Case(
      name: "mergeAll and concatAll flatten signal values",
      yaml: """
        flowrun: 1
        name: flatten
        values:
          x: !cold "-a-b|"
          y: !cold "-c|"
        signals:
          outer: { hot: "-xy|" }
          merged: [{ from: outer }, mergeAll]
          concatenated: [{ from: outer }, concatAll]
        expect:
          merged: "--acb|"
          concatenated: "--a-b-c|"
        """),
    Case(
      name: "flattening a value that is not a signal is an error",
      yaml: """
        flowrun: 1
        name: not a signal
        signals:
          outer: { hot: "-1|" }
          merged: [{ from: outer }, mergeAll]
        expect:
          merged: { marble: "-#", error: "'mergeAll' needs signal values, got Int" }
        """),
    Case(
      name: "catch continues with the signal the error makes",
      yaml: """
        flowrun: 1
        name: catch
        signals:
          source: { cold: "-a-#", error: "boom" }
          result:
            - from: source
            - catch: [{ just: 1 }, { map: 'error + "!"' }]
        expect:
          result: "-a-('boom!'|)"
          source.subscriptions: "^--!"
        """),
    Case(
      name: "catchAndReturn replaces an error with a value and completes",
      yaml: """
        flowrun: 1
        name: catch and return
        signals:
          result: [{ cold: "-a--#" }, { catchAndReturn: x }]
        expect:
          result: "-a--(x|)"
        """),
    Case(
      name: "retry subscribes again n times, then lets the error through",
      yaml: """
        flowrun: 1
        name: retry
        signals:
          source: { cold: "-a-#" }
          result: [{ from: source }, { retry: 2 }]
        expect:
          result: "-a--a--a-#"
          source.subscriptions: ["^--!", "---^--!", "------^--!"]
        """),
    Case(
      name: "retry with a delay waits between attempts",
      yaml: """
        flowrun: 1
        name: retry delay
        signals:
          source: { cold: "-#" }
          result: [{ from: source }, { retry: { count: 1, delay: 3 } }]
        expect:
          result: "-----#"
          source.subscriptions: ["^!", "----^!"]
        """),
    Case(
      name: "an unbounded retry of a synchronous failure stops at the depth limit",
      yaml: """
        flowrun: 1
        name: endless retry
        limit: { depth: 50 }
        signals:
          result: [{ fail: x }, retry]
        expect:
          result: "-"
        """),
    Case(
      name: "race: the first input to send wins, the others are disposed",
      yaml: """
        flowrun: 1
        name: race
        signals:
          a: { cold: "---a-|" }
          b: { cold: "-b---|" }
          result: { race: [a, b] }
        expect:
          result: "-b---|"
          a.subscriptions: "^!"
          b.subscriptions: "^----!"
        """),
  ]

  @Test(arguments: cases.filter { $0.name != "an unbounded retry of a synchronous failure stops at the depth limit" })
  func higherOrder(_ example: Case) {
    #expect(problemsRunning(example.yaml) == nil)
  }

  @Test func anUnboundedSynchronousRetryEndsWithADiagnostic() throws {
    let yaml = try #require(Self.cases.last { $0.name.hasPrefix("an unbounded retry") }).yaml
    let result = try #require(runOnly(yaml))
    #expect(result.status == .error)
    #expect(result.diagnostics.map(\.message).contains { $0.contains("deeper than the limit of 50") })
  }
}
