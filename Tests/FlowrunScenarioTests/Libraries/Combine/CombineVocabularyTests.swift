import FlowrunDiagnostics
import FlowrunTestSupport
import Foundation
import Testing

@testable import FlowrunScenario

/// `library: combine` in Combine's own words (libraries.md, Rules): the plain keys that are
/// Combine operator names carry Combine's meaning, Combine's vocabulary loads under its names
/// and labels, type-only steps pass events on, what cannot run in virtual time is a load error,
/// and the meanings OpenCombine's source and tests fix (prefix(untilOutputFrom:), flatMap,
/// prepend, first).
@Suite struct CombineVocabularyTests {
  typealias Case = LibraryCase

  /// The plain forms and what the Rules reject.
  static let rules: [Case] = [
    Case(
      name: "delay: d is .delay(for:): the completion is delayed too (minimum HUD time)",
      body: """
        signals:
          out: [{ hot: "-|" }, { delay: 3 }]
        expect:
          out: "----|"
        """),
    Case(
      name: "debounce: d is Combine's: the pending value is dropped at completion",
      body: """
        signals:
          out: [{ hot: "-a-b|" }, { debounce: 3 }]
        expect:
          out: "----|"
        """),
    Case(
      name: "timeout: d is Combine's: it finishes",
      body: """
        signals:
          out: [{ hot: "-a------" }, { timeout: 3 }]
        expect:
          out: "-a--|"
        """),
    Case(
      name: "share is multicast(PassthroughSubject).autoconnect(): a late subscriber gets only the completion",
      body: """
        signals:
          request: { cold: "-a|" }
          shared: [{ from: request }, share]
          first: { from: shared }
          late: { from: shared }
        expect:
          first: "-a|"
          late: { subscribe: "----^", marble: "----|" }
        """),
    Case(
      name: "first on an empty source finishes (OpenCombine Publishers.First, a ReduceProducer)",
      body: """
        signals:
          out: [{ hot: "---|" }, first]
          found: [{ hot: "-1-2|" }, { first: { where: '$0 > 1' } }]
          none: [{ hot: "-1|" }, { last: { where: '$0 > 1' } }]
        expect:
          out: "---|"
          found: "---(2|)"
          none: "--|"
        """),
    Case(
      name: "the plain throttle is a load error that shows Combine's form",
      body: "signals:\n  out: [{ hot: \"-a\" }, { throttle: 5 }]\n",
      error:
        "Combine's throttle needs 'latest' (throttle(for:scheduler:latest:)); write 'throttle: { for: 5, latest: true }'"
    ),
    Case(
      name: "a bare retry is a load error: Combine's retry needs its count",
      body: "signals:\n  out: [{ hot: \"-a\" }, retry]\n",
      error: "Combine's retry needs the number of retries (retry(_:)); write 'retry: n'"),
    Case(
      name: "a plain buffer: n is a load error that names collect",
      body: "signals:\n  out: [{ hot: \"-a\" }, { buffer: 2 }]\n",
      error: "for lists of n values write 'collect: { count: n }'"),
    Case(
      name: "breakpoint cannot run in a scenario",
      body: "signals:\n  out: [{ hot: \"-a\" }, breakpoint]\n",
      error: "'breakpoint' cannot run in a scenario: it raises SIGTRAP in a debugger"),
    Case(
      name: "subscribe(on:) a real background queue cannot run in a scenario",
      body: "signals:\n  out: [{ hot: \"-a\" }, { subscribe: { on: 'DispatchQueue.global()' } }]\n",
      error: "'DispatchQueue.global()' runs work on a real thread"),
    Case(
      name: "autoconnect follows a ConnectablePublisher",
      body: "signals:\n  out: [{ hot: \"-a\" }, autoconnect]\n",
      error: "'autoconnect' follows a ConnectablePublisher"),
    Case(
      name: "type-only steps pass every event on",
      body: """
        signals:
          out:
            - { hot: "-1-2#" }
            - eraseToAnyPublisher
            - { setFailureType: { to: Error } }
            - { print: "vm" }
            - handleEvents
            - { encode: { encoder: JSONEncoder() } }
            - { decode: { type: Int, decoder: JSONDecoder() } }
            - assertNoFailure
        expect:
          out: "-1-2#"
        """),
    Case(
      name: "receive(on: ImmediateScheduler.shared) delivers at once; receive(on: main) hops",
      body: """
        values: { x: 10 }
        signals:
          taps: { hot: "1" }
          now:
            merge:
              - [{ from: taps }, { receive: { on: ImmediateScheduler.shared } }]
              - [{ from: taps }, { map: '$0 * 10' }]
          hop:
            merge:
              - [{ from: taps }, { receive: { on: DispatchQueue.main } }]
              - [{ from: taps }, { map: '$0 * 10' }]
        expect:
          now: "(1x)"
          hop: "(x1)"
        """),
  ]

