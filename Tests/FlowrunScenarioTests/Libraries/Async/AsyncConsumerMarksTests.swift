import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// `library: async`: the marks of an expectation's consumer (docs/libraries.md "The consumer",
/// "Cancellation"): `,` moves the next pull to the next frame, `;` cancels the iterating task.
@Suite struct AsyncConsumerMarksTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var body: String
    /// nil: the scenario loads and its expectations hold; otherwise what went wrong contains it.
    var problem: String?
    var library = "async"
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "',' delays the first pull: the marble's values wait for it",
      body: "signals:\n  out: { hot: \"xxx|\" }\nexpect:\n  out: \",,(xxx)|\"\n"),
    Case(
      name: "',' after a value keeps the consumer busy for that frame",
      body: "signals:\n  out: { hot: \"xxx|\" }\nexpect:\n  out: \",,,(x,)(x,)(x,)|\"\n"),
    Case(
      name: "a pull later than the marble says fails",
      body: "signals:\n  out: { hot: \"xxx|\" }\nexpect:\n  out: \",(xx),x|\"\n",
      problem: "actual   \"-(xx)-(x|)\""),
    Case(
      name: "bufferingNewest keeps the newest while the consumer waits for its ','",
      body: """
        signals:
          out: [{ hot: "-1234|" }, { buffer: { policy: { bufferingNewest: 1 } } }]
        expect:
          out: ",,,,,(4|)"
        """),
    Case(
      name: "';' cancels the iteration: the lane ends with (;|)",
      body: "signals:\n  out: { hot: \"a--b--c--|\" }\nexpect:\n  out: \"a--b-(;|)\"\n"),
    Case(
      name: "a cancellation before a value of its frame: the value is not seen",
      body: "signals:\n  out: { hot: \"a--b--c--|\" }\nexpect:\n  out: \"a--(b;|)\"\n",
      problem: "actual   \"a--(;|)\""),
    Case(
      name: "a sequence that ended before the ';' is not cancelled",
      body: "signals:\n  out: { hot: \"a|\" }\nexpect:\n  out: \"a-(;|)\"\n",
      problem: "actual   \"a|\""),
    Case(
      name: "';' without the end the cancelled next() returns fails, and shows it",
      body: "signals:\n  out: { hot: \"a--b--c--|\" }\nexpect:\n  out: \"a--b;\"\n",
      problem: "actual   \"a--b(;|)\""),
    Case(
      name: "a timer runs until its task is cancelled",
      body: "signals:\n  out: [{ interval: 2 }, { map: '\"x\"' }]\nexpect:\n  out: \"--x-x-x-(;|)\"\n"),
    Case(
      // The window opens at 2: the hot input kept a for it (`async-hot-input-keeps-values`).
      name: "a cancellation inside a subscribe window",
      body: "signals:\n  out: { hot: \"a-b-c-d|\" }\nexpect:\n  out: { subscribe: \"--^\", marble: \"--(ab)-(;|)\" }\n"),
    Case(
      name: "a cancellation before the window subscribes",
      body: "signals:\n  out: { hot: \"a-b-c-d|\" }\nexpect:\n  out: { subscribe: \"---^\", marble: \"--;\" }\n",
      problem: "';' cancels the iteration at frame 2, before the expectation subscribes (frame 3)"),
    Case(
      // The hot input kept a for the window, which opens at 1 (`async-hot-input-keeps-values`).
      name: "a subscribe window's end cancels the iterating task: (;|) at its '!' frame",
      body: "signals:\n  out: { hot: \"a-b-c-d|\" }\nexpect:\n  out: { subscribe: \"-^--!\", marble: \"-ab-(;|)\" }\n"),
    Case(
      name: "a window's end without its (;|) fails, and shows it",
      body: "signals:\n  out: { hot: \"a-b-c-d|\" }\nexpect:\n  out: { subscribe: \"-^--!\", marble: \"-ab-\" }\n",
      problem: "actual   \"-ab-(;|)\""),
    Case(
      name: "a window that ends after the sequence ended cancels nothing",
      body: "signals:\n  out: { hot: \"a-(b|)\" }\nexpect:\n  out: { subscribe: \"-^--!\", marble: \"-a(b|)\" }\n"),
    Case(
      name: "under another library a window's end only disposes",
      body: "signals:\n  out: { hot: \"a-b-c-d|\" }\nexpect:\n  out: { subscribe: \"-^--!\", marble: \"--b-\" }\n",
      library: "rxswift"),
    Case(
      name: "';' may appear only once",
      body: "signals:\n  out: { hot: \"a\" }\nexpect:\n  out: \"a;;\"\n",
      problem: "';' may appear only once"),
    Case(
      name: "no event after the ';' frame",
      body: "signals:\n  out: { hot: \"a\" }\nexpect:\n  out: \"a;b\"\n",
      problem: "events after ';'"),
    Case(
      name: "'consumer' and ',' together",
      body: "signals:\n  out: { hot: \"a\" }\nexpect:\n  out: { marble: \",a\", consumer: { busy: 1 } }\n",
      problem: "'consumer' and the marble's ',' both say when the consumer pulls"),
    Case(
      name: "',' in an input marble",
      body: "signals:\n  out: { hot: \"a,b\" }\nexpect:\n  out: \"a-b\"\n",
      problem: "',' (the consumer's next pull waits a frame) is only allowed in an expectation under 'library: async'"),
    Case(
      name: "';' under another library",
      body: "signals:\n  out: { hot: \"a|\" }\nexpect:\n  out: \"a;\"\n",
      problem: "';' (the iterating task is cancelled) is only allowed in an expectation under 'library: async'",
      library: "combine"),
    Case(
      name: "a quoted ';' is the one-character value anywhere",
      body: "signals:\n  out: { hot: \"';'|\" }\nexpect:\n  out: \"';'|\"\n",
      library: "rxswift"),
  ]

  @Test(arguments: cases)
  func marks(_ test: Case) {
    let text = "flowrun: 1\nname: case\nlibrary: \(test.library)\n" + test.body
    let problems = problemsRunning(text)
    if let problem = test.problem {
      #expect(problems?.contains(problem) == true, "\(test.name): \(problems ?? "no problem")")
    } else {
      #expect(problems == nil, "\(test.name): \(problems ?? "")")
    }
  }

  /// The result records when the consumer pulled and when its task was cancelled.
  @Test func theResultRecordsPullsAndTheCancellation() throws {
    let result = try #require(
      runOnly(
        """
        flowrun: 1
        name: pulls
        library: async
        signals:
          slow: { hot: "xxx---|" }
          ticks: [{ interval: 2 }, { map: '"t"' }]
          fast: { hot: "ab|" }
        expect:
          slow: "x,,,,(xx)|"
          ticks: "--t-t(;|)"
          fast: "ab|"
        """))
    let byTarget = Dictionary(uniqueKeysWithValues: result.expectations.map { ($0.spec.target, $0) })
    #expect(result.status == .passed)
    // At subscription; at frame 5 for the two waiting values and the pull the end answers.
    #expect(byTarget["slow"]?.pulls == [0, 5, 5, 5])
    #expect(byTarget["slow"]?.cancelled == nil)
    #expect(byTarget["ticks"]?.cancelled == 5)
    #expect(byTarget["ticks"]?.spec.cancel == 5)
    #expect(byTarget["ticks"]?.pulls == nil)
    #expect(byTarget["fast"]?.pulls == nil)
  }
}
