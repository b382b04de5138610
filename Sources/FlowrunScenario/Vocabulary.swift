/// The words a scenario may write, for tools outside the loader: the language server's
/// completion and hover, and the reference's check that every step has an entry.
///
/// Everything here reads the loader's own lists (`StepCatalog`, the compilers' key lists) so it
/// cannot drift from what the loader accepts. The summaries and aliases are the step table's
/// (one line per step, as the schema and the reference say it); when the step table replaces
/// `StepCatalog`, this file reads them from it instead.
public enum ScenarioVocabulary {
  /// Whether a step starts a signal or applies to the signal before it.
  public enum Role: String, Sendable {
    case source, `operator`
  }

  /// One step name (a name or an alias) in one role.
  public struct Step: Sendable, Equatable {
    public let name: String
    public let role: Role
    /// The step this name stands for: `name` itself, or the step it is an alias of.
    public let canonical: String
    /// One sentence about what the step does.
    public let summary: String
    /// The extra keys that may stand beside the step's own.
    public let extras: [String]

    public var isAlias: Bool { canonical != name }
  }

  /// The keys of a scenario's top level, in the order the reference lists them.
  public static let topLevelKeys: [String] = ScenarioCompiler.topLevelKeys

  /// Every step name and alias the loader accepts, sources first, in catalogue order (a name
  /// that is both a source and an operator, such as `merge`, appears once in each role).
  public static let steps: [Step] =
    StepCatalog.sources.map { step($0, .source) } + StepCatalog.operators.map { step($0, .operator) }

  /// The steps whose name is `name` (one per role).
  public static func steps(named name: String) -> [Step] {
    steps.filter { $0.name == name }
  }

  /// The names derived from a command: `<command>.executing` …
  public static let commandMembers: [String] = CommandState.allCases.map(\.rawValue)
  /// The name derived from a service: `<service>.calls`.
  public static let serviceMembers = ["calls"]
  /// The member that names a subscription log in `expect`: `<name>.subscriptions`.
  public static let subscriptionsMember = "subscriptions"

  /// The keys that take an expression (their value is a YAML string holding one).
  public static let expressionKeys: Set<String> = [
    "map", "filter", "scan", "reduce", "takeWhile", "skipWhile", "distinctUntilChanged", "first", "last",
    "when", "with",
  ]

  private static func step(_ name: String, _ role: Role) -> Step {
    let canonical = aliases[name] ?? name
    return Step(
      name: name, role: role, canonical: canonical,
      summary: summaries["\(role.rawValue) \(canonical)"] ?? summaries["operator \(canonical)"] ?? "",
      extras: StepCatalog.extras(of: name))
  }

  /// Other names of a step, with the same meaning.
  static let aliases: [String: String] = [
    "combineLatestWith": "combineLatest", "zipWith": "zip", "mergeWith": "merge", "concatWith": "concat",
    "doNext": "tap", "flattenMap": "flatMap", "switchMap": "flatMapLatest", "flatten": "mergeAll",
    "switchAll": "switchToLatest", "ignoreValues": "ignoreElements", "deliverOn": "observeOn",
  ]

