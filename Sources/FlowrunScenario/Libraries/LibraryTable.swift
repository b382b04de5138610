/// One library's table (libraries.md): the default catalogue with rows replaced or added, not a
/// copied list.
///
/// Each library declares its table in its own step file (`Rac2Steps.swift`,
/// `RxSwiftSteps.swift`, `CombineSteps.swift`, `AsyncSteps.swift`), each row a definition over the shared observers
/// of FlowrunCore with a variant parameter, whose docs row names the library source it follows.
/// `StepTable(library:)` lays the rows over the default catalogue, which stays as it is: a row
/// replaces the default definition of the same name and role, or adds its name. The words are
/// the library's own names for the default keys it has no operator of that name for: the notes
/// of `flowrun check`, and through `LibraryWords.steps` the loader's suggestions.
struct LibraryTable: Sendable {
  let library: Library
  /// The library's definitions, each with `library` set to it.
  let rows: [StepDefinition]
  /// Default key → the library's word for it, as prose quotes it (`"'prepend'"`).
  let words: [String: String]

  /// The table of `library`; nil for the default catalogue (`rxjs`).
  static func of(_ library: Library) -> LibraryTable? {
    switch library {
    case .rac2: rac2
    case .rxswift: rxSwift
    case .combine: combine
    case .async: async
    case .rxjs: nil
    }
  }

  /// Every library's table, in `Library` order.
  static var all: [LibraryTable] { Library.allCases.compactMap(of) }
}
