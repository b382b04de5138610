import FlowrunTestSupport
import Testing

/// A hot marble under `library: async` is what its producer yields into an `AsyncStream` made
/// when the run starts (docs/libraries.md, `async-hot-input-keeps-values`): a consumer that
/// subscribes later first gets what it missed. Each case runs under `async` and under the
/// default, where a later subscriber gets only what comes after it subscribed.
@Suite struct AsyncHotInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var signals: String
    var target: String
    var expect: String
    var async: String
    var `default`: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    // i0              -1--|
    // i1              a-b--c|
    // async           -1--(ab)c|    chain reaches i1 at 4: a and b were kept
    // default         -1---c|
    Case(
      name: "chain's second base hands the values it kept before chain reached it",
      signals: """
          i0: { hot: "-1--|" }
          i1: { hot: "a-b--c|" }
          out: [{ from: i0 }, { chain: [i1] }]
        """,
      target: "out", expect: "", async: "-1--(ab)c|", default: "-1---c|"),
    Case(
      name: "an end sent before chain reaches the base is kept too",
      signals: """
          i0: { hot: "-1---|" }
          i1: { hot: "a-|" }
          out: [{ from: i0 }, { chain: [i1] }]
        """,
      target: "out", expect: "", async: "-1---(a|)", default: "-1---"),
    // A consumer that starts iterating at frame 2 (a `subscribe:` window) gets a and b then.
    Case(
      name: "an expectation whose window opens late catches up",
      signals: """
          letters: { hot: "ab-c|" }
          late: { from: letters }
        """,
      target: "late", expect: "subscribe: \"--^\"", async: "--(ab)c|", default: "---c|"),
    // Values of the hot marble before its `^` happen before the run starts: nobody keeps them.
    Case(
      name: "events before frame 0 reach nobody",
      signals: """
          i0: { hot: "-1|" }
          i1: { hot: "a^b--c|" }
          out: [{ from: i0 }, { chain: [i1] }]
        """,
      target: "out", expect: "", async: "-1b-c|", default: "-1--c|"),
  ]

  @Test(arguments: cases)
  func aLateConsumerGetsWhatTheInputKept(_ test: Case) {
    for (library, marble) in [("async", test.async), ("rxjs", test.default)] {
      let expectation =
        test.target == "late"
        ? "  late: { \(test.expect), marble: \"\(marble)\" }"
        : "  \(test.target): \"\(marble)\""
      // The default's name of `chain`.
      let signals =
        library == "async"
        ? test.signals
        : test.signals.split(separator: "chain", omittingEmptySubsequences: false).joined(separator: "concat")
      let text = """
        flowrun: 1
        name: case
        library: \(library)
        signals:
        \(signals)
        expect:
        \(expectation)

        """
      let problems = problemsRunning(text)
      #expect(problems == nil, "\(test.name) (\(library)): \(problems ?? "")")
    }
  }
}
