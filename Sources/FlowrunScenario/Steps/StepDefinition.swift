import FlowrunCore
import FlowrunYAML

/// One step of the catalogue — a source or an operator — declared once (StepTable.swift).
///
/// The compiler finds a step by its name or an alias and calls `compile`, which checks the
/// argument and the extra keys and returns the step's plan; the plan makes the step's source in
/// each run (`Graph`) and names it in traces. The docs test reads `docs`, and
/// `schemas/steps.json` — from which `schemas/scenario_schema.py` builds the JSON Schema — is the
/// table written out (`StepTableDumpTests`).
final class StepDefinition: Sendable {
  /// How a step compiles: a source starts a signal, an operator applies to the signal before it.
  enum Compile: Sendable {
    case source(@Sendable (SourceCompilation) -> (SignalPlan, ValueShape)?)
    case `operator`(@Sendable (OperatorCompilation) -> (SignalPlan, ValueShape)?)
  }

  enum Role: String, Sendable {
    case source, `operator`
  }

  /// Where a step is documented.
  enum Docs: Sendable, Equatable {
    /// Its page `docs/operators/<name>.md`, whose example `docs/operators/examples/<name>.yaml`
    /// runs as a test.
    case page(String)
    /// Only in the spec's scenario-format.md (the steps of the first version).
    case spec
  }

  /// The name as written in a scenario; `aliases` are other names for the same step.
  let name: String
  let aliases: [Alias]
  let argument: ArgumentShape
  /// The keys that may stand beside the step's own, in the order suggestions try them.
  let extras: [ExtraKey]
  /// One sentence for the schema (and editors' completion).
  let summary: String
  let docs: Docs
  /// The step's name in traces, when not its `name` (a plan may still choose another).
  let traceLabel: String
  /// The library whose dialect this definition belongs to; nil for the default catalogue,
  /// which every library reads unless it redefines or rejects the name (libraries.md).
  let library: Library?
  /// A row of a library's table, not of the default catalogue.
  var isLibraryRow: Bool { library != nil }
  /// For a library's own name, the default catalogue's step nearest to it (`exhaustMap` for
  /// RxSwift's `flatMapFirst`), named when a scenario of another library writes it.
  let nearest: String?
  /// How the step drops values, when dropping is part of what it does: the trace reports each
  /// dropped value with this reason (`trace --steps`). Nil for a step that passes every value
  /// on, or holds values for later (`delay`, `buffer`).
  let drops: TraceStep.Drops?
  let compile: Compile

  var role: Role {
    if case .source = compile { return .source }
    return .operator
  }

  /// The name and the aliases.
  var names: [String] { [name] + aliases.map(\.name) }

  /// Whether the step's own key, or one of its extra keys, holds an expression.
  var takesExpression: Bool {
    argument.isExpression || extras.contains { $0.argument.isExpression }
  }

  private init(
    _ name: String, aliases: [Alias], argument: ArgumentShape, extras: [ExtraKey], summary: String, docs: Docs,
    trace: String?, library: Library?, nearest: String? = nil, drops: TraceStep.Drops? = nil, compile: Compile
  ) {
    self.name = name
    self.aliases = aliases
    self.argument = argument
    self.extras = extras
    self.summary = summary
    self.docs = docs
    self.traceLabel = trace ?? name
    self.library = library
    self.nearest = nearest
    self.drops = drops
    self.compile = compile
  }

  /// A source step (the first step of a signal); its argument is required.
  static func source(
    _ name: String, _ argument: ArgumentShape, extras: [ExtraKey] = [], summary: String, docs: Docs = .spec,
    library: Library? = nil, compile: @escaping @Sendable (SourceCompilation) -> (SignalPlan, ValueShape)?
  ) -> StepDefinition {
    StepDefinition(
      name, aliases: [], argument: argument, extras: extras, summary: summary, docs: docs, trace: nil,
      library: library, compile: .source(compile))
  }

  /// An operator step (any step after the first).
  static func `operator`(
    _ name: String, _ argument: ArgumentShape, aliases: [Alias] = [], extras: [ExtraKey] = [], summary: String,
    docs: Docs = .spec, trace: String? = nil, library: Library? = nil, nearest: String? = nil,
    drops: TraceStep.Drops? = nil, compile: @escaping @Sendable (OperatorCompilation) -> (SignalPlan, ValueShape)?
  ) -> StepDefinition {
    StepDefinition(
      name, aliases: aliases, argument: argument, extras: extras, summary: summary, docs: docs, trace: trace,
      library: library, nearest: nearest, drops: drops, compile: .operator(compile))
  }
}

/// Another name for a step, with the same meaning (RAC2's `flattenMap` for `flatMap`).
struct Alias: Sendable {
  let name: String
  /// The library the name comes from; the schema describes the alias as "<library> name of
  /// <step>", or, without one, as the step itself.
  let library: Library?

  init(_ name: String, of library: Library? = nil) {
    self.name = name
    self.library = library
  }
}

/// The libraries whose names and meanings a scenario may ask for (libraries.md).
public enum Library: String, CaseIterable, Sendable {
  case rac2, rxswift, combine, async, rxjs

  /// The name as prose writes it.
  public var title: String {
    switch self {
    case .rac2: "RAC2"
    case .rxswift: "RxSwift"
    case .combine: "Combine"
    case .async: "AsyncSequence"
    case .rxjs: "RxJS"
    }
  }
}

/// What a step's key (or an extra key) takes: scenario-format.md's "argument" column. The
/// schema generator names its argument types after these cases (`schemas/steps.json`).
enum ArgumentShape: String, Sendable {
  /// Nothing: the step is written bare (or with `true` or null).
  case bare
  case marble, name, value, list, legend, string, boolean, expression
  /// `true` (`empty: true`).
  case `true`
  /// A number of frames or a duration such as `500ms`, ≥ 0 (`positiveDuration`: ≥ 1 frame).
  case duration, positiveDuration
  /// An integer ≥ 0 (`positiveCount`: ≥ 1).
  case count, positiveCount
  /// Bare, or an expression (`distinctUntilChanged`, `first`).
  case optionalExpression
  /// A signal: a name, a step or a list of steps (`signals`: a list of them, or one).
  case signal, signals
  /// A signal made anew per value (`flatMap`), or `cases`.
  case template
  /// A duration, or `{after, every}` (`timer`).
  case timer
  /// A list or a map of signals (`combineLatest`, `zip` as sources).
  case combination
  /// Bare, a count, or `{count, delay}` (`retry`).
  case retry
  /// As a library's call writes it: the default form of the key, or a mapping of the call's
  /// labels (Combine's `throttle: { for: 5, latest: true }`, RxSwift's `share: { replay: 1 }`).
  case labels

  /// Whether the argument is an expression (or may be one).
  var isExpression: Bool {
    self == .expression || self == .optionalExpression
  }

  /// Whether the step may be written without an argument.
  var mayBeBare: Bool {
    switch self {
    case .bare, .optionalExpression, .retry, .labels: true
    default: false
    }
  }
}

/// A key that may stand beside a step's own key (`seed:` beside `scan:`).
struct ExtraKey: Sendable {
  let name: String
  let argument: ArgumentShape
  let summary: String

  /// The same key taking another argument beside one step (`every:` is a count beside `buffer`).
  func taking(_ argument: ArgumentShape) -> ExtraKey {
    ExtraKey(name: name, argument: argument, summary: summary)
  }
}
