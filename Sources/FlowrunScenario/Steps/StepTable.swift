/// The steps a scenario may write, by name: every source and operator, declared once
/// (`StepDefinition`), in catalogue order — the order in which "did you mean" suggestions try
/// them.
///
/// The compiler, the graph (through the plans the steps compile to), the trace, the docs test and
/// the schema generator all read this table; adding an operator is its observer file in
/// FlowrunCore, one definition in the group files beside this one, its docs page and a row in
/// its test table.
///
/// A library's dialect (libraries.md) is the default table overlaid with the definitions whose
/// `library` is that library: they redefine a name's meaning, or add names.
struct StepTable: Sendable {
  /// The definitions, in catalogue order.
  let definitions: [StepDefinition]
  /// Every name and alias, sources first, in catalogue order (a name that is both a source and
  /// an operator, such as `merge`, appears twice).
  let names: [String]
  /// For the default catalogue's keys the library has no operator of that name for, the
  /// library's own word (`startWith` → `prepend` under Combine): `flowrun check` names it.
  let words: [String: String]
  private let table: [String: Entry]

  /// What one name stands for: a source, an operator, or both (`merge`, `zip`).
  private struct Entry {
    var source: StepDefinition?
    var `operator`: StepDefinition?
    /// The extra keys of either, in their order.
    var extras: [String] = []
  }

  /// The default catalogue (and `library: rxjs`).
  static let standard = StepTable(library: nil)
  static let rac2 = StepTable(library: .rac2)
  static let rxswift = StepTable(library: .rxswift)
  static let combine = StepTable(library: .combine)
  static let async = StepTable(library: .async)

  /// The table a scenario in `library` reads.
  static func dialect(_ library: Library?) -> StepTable {
    switch library {
    case nil, .rxjs?: standard
    case .rac2?: rac2
    case .rxswift?: rxswift
    case .combine?: combine
    case .async?: async
    }
  }

  /// Every definition of the catalogue, in order, the libraries' last (each library's table,
  /// `LibraryTable`).
  static let catalogue: [StepDefinition] =
    sourceSteps + coreOperatorSteps + higherOrderSteps + catalogueSteps + timeSteps + sharingSteps
    + LibraryTable.all.flatMap(\.rows)

  /// The default definitions of `catalogue` overlaid with those of `library`: a definition of
  /// the library replaces the default one of the same name and role, or adds its name.
  init(_ catalogue: [StepDefinition] = Self.catalogue, library: Library?) {
    var definitions = catalogue.filter { !$0.isLibraryRow }
    for definition in catalogue where definition.library.map({ $0 == library }) ?? false {
      if let index = definitions.firstIndex(where: { $0.name == definition.name && $0.role == definition.role }) {
        definitions[index] = definition
      } else {
        definitions.append(definition)
      }
    }
    var table: [String: Entry] = [:]
    for definition in definitions {
      for name in definition.names {
        var entry = table[name] ?? Entry()
        switch definition.role {
        case .source: entry.source = definition
        case .operator: entry.operator = definition
        }
        for key in definition.extras where !entry.extras.contains(key.name) { entry.extras.append(key.name) }
        table[name] = entry
      }
    }
    self.definitions = definitions
    self.table = table
    self.words = Self.words(of: library)
    let sources = definitions.filter { $0.role == .source }.flatMap(\.names)
    self.names = sources + definitions.filter { $0.role == .operator }.flatMap(\.names)
  }

  /// Per library, its words for default keys it has no operator of that name for (its
  /// table's, `LibraryTable.words`).
  static func words(of library: Library?) -> [String: String] {
    library.flatMap(LibraryTable.of)?.words ?? [:]
  }

  /// Whether `name` is a step (a source or an operator).
  func contains(_ name: String) -> Bool {
    table[name] != nil
  }

  func source(named name: String) -> StepDefinition? {
    table[name]?.source
  }

  func `operator`(named name: String) -> StepDefinition? {
    table[name]?.operator
  }

  /// The extra keys a step written `name` may carry (a step's role is known only from its
  /// place in the signal, after its keys were checked).
  func extras(of name: String) -> [String] {
    table[name]?.extras ?? []
  }
}

extension ExtraKey {
  static let values = ExtraKey(
    name: "values", argument: .legend, summary: "The marble's own legend, over the file's values.")
  static let error = ExtraKey(
    name: "error", argument: .value, summary: "The value of '#' in this marble; default the file's error.")
  static let with = ExtraKey(
    name: "with", argument: .expression,
    summary: "The input of the call ('outer', 'input' and 'error' are bound in templates).")
  static let concurrent = ExtraKey(
    name: "concurrent", argument: .positiveCount,
    summary: "How many inner signals run at once; the rest wait in order.")
  static let seed = ExtraKey(
    name: "seed", argument: .value,
    summary: "The initial accumulator; without it the first value is the accumulator.")
  static let into = ExtraKey(
    name: "into", argument: .value,
    summary: "library: async reductions(into:_:): the initial value, not sent (the same as 'seed').")
  static let inclusive = ExtraKey(
    name: "inclusive", argument: .boolean, summary: "Also emit the first value that fails the test.")
  static let `default` = ExtraKey(
    name: "default", argument: .value, summary: "The value to emit when none is found (else an error).")
  static let leading = ExtraKey(
    name: "leading", argument: .boolean, summary: "Emit the first value of a period (default true).")
  static let trailing = ExtraKey(
    name: "trailing", argument: .boolean, summary: "Emit the last value of a period at its end (default true).")
  static let latest = ExtraKey(name: "latest", argument: .boolean, summary: "Alias of 'trailing'.")
  static let fallback = ExtraKey(
    name: "fallback", argument: .signal, summary: "The signal to switch to on timeout instead of failing.")
  static let every = ExtraKey(
    name: "every", argument: .duration,
    summary: "bufferTime: start a new buffer every duration; buffer: start a new buffer every m values.")
  static let max = ExtraKey(
    name: "max", argument: .positiveCount, summary: "Emit a buffer early once it holds this many values.")
  static let valuesPassingTest = ExtraKey(
    name: "valuesPassingTest", argument: .expression,
    summary: "RAC2 throttle:valuesPassingTest:: only the values that pass are held; the others are sent at once.")

  /// Every extra key, in the order the schema lists them.
  static let all: [ExtraKey] = [
    .values, .error, .with, .concurrent, .seed, .into, .inclusive, .default, .leading, .trailing, .latest, .fallback,
    .every, .max, .valuesPassingTest,
  ]
}
