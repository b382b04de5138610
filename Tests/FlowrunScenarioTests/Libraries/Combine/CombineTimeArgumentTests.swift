import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// Combine's time operators in Apple's own words: `debounce(for:scheduler:options:)`,
/// `delay(for:tolerance:scheduler:options:)`, `throttle(for:scheduler:latest:)` and
/// `timeout(_:scheduler:options:customError:)` take their `scheduler:`, `options:` and
/// `tolerance:` as keys, which change nothing in virtual time (docs/libraries.md, "combine"): each
/// case gives the same marbles with and without them.
@Suite struct CombineTimeArgumentTests {
  typealias Case = LibraryCase

  static let cases: [Case] = [
    Case(
      name: "debounce(for:scheduler:options:)",
      body: """
        signals:
          taps: { hot: "-a-b----c---|" }
          written: [{ from: taps }, { debounce: { for: 3, scheduler: DispatchQueue.main, options: null } }]
          plain: [{ from: taps }, { debounce: 3 }]
        expect:
          written: "------b----c|"
          plain: "------b----c|"
        """),
    Case(
      name: "delay(for:tolerance:scheduler:options:)",
      body: """
        signals:
          taps: { hot: "-a-|" }
          written: [{ from: taps }, { delay: { for: 2, tolerance: 1, scheduler: RunLoop.main } }]
          plain: [{ from: taps }, { delay: 2 }]
        expect:
          written: "---a-|"
          plain: "---a-|"
        """),
    Case(
      name: "throttle(for:scheduler:latest:)",
      body: """
        signals:
          taps: { hot: "a---b|" }
          written: [{ from: taps }, { throttle: { for: 3, scheduler: scheduler, latest: true } }]
          plain: [{ from: taps }, { throttle: { for: 3, latest: true } }]
        expect:
          written: "a---b|"
          plain: "a---b|"
        """),
    Case(
      name: "timeout(_:scheduler:options:customError:)",
      body: """
        signals:
          taps: { hot: "-a|" }
          written: [{ from: taps }, { timeout: { for: 5, scheduler: DispatchQueue.main, customError: late } }]
        expect:
          written: "-a|"
        """),
    Case(
      name: "a real background queue is not the scenario's scheduler",
      body: "signals:\n  out: [{ hot: \"-1\" }, { debounce: { for: 3, scheduler: DispatchQueue.global() } }]\n",
      error: "runs work on a real thread"),
    Case(
      name: "a tolerance is a duration",
      body: "signals:\n  out: [{ hot: \"-1\" }, { delay: { for: 3, tolerance: soon } }]\n",
      error: "invalid duration 'soon'"),
    Case(
      name: "debounce has no tolerance in Combine",
      body: "signals:\n  out: [{ hot: \"-1\" }, { debounce: { for: 3, tolerance: 1 } }]\n",
      error: "'tolerance'"),
  ]

  @Test(arguments: cases)
  func combineTakesItsTimeArguments(_ test: Case) {
    test.check(under: "combine")
  }
}