  /// One sentence per step, keyed by role and name.
  static let summaries: [String: String] = [
    "source hot": "A hot source: events at absolute frames, shared by all subscribers; '^' marks frame 0.",
    "source cold": "A cold source: every subscription replays the marble from its own subscription frame.",
    "source from":
      "The named signal, subject, property (RACObserve: current value, then every change) or derived name.",
    "source just": "One value, then completed, at subscription.",
    "source of": "Each value of the list in order, then completed, all at subscription.",
    "source empty": "Completed at subscription (write 'empty: true').",
    "source never": "Nothing, ever (write 'never: true').",
    "source fail": "An error with this value at subscription.",
    "source interval": "0, 1, 2, … every duration, the first one a duration after subscription.",
    "source timer": "0 after the duration, then completed; or repeating with {after, every}.",
    "source combineLatest":
      "The latest value of every input once each has sent one: a list for a list of signals, a map for a map.",
    "source zip": "Pairs the inputs' values by index: a list for a list of signals, a map for a map of signals.",
    "source merge": "The inputs' events interleaved (extra key: concurrent).",
    "source concat": "The inputs one after another, each after the previous completed.",
    "source race": "The first input to emit wins (amb); the others are unsubscribed.",
    "source call": "Calls the named service once per subscription; extra key 'with' gives the input.",
    "operator map": "Transforms each value with the expression ($0 is the value).",
    "operator mapTo": "Replaces each value with this literal value.",
    "operator filter": "Passes only values for which the expression is true.",
    "operator scan": "Accumulates: $0 the accumulator, $1 the value; emits every accumulation (extra key: seed).",
    "operator distinctUntilChanged": "Drops a value equal to the previous one; with an expression, compares by that key.",
    "operator skip": "Drops the first n values.",
    "operator take": "Passes the first n values, then completes.",
    "operator takeWhile": "Passes values while the expression is true, then completes (extra key: inclusive).",
    "operator skipWhile": "Drops values while the expression is true.",
    "operator takeUntil": "Passes values until the notifier signal sends a value (its completion does nothing).",
    "operator takeUntilRAC": "RAC2 takeUntil: also completes when the notifier completes.",
    "operator startWith": "Emits these values first (a list means several values; [[a, b]] is one list value).",
    "operator combineLatest": "combineLatest of this signal and the given signal(s); values are lists.",
    "operator zip": "zip of this signal and the given signal(s); values are lists.",
    "operator merge": "Merges this signal with the given signal(s) (extra key: concurrent).",
    "operator concat": "This signal, then the given signal(s), one after another.",
    "operator tap": "A no-op marker that --trace labels.",
    "operator name": "Labels the node in traces and diagrams.",
    "operator flatMap": "Each value makes an inner signal from the template ('outer' is the value); all are merged.",
    "operator flatMapLatest": "Each value makes an inner signal; a new one cancels the previous (switchMap).",
    "operator concatMap": "Each value makes an inner signal; they run one after another.",
    "operator exhaustMap": "Each value makes an inner signal, ignored while the previous one runs.",
    "operator mergeAll": "Merges signal values (extra key: concurrent).",
    "operator switchToLatest": "Switches to the latest signal value, cancelling the previous one.",
    "operator concatAll": "Subscribes to signal values one after another.",
    "operator catch": "On error, continues with the template's signal ('error' is the error value).",
    "operator catchAndReturn": "On error, emits this value and completes.",
    "operator retry": "Re-subscribes after an error: n times, unbounded when bare, or {count, delay}.",
    "operator reduce": "Like scan, but emits only the final accumulation on completion (extra key: seed).",
    "operator pairwise": "Emits [previous, current] pairs from the second value on.",
    "operator materialize": "Turns events into values {kind: next|error|completed, value|error}.",
    "operator dematerialize": "The reverse of materialize.",
    "operator takeLast": "Emits the last n values on completion.",
    "operator skipUntil": "Drops values until the notifier signal sends a value.",
    "operator first": "The first value (or the first passing the expression), then completes (extra key: default).",
    "operator last": "The last value (or the last passing the expression), on completion (extra key: default).",
    "operator elementAt": "The value at this index, then completes (extra key: default).",
    "operator ignoreElements": "Drops every value; passes completion and error.",
    "operator ignore": "RAC2: drops values equal to this value.",
    "operator withLatestFrom": "Each value paired with the latest values of the given signal(s): [$0, $1, …].",
    "operator sample": "Emits the latest value when the sampler signal sends (ReactiveX: only a new value).",
    "operator sampleRAC": "RAC2 sample: re-emits the latest value at every sampler event.",
    "operator then": "RAC2: ignores the values, then on completion subscribes to the given signal.",
    "operator debounce": "Emits a value once no newer value came for the duration.",
    "operator throttle": "ReactiveX throttle: at most one value per duration (extra keys: leading, trailing, latest).",
    "operator delay": "Shifts every event later by the duration.",
    "operator delaySubscription": "Subscribes upstream only after the duration.",
    "operator timeout": "Fails with \"timeout\" (or switches to 'fallback') when no event comes within the duration.",
    "operator timeoutRAC": "RAC2 timeout: fails when the signal has not completed within the duration.",
    "operator bufferTime": "Collects values into a list per period, empty ones included (extra keys: every, max).",
    "operator buffer": "Collects values into lists of n (RxJS bufferCount; extra key: every).",
    "operator share": "RxJS 7 share(): one connection for all subscribers, reset after completion or error.",
    "operator shareReplay": "RxJS 7 shareReplay(n): stays connected and replays the last n values.",
    "operator replay": "RAC2 replay: connects at once and replays every value.",
    "operator replayLast": "RAC2 replayLast: connects at once and replays the last value.",
    "operator replayLazily": "RAC2 replayLazily: connects at the first subscription and replays every value.",
    "operator observeOn": "Re-delivers each event as a new scheduler action at the same frame; the argument names the queue.",
  ]
}
