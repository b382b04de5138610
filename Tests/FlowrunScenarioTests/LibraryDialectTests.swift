import FlowrunDiagnostics
import FlowrunTestSupport
import Testing

@testable import FlowrunScenario

/// What `library:` decides beyond the rows of docs/libraries.md: which library a file is read
/// in, what each library rejects and with which message, and the decisions the docs page records
/// (relays, `assign`, pull sources under `flatMap(maxPublishers:)`, RAC2 subjects).
@Suite struct LibraryDialectTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var body: String
    /// nil: the scenario loads and its expectations hold; otherwise a diagnostic contains it.
    var error: String?
    var testDescription: String { name }
  }

  static let runs: [Case] = [
    Case(
      name: "A Driver on the main thread delivers synchronously (RxCocoa testDrivingOrderOfSynchronousSubscriptions1)",
      body: """
        library: rxswift
        values: { i: initial, f: first, s: second, t: third }
        subjects:
          relay: { relay: behavior, value: initial }
        signals:
          observer: [{ from: relay }, { asDriver: { onErrorJustReturn: "" } }]
          ordered: { merge: [[{ just: 1 }, { asDriver: { onErrorJustReturn: 0 } }], { just: 2 }] }
        effects:
          - { at: 1, on: [{ just: first }, { asDriver: { onErrorJustReturn: "" } }], send: relay }
          - { at: 1, on: [{ just: second }, { asDriver: { onErrorJustReturn: "" } }], send: relay }
          - { at: 1, on: { just: third }, send: relay }
        expect:
          observer: "i(fst)"
          ordered: "(12|)"
        """),
    Case(
      name: "Combine flatMap(maxPublishers:) over a Sequence runs the requests one after another",
      body: """
        library: combine
        signals:
          loaded: [{ of: [1, 2, 3] }, { flatMap: { maxPublishers: 1, signal: [{ cold: "--x|" }, { map: 'outer' }] } }]
        expect:
          loaded: "--1--2--3|"
        """),
    Case(
      name: "Combine flatMap(maxPublishers:) drops what a hot source sends while full",
      body: """
        library: combine
        signals:
          taps: { hot: "-a-b-c-----" }
          loaded: [{ from: taps }, { flatMap: { maxPublishers: 1, signal: [{ cold: "--x|" }, { map: 'outer' }] } }]
        expect:
          loaded: "---a---c"
        """),
    Case(
      name: "Combine assign binds the property for the whole run",
      body: """
        library: combine
        properties:
          vm.title: { initial: "" }
        signals:
          names: { hot: "-a-b" }
          shown: [{ from: names }, { assign: vm.title }]
        expect:
          vm.title: "(e)a-b"
        values: { e: "" }
        """),
    Case(
      name: "An RxSwift BehaviorRelay sends its value and ignores a completion from subscribeTo",
      body: """
        library: rxswift
        subjects:
          mode: { relay: behavior, value: i, subscribeTo: { hot: "--a|" } }
        signals:
          seen: { from: mode }
        expect:
          seen: "i-a"
        """),
    Case(
      name: "rac: false asks RAC2 for a ReactiveX subject",
      body: """
        library: rac2
        subjects:
          status: { rac: false }
        signals:
          late: { from: status }
        timeline:
          - { at: 1, complete: status }
        expect:
          late: { subscribe: "--^", marble: "--|" }
        """),
    Case(
      name: "library: rxjs is the default, stated",
      body: """
        library: rxjs
        signals:
          out: [{ cold: "-a#" }, { retry: 1 }]
        expect:
          out: "-a-a#"
        """),
    Case(
      name: "RAC2's bare retry resubscribes through the scheduler without limit",
      body: """
        library: rac2
        until: 5
        signals:
          out: [{ cold: "-a#" }, retry]
        expect:
          out: "-a-a-a"
        """),
    Case(
      name: "RxSwift take(for:) and the default take side by side",
      body: """
        library: rxswift
        signals:
          values: { hot: "-a-b-c-d" }
          timed: [{ from: values }, { take: { for: 4 } }]
          counted: [{ from: values }, { take: 3 }]
        expect:
          timed: "-a-b|"
          counted: "-a-b-(c|)"
        """),
    Case(
      name: "A misspelled library suggests the right one",
      body: "library: combien\nsignals:\n  out: { just: 1 }\n",
      error: "3:10: error: unknown library 'combien'; did you mean 'combine'?"),
    Case(
      name: "A library alias suggests its name",
      body: "library: ReactiveObjC\nsignals:\n  out: { just: 1 }\n",
      error: "unknown library 'ReactiveObjC'; did you mean 'rac2'?"),
    Case(
      name: "Combine has no replay subject; the nearest is named",
      body: "library: combine\nsubjects:\n  history: { replay: all }\n",
      error: "5:14: error: library 'combine' has no replay subject"),
    Case(
      name: "A relay cannot complete",
      body: "library: rxswift\nsubjects:\n  taps: { relay: publish }\ntimeline:\n  - { at: 1, fail: { taps: x } }\n",
      error: "7:22: error: 'taps' is a relay, which never terminates (library 'rxswift'"),
    Case(
      name: "A PublishRelay has no initial value",
      body: "library: rxswift\nsubjects:\n  taps: { relay: publish, value: 1 }\n",
      error: "error: a PublishRelay has no 'value'; write 'relay: behavior' for a BehaviorRelay"),
    Case(
      name: "Relays are RxSwift's",
      body: "library: combine\nsubjects:\n  taps: { relay: publish }\n",
      error:
        "5:11: error: a relay is RxSwift's (RxRelay's PublishRelay and BehaviorRelay: 'library: rxswift'); library 'combine' has no relay, the nearest is a subject {}"
    ),
    Case(
      name: "RxSwift's share form in another library names RxSwift",
      body: "library: rac2\nsignals:\n  out: [{ just: 1 }, { share: { replay: 1, scope: forever } }]\n",
      error: "note: 'share: { … }' is RxSwift's form ('library: rxswift'); library 'rac2' has no such form"),
    Case(
      name: "Combine's throttle form under RxSwift names Combine",
      body: "library: rxswift\nsignals:\n  out: [{ hot: \"-a\" }, { throttle: { for: 3, latest: true } }]\n",
      error: "note: 'throttle: { … }' is Combine's form ('library: combine'); library 'rxswift' has no such form"),
    Case(
      name: "RxSwift's timed take in the default catalogue names RxSwift",
      body: "signals:\n  out: [{ hot: \"-a\" }, { take: { for: 3 } }]\n",
      error: "note: 'take: { … }' is RxSwift's form ('library: rxswift'); library 'rxjs' has no such form"),
    Case(
      name: "Another library's operator is named with its owner and the nearest one here",
      body: "library: rac2\nsignals:\n  out: [{ just: 1 }, removeDuplicates]\n",
      error:
        "unknown operator 'removeDuplicates' in library 'rac2': it is Combine's ('library: combine'); the nearest here is 'distinctUntilChanged'"
    ),
    Case(
      name: "A library's operator in a file without library",
      body: "signals:\n  out: [{ just: 1 }, { mapReplace: x }]\n",
      error:
        "unknown operator 'mapReplace' in the default catalogue: it is RAC2's ('library: rac2'); the nearest here is 'mapTo'"
    ),
    Case(
      name: "RAC2's throttle takes no RxJS keys",
      body: "library: rac2\nsignals:\n  out: [{ hot: \"-a\" }, { throttle: 3, leading: false }]\n",
      error:
        "note: 'leading' is a key of the default catalogue's 'throttle' ('library: rxjs'); library 'rac2' reads 'throttle' without it"
    ),
    Case(
      name: "assign needs a declared property",
      body:
        "library: combine\nproperties:\n  vm.title: { initial: \"\" }\nsignals:\n  out: [{ just: 1 }, { assign: vm.titel }]\n",
      error: "'assign' needs a property declared under 'properties:'; 'vm.titel' is not one; did you mean 'vm.title'?"),
  ]

  @Test(arguments: runs)
  func aLibraryReadsTheFileAsDocumented(_ test: Case) {
    let text = "flowrun: 1\nname: case\n" + test.body + "\n"
    let problems = problemsRunning(text)
    if let error = test.error {
      #expect(problems?.contains(error) == true, "\(test.name): \(problems ?? "no problem")")
    } else {
      #expect(problems == nil, "\(test.name): \(problems ?? "")")
    }
  }
}
