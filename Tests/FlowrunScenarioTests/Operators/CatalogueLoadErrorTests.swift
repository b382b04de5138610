import Testing

/// Load-time errors of the new operators' steps.
@Suite struct CatalogueLoadErrorTests {
  @Test(arguments: [
    ("s: [{ hot: '-a|' }, { takeLast: -1 }]", "'takeLast' must be an integer ≥ 0, found -1"),
    ("s: [{ hot: '-a|' }, { elementAt: x }]", "'elementAt' must be an integer, found 'x'"),
    ("s: [{ hot: '-a|' }, { bufferTime: 0 }]", "'bufferTime' must be at least one frame, found 0"),
    ("s: [{ hot: '-a|' }, { buffer: 0 }]", "'buffer' must be an integer ≥ 1, found 0"),
    ("s: [{ hot: '-a|' }, { pairwise: 3 }]", "'pairwise' takes no argument"),
    ("s: [{ hot: '-a|' }, { debounce: -2 }]", "'debounce' must not be negative, found -2"),
    (
      "s: [{ hot: '-a|' }, { throttle: 2, trailing: false, latest: false }]",
      "'latest' is an alias of 'trailing'; write only one of them"
    ),
    ("s: [{ hot: '-a|' }, { throttle: 2, leading: yes }]", "'leading' must be true or false, found 'yes'"),
    ("s: [{ hot: '-a|' }, { first: '$0 >', default: 1 }]", "unexpected end of expression"),
    ("s: [{ hot: '-a|' }, { first: '$0', seed: 1 }]", "unknown key 'seed' in step 'first'"),
    ("s: [{ hot: '-a|' }, { reduce: '$0 + $1', sed: 1 }]", "unknown key 'sed' in step 'reduce'; did you mean 'seed'?"),
    ("s: [{ hot: '-a|' }, reduce]", "'reduce' needs an argument"),
    ("s: [{ hot: '-a|' }, { withLatestFrom: nope }]", "nope"),
    ("s: [{ hot: '-a|' }, { timeout: 3, fallback: nope }]", "nope"),
    ("s: [{ hot: '-a|' }, { observeOn: 3 }]", "'observeOn' must be a string, found 3"),
    ("s: [{ hot: '-a|' }, { shareReplay: -1 }]", "'shareReplay' must be an integer ≥ 0, found -1"),
  ])
  func reportsTheError(_ signal: String, _ message: String) {
    let errors = loadErrors("signals:\n  \(signal)\n")
    #expect(errors.contains { $0.contains(message) }, "got: \(errors)")
  }

  @Test func aDurationThatIsNotWholeTicksIsAnError() {
    let errors = loadErrors("tick: 100ms\nsignals:\n  s: [{ hot: '-a|' }, { delay: 250ms }]\n")
    #expect(errors.contains { $0.contains("duration 250ms is not a whole number of ticks") }, "got: \(errors)")
  }
}
