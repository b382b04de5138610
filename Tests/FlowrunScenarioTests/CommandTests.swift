import FlowrunDiagnostics
import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// semantics.md §Commands, rule by rule, as small scenarios.
@Suite struct CommandTests {
  /// A merged log of every derived signal of command `c`, in delivery order.
  static let log = """
    signals:
      log:
        - merge:
            - [{ from: c.executing }, { map: '$0 ? "E" : "e"' }]
            - [{ from: c.enabled }, { map: '$0 ? "D" : "d"' }]
            - [{ from: c.executions }, { mapTo: "x" }]
            - [{ from: c.errors }, { mapTo: "r" }]
            - [{ from: c.values }, { mapTo: "v" }]
    """

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var yaml: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "state changes of a successful execution, in RAC2 order",
      yaml: """
        flowrun: 1
        name: order
        commands:
          c: { work: { cold: "--(a|)" } }
        \(log)
        timeline: [{ at: 1, execute: c }]
        expect:
          log: "(eD)(Edx)-(veD)"
        """),
    Case(
      name: "a failing execution: inner completes, errors, then executing and enabled",
      yaml: """
        flowrun: 1
        name: failure
        commands:
          c: { work: { cold: "--#" } }
        \(log)
        timeline: [{ at: 1, execute: c }]
        expect:
          log: "(eD)(Edx)-(reD)"
          c.values: "----"
          c.executions: { marble: "-x", values: { x: !cold "--|" } }
        """),
    Case(
      name: "executing while disabled is rejected and counted",
      yaml: """
        flowrun: 1
        name: rejected
        values: { t: true, f: false }
        signals:
          gate: { hot: "f--t" }
        commands:
          c: { enabled: gate, work: { cold: "-(a|)" } }
        timeline:
          - { at: 1, execute: c }
          - { at: 3, execute: c }
          - { at: 3, execute: c }
        expect:
          c.enabled: "(tf)--(tf)t"
          c.executing: "f--tf"
          c.values: "----a"
        """),
    Case(
      name: "a concurrent command keeps enabled and values carry only the newest execution",
      yaml: """
        flowrun: 1
        name: concurrent
        values: { t: true, f: false }
        commands:
          c:
            concurrent: true
            work:
              cases:
                - when: 'input == 1'
                  cold: "---a-b|"
                - cold: "-c|"
        timeline:
          - { at: 1, execute: c, input: 1 }
          - { at: 2, execute: c, input: 2 }
        expect:
          c.enabled: "t"
          c.executing: "ft-----f"
          c.values: "---c"
        """),
    Case(
      name: "executions carry each execution's work as an inner signal",
      yaml: """
        flowrun: 1
        name: executions
        values: { x: !cold "--a|", y: !cold "-b|" }
        commands:
          c:
            work:
              cases:
                - when: 'input == "first"'
                  cold: "--a|"
                - cold: "-b|"
        timeline:
          - { at: 1, execute: c, input: first }
          - { at: 5, execute: c, input: second }
        expect:
          c.executions: "-x---y"
        """),
    Case(
      name: "an effect executes with the event's value as input",
      yaml: """
        flowrun: 1
        name: effect input
        signals:
          taps: { hot: "-a--b" }
        commands:
          c: { work: [{ just: 1 }, { map: 'input' }] }
        effects:
          - { on: taps, execute: c }
        expect:
          c.values: "-a--b"
        """),
    Case(
      name: "a timeline execute without input passes null",
      yaml: """
        flowrun: 1
        name: null input
        values: { n: ~ }
        commands:
          c: { work: [{ just: 1 }, { map: 'input' }] }
        timeline: [{ at: 2, execute: c }]
        expect:
          c.values: "--n"
        """),
    Case(
      name: "a work template with no matching case fails the execution",
      yaml: """
        flowrun: 1
        name: no case
        values: { t: true, f: false }
        commands:
          c:
            work:
              cases:
                - when: 'input == 1'
                  just: one
        timeline: [{ at: 1, execute: c, input: 2 }]
        expect:
          c.errors:
            marble: "-e"
            values: { e: { expressionError: "no case matches 2", at: "test.yaml:7:7" } }
          c.executing: "f(tf)"
        """),
  ]

  @Test(arguments: cases)
  func commandBehaviour(_ example: Case) {
    #expect(problemsRunning(example.yaml) == nil)
  }

  @Test func rejectedExecutionsAreCounted() throws {
    let result = try #require(
      runOnly(
        """
        flowrun: 1
        name: counted
        commands:
          c: { work: { cold: "---(a|)" } }
        timeline:
          - { at: 1, execute: c }
          - { at: 2, execute: c }
          - { at: 3, execute: c }
        """))
    #expect(result.stats.rejectedExecutions == 2)
  }
}

