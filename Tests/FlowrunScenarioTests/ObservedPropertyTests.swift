import FlowrunTestSupport
import Testing

/// `observed:` properties (libraries.md, async: Observation's `Observations`): one value per
/// frame of sets, none for a set to an equal value, and the load errors of the key.
struct ObservedPropertyTests {
  @Test func oneValuePerTransactionWhereCombineLatestIsTorn() {
    let problems = problemsRunning(
      """
      flowrun: 1
      name: observed
      values: { a: [1, 2], b: [3, 4], c: [3, 2], d: [3, 9] }
      properties:
        x: { initial: 1 }
        y: { initial: 2 }
        both: { observed: [x, y] }
        xOnly: { observed: x }
      signals:
        combined: { combineLatest: [x, y] }
      timeline:
        - { at: 2, set: { x: 3 } }
        - { at: 2, set: { y: 4 } }
        - { at: 3, set: { x: 3 } }
        - { at: 4, set: { y: 9 } }
        - { at: 4, set: { y: 4 } }
      expect:
        both: "a-b-b"
        xOnly: "1-3"
        combined: "a-(cb)b(db)"
      """)
    #expect(problems == nil)
  }

  @Test(arguments: [
    ("{ observed: { a: x } }", "'observed' of property 'p' must be a name or a list of names, found a mapping"),
    ("{ observed: [] }", "'observed' of property 'p' must be a name or a list of names, found a sequence"),
    ("{ observed: x, initial: 1 }", "unknown key 'initial' in property 'p'"),
    ("{ observed: nope }", "unknown signal 'nope'"),
  ])
  func badObserved(_ entry: String, _ message: String) {
    let problems = problemsRunning(
      """
      flowrun: 1
      name: bad observed
      properties:
        x: { initial: 1 }
        p: \(entry)
      """)
    #expect(problems?.contains(message) == true, "\(problems ?? "no problem")")
  }
}