  /// Combine's vocabulary, row by row (docs/libraries.md, the combine vocabulary table).
  static let vocabulary: [Case] = [
    Case(
      name: "map, tryMap, compactMap, tryCompactMap, replaceNil; tryMap fails with throw(v)",
      body: """
        signals:
          src: { hot: "-1-2-3|" }
          compact: [{ from: src }, { compactMap: '$0 > 1 ? $0 : null' }]
          tried: [{ from: src }, { tryMap: '$0 == 2 ? throw("bad") : $0' }]
          nils: [{ from: src }, { tryCompactMap: 'null' }, { replaceEmpty: 0 }]
          replaced: [{ from: src }, { map: '$0 == 2 ? null : $0' }, { replaceNil: 9 }]
        expect:
          compact: "---2-3|"
          tried: { marble: "-1-#", error: bad }
          nils: "------(0|)"
          replaced: "-1-9-3|"
        """),
    Case(
      name: "mapError, replaceError, tryCatch",
      body: """
        signals:
          src: { hot: "-1#", error: e }
          mapped: [{ from: src }, { mapError: '"wrapped " + $0' }]
          replaced: [{ from: src }, { replaceError: 0 }]
          caught: [{ from: src }, { tryCatch: { just: 7 } }]
        expect:
          mapped: { marble: "-1#", error: "wrapped e" }
          replaced: "-1(0|)"
          caught: "-1(7|)"
        """),
    Case(
      name: "collect, collect(n), collect(.byTime), collect(.byTimeOrCount)",
      body: """
        values: { a: [1, 2, 3, 4], e: [], p: [1, 2], q: [3, 4] }
        signals:
          src: { hot: "-1-2-3-4|" }
          all: [{ from: src }, collect]
          empty: [{ hot: "--|" }, collect]
          pairs: [{ from: src }, { collect: { count: 2 } }]
          timed: [{ from: src }, { collect: { byTime: 4 } }]
          either: [{ from: src }, { collect: { byTimeOrCount: 5, count: 2 } }]
        expect:
          all: "--------(a|)"
          empty: "--(e|)"
          pairs: "---p---q|"
          timed: "----p---(q|)"
          either: "---p---q|"
        """),
    Case(
      name: "output(at:), output(in:), first(where:), last(where:), ignoreOutput",
      body: """
        signals:
          src: { hot: "-1-2-3-4|" }
          at: [{ from: src }, { output: { at: 1 } }]
          range: [{ from: src }, { output: { in: '1...2' } }]
          halfOpen: [{ from: src }, { output: { in: '1..<2' } }]
          firstBig: [{ from: src }, { tryFirst: { where: '$0 > 2' } }]
          lastSmall: [{ from: src }, { last: '$0 < 3' }]
          ignored: [{ from: src }, ignoreOutput]
        expect:
          at: "---2-|"
          range: "---2-3-|"
          halfOpen: "---2-|"
          firstBig: "-----(3|)"
          lastSmall: "--------(2|)"
          ignored: "--------|"
        """),
    Case(
      name: "drop(untilOutputFrom:), drop(while:), prefix(while:), dropFirst, removeDuplicates(by:)",
      body: """
        signals:
          src: { hot: "-1-2-3-4|" }
          gate: { hot: "----x" }
          untilGate: [{ from: src }, { drop: { untilOutputFrom: gate } }]
          whileSmall: [{ from: src }, { drop: { while: '$0 < 3' } }]
          prefixSmall: [{ from: src }, { prefix: { while: '$0 < 3' } }]
          dropped: [{ from: src }, { dropFirst: 3 }]
          changes: [{ hot: "-1-2-4-5|" }, { removeDuplicates: { by: '$1 - $0 == 1' } }]
        expect:
          untilGate: "-----3-4|"
          whileSmall: "-----3-4|"
          prefixSmall: "-1-2-|"
          dropped: "-------4|"
          changes: "-1---4--|"
        """),
    Case(
      name:
        "drop(untilOutputFrom:) ends with a notifier that finishes first (DropUntilOutput.receiveOther(completion:))",
      body: """
        signals:
          src: { hot: "-1-2-3|" }
          gate: { hot: "--|" }
          out: [{ from: src }, { drop: { untilOutputFrom: gate } }]
        expect:
          out: "--|"
        """),
    Case(
      name: "scan, tryScan, reduce, tryReduce, count, min, max, contains, allSatisfy",
      body: """
        values: { t: true, f: false }
        signals:
          src: { hot: "-3-1-4-1|" }
          sums: [{ from: src }, { tryScan: '$0 + $1', seed: 0 }]
          total: [{ from: src }, { tryReduce: '$0 + $1', seed: 0 }]
          counted: [{ from: src }, count]
          least: [{ from: src }, min]
          most: [{ from: src }, { tryMax: { by: '$0 < $1' } }]
          hasFour: [{ from: src }, { contains: 4 }]
          hasNine: [{ from: src }, { tryContains: { where: '$0 == 9' } }]
          allSmall: [{ from: src }, { allSatisfy: '$0 < 4' }]
          allPositive: [{ from: src }, { tryAllSatisfy: '$0 > 0' }]
        expect:
          sums: "-3-4-8-9|"
          total: "--------(9|)"
          counted: "--------(4|)"
          least: "--------(1|)"
          most: "--------(4|)"
          hasFour: "-----(t|)"
          hasNine: "--------(f|)"
          allSmall: "-----(f|)"
          allPositive: "--------(t|)"
        """),
    Case(
      name: "merge(with:), combineLatest, zip, switchToLatest keep their shared meaning",
      body: """
        signals:
          a: { hot: "-1---3|" }
          b: { hot: "--2---|" }
          merged: [{ from: a }, { merge: { with: b } }]
          latest: [{ from: a }, { combineLatest: b }, { map: '$0 + $1' }]
          zipped: [{ from: a }, { zip: b }, { map: '$0 + $1' }]
        expect:
          merged: "-12--3|"
          latest: "--3--5|"
          zipped: "--3---|"
        """),
    Case(
      name: "multicast + autoconnect, makeConnectable connected at setup, subscribe(on:)",
      body: """
        signals:
          request: { cold: "-a|" }
          auto: [{ from: request }, multicast, autoconnect]
          first: { from: auto }
          late: { from: auto }
          connected: [{ cold: "-b|" }, makeConnectable]
          delayedSub: [{ hot: "1" }, { subscribe: { on: scheduler } }]
        expect:
          first: "-a|"
          late: { subscribe: "----^", marble: "----|" }
          connected: { subscribe: "--^", marble: "--|" }
          delayedSub: "-"
        """),
    Case(
      name: "Just, Empty, Fail, publisher, Record",
      body: """
        signals:
          just: { Just: 1 }
          empty: { Empty: true }
          never: { Empty: { completeImmediately: false } }
          fail: { Fail: { error: e } }
          sequence: { publisher: [1, 2] }
          record: { Record: { output: [1, 2], completion: { failure: r } } }
        expect:
          just: "(1|)"
          empty: "|"
          never: "-"
          fail: { marble: "#", error: e }
          sequence: "(12|)"
          record: { marble: "(12#)", error: r }
        """),
    Case(
      name: "Future runs at creation and keeps its value; Deferred makes it per subscriber",
      body: """
        signals:
          load: { cold: "--5|" }
          future: { Future: { from: load } }
          lateFuture: { from: future }
          deferred: { Deferred: { Future: { from: load } } }
          lateDeferred: { from: deferred }
        expect:
          future: "--(5|)"
          lateFuture: { subscribe: "---^", marble: "---(5|)" }
          lateDeferred: { subscribe: "---^", marble: "-----(5|)" }
        """),
    Case(
      name: "Timer.publish with autoconnect starts at the first subscriber; without it at setup, for good",
      body: """
        until: 12
        signals:
          auto: [{ Timer.publish: { every: 3, on: main, in: common } }, autoconnect]
          lateAuto: [{ from: auto }, { prefix: 1 }]
          connected: [{ Timer.publish: { every: 3 } }, { prefix: 1 }]
        expect:
          lateAuto: { subscribe: "-^", marble: "----0--|" }
          connected: { subscribe: "-^", marble: "---0--|" }
        """),
    Case(
      name: "measureInterval: the frames since the previous value",
      body: """
        signals:
          out: [{ hot: "-1---2-3|" }, measureInterval]
        values: { a: 1, b: 4, c: 2 }
        expect:
          out: "-a---b-c|"
        """),
  ]