/// Services: cases, responses by call order (the last repeats), a bare signal, `.calls`.
@Suite struct ServiceTests {
  @Test(arguments: [
    """
    flowrun: 1
    name: responses by call order, the last repeats
    services:
      s:
        responses:
          - { just: one }
          - { just: two }
    signals:
      calls: [{ hot: "-x-x-x" }, { flatMap: { call: s, with: 'outer' } }]
    expect:
      calls: "-'one'-'two'-'two'"
      s.calls: "-x-x-x"
    """,
    """
    flowrun: 1
    name: a bare signal answers every call alike
    services:
      s: { cold: "-(r|)" }
    signals:
      answers: [{ hot: "-a-b" }, { concatMap: { call: s, with: 'outer + "!"' } }]
    values: { A: "a!", B: "b!" }
    expect:
      answers: "--r-r"
      s.calls: "-A-B"
    """,
    """
    flowrun: 1
    name: cases match on the input
    services:
      s:
        cases:
          - when: 'input > 1'
            just: big
          - just: small
    signals:
      answers: [{ hot: "-1-2" }, { flatMap: { call: s, with: outer } }]
    expect:
      answers: "-'small'-'big'"
    """,
    """
    flowrun: 1
    name: a service is called once per subscription
    services:
      s: { just: 1 }
    signals:
      answer: { call: s }
      both: { combineLatest: [answer, answer] }
    expect:
      s.calls:
        marble: "(nn)"
        values: { n: ~ }
      both:
        marble: "(p|)"
        values: { p: [1, 1] }
    """,
  ])
  func serviceBehaviour(_ yaml: String) {
    #expect(problemsRunning(yaml) == nil)
  }

  /// A call made while the graph is set up (a property bound at frame 0 to a signal that calls
  /// the service: "load on open") is in the log whatever the order of the `expect` keys.
  @Test(arguments: [
    """
    expect:
      api.calls: "o-p"
      vm.items: "b-c"
    """,
    """
    expect:
      vm.items: "b-c"
      api.calls: "o-p"
    """,
    """
    expect:
      api.calls: { subscribe: "^-!", marble: "o" }
      vm.items: "b-c"
    """,
    """
    expect:
      vm.items: "b-c"
      api.calls: { subscribe: "--^", marble: "--p" }
    """,
  ])
  func callLogHoldsCallsMadeDuringSetup(_ expect: String) {
    let yaml = """
      flowrun: 1
      name: load on open
      values: { o: open, p: pull, b: [1], c: [2] }
      services:
        api:
          cases:
            - { when: 'input == "open"', just: [1] }
            - just: [2]
      signals:
        pulls: { hot: "--p" }
        items:
          - merge:
              - { call: api, with: '"open"' }
              - [{ from: pulls }, { flatMap: { call: api, with: outer } }]
      properties:
        vm.items: items
      \(expect)
      """
    #expect(problemsRunning(yaml) == nil)
  }

  /// A signal an expectation subscribes to that calls the service at subscription is in the
  /// log even when that expectation comes first.
  @Test func callLogDoesNotDependOnExpectationOrder() {
    let yaml = """
      flowrun: 1
      name: a call at subscription, observed before the log
      services:
        s: { just: 1 }
      signals:
        answer: { call: s }
      expect:
        answer: "(1|)"
        s.calls: { marble: "n", values: { n: ~ } }
      """
    #expect(problemsRunning(yaml) == nil)
  }
}
