import FlowrunCore
import FlowrunDiagnostics
import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// semantics.md §Commands, one test per numbered rule, plus the edges the rules leave to
/// docs/semantics.md. Every test pins the order inside a frame with a grouped marble of one
/// merged log of the command's derived signals.
@Suite struct CommandRuleTests {
  /// Letters of the merged log: `E`/`e` executing true/false, `D`/`d` enabled true/false,
  /// `x` an execution (its inner signal), `s` a call of the service `svc`, `r` an error on
  /// `errors`, `v` a value on `values`. Subscribed in this order, so at frame 0 the log starts
  /// with the current values of `executing` and `enabled`.
  static func log(_ command: String = "c", calls: Bool = false) -> String {
    """
      log:
        - merge:
            - [{ from: \(command).executing }, { map: '$0 ? "E" : "e"' }]
            - [{ from: \(command).enabled }, { map: '$0 ? "D" : "d"' }]
            - [{ from: \(command).executions }, { mapTo: "x" }]
    \(calls ? "        - [{ from: svc.calls }, { mapTo: \"s\" }]\n" : "")\
            - [{ from: \(command).errors }, { mapTo: "r" }]
            - [{ from: \(command).values }, { mapTo: "v" }]
    """
  }

  // MARK: The numbered rules

  /// Rule 1: executing a disabled command does nothing at all (no state change, no execution,
  /// no work subscribed) except one rejected execution, counted in the stats. Disabled means
  /// the enabled signal's latest value is false (frame 1) or an execution runs and the
  /// command is not concurrent (frame 4).
  @Test func rule1DisabledExecuteIsOnlyARejectedExecution() throws {
    let yaml = """
      flowrun: 1
      name: rule 1
      values: { t: true, f: false }
      signals:
        gate: { hot: "f--t" }
        work: { cold: "--(a|)" }
      \(Self.log())
      commands:
        c: { enabled: gate, work: { from: work } }
      timeline:
        - { at: 1, execute: c }
        - { at: 3, execute: c }
        - { at: 4, execute: c }
      expect:
        log: "(eDd)--(DEdx)-(veD)"
        work.subscriptions: "---^-!"
      """
    #expect(problemsRunning(yaml) == nil)
    let result = try #require(runOnly(yaml))
    #expect(result.stats.rejectedExecutions == 2)
  }