  @Test(arguments: rules + vocabulary + fromTheSource + fromTheDifferential)
  func combineReadsTheFileInItsOwnWords(_ test: Case) {
    test.check(under: "combine")
  }

  /// A default key Combine has its own word for keeps its meaning; `flowrun check` notes the word.
  @Test func aDefaultKeyCombineCallsOtherwiseIsNoted() {
    let text = """
      flowrun: 1
      name: notes
      library: combine
      signals:
        out: [{ just: 1 }, { startWith: 0 }, { skip: 1 }]
      expect:
        out: "(1|)"

      """
    let file = loadScenarios(text)
    #expect(problems(of: file) == nil)
    let notes = file.notes.map(\.message)
    #expect(
      notes == [
        "'just' keeps the default catalogue's meaning under library 'combine'; Combine calls it 'Just'",
        "'startWith' keeps the default catalogue's meaning under library 'combine'; Combine calls it 'prepend'",
        "'skip' keeps the default catalogue's meaning under library 'combine'; Combine calls it 'dropFirst'",
      ])
    #expect(file.notes.allSatisfy { $0.severity == .note })
    // Without `library:` the same keys are the default's own: no note.
    #expect(loadScenarios(text.replacingOccurrences(of: "library: combine\n", with: "")).notes.isEmpty)
  }

  /// Every definition Combine adds or redefines names a word of Combine's (a checked list, so a
  /// new row is a decision).
  @Test func combineWordsNameNoCombineStep() {
    for (key, _) in StepTable.combineWords {
      #expect(StepTable.combine.operator(named: key)?.library != .combine, "\(key)")
      #expect(StepTable.combine.source(named: key)?.library != .combine, "\(key)")
    }
  }
}