  /// Rule 2: an accepted execution sends, in this order, `executing` true, `enabled` false,
  /// the execution on `executions`, and only then subscribes the work (here: calls the
  /// service). With `concurrent: true` `enabled` does not change, and a second execution while
  /// one runs does not send `executing` again.
  @Test func rule2ExecutingEnabledExecutionsThenWork() {
    #expect(
      problemsRunning(
        """
        flowrun: 1
        name: rule 2
        services:
          svc: { cold: "--(a|)" }
        commands:
          c: { work: { call: svc } }
        signals:
        \(Self.log(calls: true))
        timeline: [{ at: 1, execute: c }]
        expect:
          log: "(eD)(Edxs)-(veD)"
        """) == nil)
    #expect(
      problemsRunning(
        """
        flowrun: 1
        name: rule 2, concurrent
        services:
          svc: { cold: "--(a|)" }
        commands:
          c: { concurrent: true, work: { call: svc } }
        signals:
        \(Self.log(calls: true))
        timeline:
          - { at: 1, execute: c }
          - { at: 2, execute: c }
        expect:
          log: "(eD)(Exs)(xs)-(ve)"
        """) == nil)
  }

  /// Rule 3: values reach `values` only while their execution is the newest; an error never
  /// reaches `executions` or `values`. When the work ends: the inner signal completes, then
  /// `errors` (failures only), then `executing` false, then `enabled` is recomputed.
  @Test func rule3CompletionOrder() throws {
    let failing = """
      flowrun: 1
      name: rule 3
      commands:
        c: { work: { cold: "-a-#" } }
      signals:
      \(Self.log())
      timeline: [{ at: 1, execute: c }]
      expect:
        log: "(eD)(Edx)v-(reD)"
        c.executions: { marble: "-i", values: { i: !cold "-a-|" } }
      """
    #expect(problemsRunning(failing) == nil)

    // The inner signal's completion has no letter in the log; the trace shows it first.
    let recorder = TraceRecorder()
    let file = loadScenarios(failing, path: "test.yaml")
    let scenario = try #require(file.scenarios.first)
    _ = ScenarioRunner.run(scenario, tracer: recorder)
    let frame4 = recorder.lines.filter { $0.hasPrefix("4 c.") }
    #expect(
      frame4 == [
        "4 c.execution completed",
        "4 c.errors next",
        "4 c.executing next",
        "4 c.enabled next",
      ])
  }

  /// Rule 1 reads RAC2's `immediateEnabled`, which is true again as soon as the work ended:
  /// an `execute` from an `executing` → false or an `errors` handler is accepted, and its
  /// execution starts after the ending execution's deliveries (RACCommand.m: `execute:` reads
  /// `immediateEnabled`, which changes before the main-queue deliveries).
  @Test func reExecuteFromTheHandlersOfAnEndingExecution() {
    let fromExecutingFalse = """
      flowrun: 1
      name: re-execute when executing goes false
      library: rac2
      values: { a: 1, b: 2, u: unit, t: true, f: false }
      services:
        svc: { cold: "-(u|)" }
      commands:
        c: { work: { call: svc, with: input } }
      effects:
        - { on: [{ from: c.executing }, { skip: 1 }, { filter: '!$0' }, { take: 1 }], execute: c, input: 2 }
      timeline: [{ at: 1, execute: c, input: 1 }]
      signals:
      \(Self.log(calls: true))
      expect:
        svc.calls: "-ab"
        c.executing: "ft(ft)f"
        log: "(eD)(Edxs)(veDEdxs)(veD)"
      """
    #expect(problemsRunning(fromExecutingFalse) == nil)
    let fromErrors = """
      flowrun: 1
      name: retry from the errors handler
      values: { a: 1, b: 2, t: true, f: false }
      services:
        svc: { cold: "-#" }
      commands:
        c: { work: { call: svc, with: input } }
      effects:
        - { on: [{ from: c.errors }, { take: 1 }], execute: c, input: 2 }
      timeline: [{ at: 1, execute: c, input: 1 }]
      expect:
        svc.calls: "-ab"
        c.executing: "ft(ft)f"
      """
    #expect(problemsRunning(fromErrors) == nil)
  }

  /// A retry from the `errors` handler with no end runs until the run's event limit, which is
  /// reported at the expectation that recorded too much.
  @Test func anEndlessRetryFromTheErrorsHandlerStopsAtTheEventLimitOfItsExpectation() throws {
    let endless = """
      flowrun: 1
      name: endless retry
      limit: { events: 20 }
      services:
        svc: { cold: "-#" }
      commands:
        c: { work: { call: svc } }
      effects:
        - { on: c.errors, execute: c }
      timeline: [{ at: 1, execute: c }]
      expect:
        svc.calls: "-x"
      """
    let file = loadScenarios(endless, path: "endless.yaml")
    let scenario = try #require(file.scenarios.first)
    let errors = ScenarioRunner.run(scenario).diagnostics.filter { $0.severity == .error }.map(\.rendered)
    #expect(
      errors.first?.hasPrefix("endless.yaml:12:3: error: frame 21: more than 20 events recorded") == true, "\(errors)")
  }

  /// Rule 4: `enabled` is (latest value of the enabled signal, true until it speaks) &&
  /// (concurrent || !executing), deduplicated; `executing` and `enabled` send their current
  /// value to a new subscriber.
  ///
  /// The gate is silent at 1, so the execution is accepted; the gate's `f` at 2 changes nothing
  /// (already disabled: executing); at 4 the gate's `t` comes before the work's completion
  /// (hot events are scheduled first) and changes nothing either, the completion then enables;
  /// the second `t` at 6 is deduplicated; the execute at 9 is rejected. The concurrent command
  /// `k` follows the gate alone.
  @Test func rule4EnabledIsGateAndNotExecutingDeduplicated() throws {
    let yaml = """
      flowrun: 1
      name: rule 4
      values: { t: true, f: false }
      signals:
        gate: { hot: "--f-t-t-f-t" }
      \(Self.log())
      commands:
        c: { enabled: gate, work: { cold: "---(a|)" } }
        k: { enabled: gate, concurrent: true, work: { cold: "---(a|)" } }
      timeline:
        - { at: 1, execute: c }
        - { at: 1, execute: k }
        - { at: 9, execute: c }
      expect:
        log: "(eD)(Edx)--(veD)---d-D"
        k.enabled: "t-f-t---f-t"
        k.executing: "ft--f"
        c.enabled:
          marble: "--f-t---f-t"
          subscribe: "--^"
        c.executing:
          marble: "--t-f"
          subscribe: "--^"
      """
    #expect(problemsRunning(yaml) == nil)
    let result = try #require(runOnly(yaml))
    #expect(result.stats.rejectedExecutions == 1)
  }

  // MARK: Edges

  /// An enabled signal that says false at once (here RACObserve of a property) makes the
  /// command disabled before anything can observe it: the log starts with `(ed)`, the true the
  /// command started with is never seen, and an execute at frame 0 is rejected.
  @Test func enabledFalseAtCreation() throws {
    let yaml = """
      flowrun: 1
      name: false at creation
      properties:
        vm.canRun: { initial: false }
      commands:
        c: { enabled: vm.canRun, work: { cold: "-(a|)" } }
      signals:
      \(Self.log())
      timeline:
        - { at: 0, execute: c }
        - { at: 2, set: { vm.canRun: true } }
        - { at: 3, execute: c }
      expect:
        log: "(ed)-D(Edx)(veD)"
      """
    #expect(problemsRunning(yaml) == nil)
    let result = try #require(runOnly(yaml))
    #expect(result.stats.rejectedExecutions == 1)
  }

  /// docs/semantics.md §Commands and services: an enabled signal that fails disables the
  /// command for good (RAC2's `execute:` reads the failed `immediateEnabled` as NO), with a
  /// warning; an execution already running finishes normally, and `enabled` never errors.
  @Test func enabledSignalThatFails() throws {
    let yaml = """
      flowrun: 1
      name: failing enabled signal
      values: { t: true, f: false }
      signals:
        gate: { hot: "-t-#", error: "gate failed" }
      \(Self.log())
      commands:
        c: { enabled: gate, work: { cold: "---(a|)" } }
      timeline:
        - { at: 2, execute: c }
        - { at: 6, execute: c }
      expect:
        log: "(eD)-(Edx)--(ve)"
      """
    #expect(problemsRunning(yaml) == nil)
    let result = try #require(runOnly(yaml))
    #expect(result.stats.rejectedExecutions == 1)
    let warnings = result.diagnostics.filter { $0.severity == .warning }.map(\.message)
    #expect(
      warnings == [
        #"frame 3: the enabled signal of command 'c' failed with "gate failed"; the command stays disabled"#
      ])
  }

  /// Work that never terminates keeps the command executing (and, not concurrent, disabled)
  /// for the rest of the run; the run still ends, because nothing is left to schedule.
  @Test func workThatNeverTerminates() throws {
    let yaml = """
      flowrun: 1
      name: never
      commands:
        c: { work: { never: true } }
      signals:
      \(Self.log())
      timeline:
        - { at: 1, execute: c }
        - { at: 5, execute: c }
      expect:
        log: "(eD)(Edx)"
      """
    #expect(problemsRunning(yaml) == nil)
    let result = try #require(runOnly(yaml))
    #expect(result.stats.rejectedExecutions == 1)
    #expect(result.stats.frames <= 6)
    #expect(result.diagnostics.isEmpty)
  }

  /// With `concurrent: true` executions overlap and `values` follows only the newest: the first
  /// execution's `a` (3) and `b` (6) come after the second started (2) and are not on `values`;
  /// `executing` stays true until the last execution ends (7). Each inner signal still carries
  /// all of its own events.
  @Test func concurrentExecutionsSwitchValuesToTheLatest() {
    #expect(
      problemsRunning(
        """
        flowrun: 1
        name: concurrent
        commands:
          c:
            concurrent: true
            work:
              cases:
                - when: 'input == 1'
                  cold: "--a--b|"
                - cold: "--c|"
        signals:
        \(Self.log())
        timeline:
          - { at: 1, execute: c, input: 1 }
          - { at: 2, execute: c, input: 2 }
        expect:
          log: "(eD)(Ex)x-v--e"
          c.executions: { marble: "-ij", values: { i: !cold "--a--b|", j: !cold "--c|" } }
          c.values: "----c"
        """) == nil)
  }

  /// An effect on one command's `values` executes another command: delivery is depth-first,
  /// so `b`'s whole start (executing, execution, work subscribed) happens inside the delivery of
  /// `a`'s value, before the log (subscribed after the effect) sees that value, and before
  /// `a`'s execution ends.
  @Test func executionStartedFromAnEffectOfAnotherCommand() {
    #expect(
      problemsRunning(
        """
        flowrun: 1
        name: nested
        commands:
          a: { work: { cold: "-(v|)" } }
          b: { work: { cold: "-(w|)" } }
        signals:
          log:
            - merge:
                - [{ from: a.executing }, { map: '$0 ? "A" : "a"' }]
                - [{ from: a.values }, { mapTo: "v" }]
                - [{ from: b.executing }, { map: '$0 ? "B" : "b"' }]
                - [{ from: b.executions }, { mapTo: "x" }]
                - [{ from: b.values }, { mapTo: "w" }]
        effects:
          - on: a.values
            execute: b
        timeline: [{ at: 1, execute: a }]
        expect:
          log: "(ab)A(Bxva)(wb)"
        """) == nil)
  }

  /// A work template whose cases all fail to match fails the execution with
  /// `{ expressionError, at }` placed at the `cases` key, and prints a warning there.
  @Test func templateWithNoMatchingCase() throws {
    let yaml = """
      flowrun: 1
      name: no case
      values: { t: true, f: false }
      commands:
        c:
          work:
            cases:
              - when: 'input == "a"'
                just: 1
              - when: 'input == "b"'
                just: 2
      signals:
      \(Self.log())
      timeline: [{ at: 1, execute: c, input: "z" }]
      expect:
        log: "(eD)(EdxreD)"
        c.errors:
          marble: "-e"
          values: { e: { expressionError: 'no case matches "z"', at: "test.yaml:7:7" } }
      """
    #expect(problemsRunning(yaml) == nil)
    let result = try #require(runOnly(yaml))
    let warnings = result.diagnostics.filter { $0.severity == .warning }
    #expect(warnings.map(\.message) == [#"frame 1: no case matches "z""#])
    #expect(warnings.map(\.location?.line) == [7])
  }
}

/// Records each traced delivery as "<frame> <node> <event kind>".
private final class TraceRecorder: Tracer {
  var lines: [String] = []

  func trace(frame: Int, depth: Int, node: NodeLabel, event: Event, note: String?) {
    let kind: String
    switch event {
    case .next: kind = "next"
    case .error: kind = "error"
    case .completed: kind = "completed"
    }
    lines.append("\(frame) \(node.name) \(kind)")
  }
}
