import FlowrunDiagnostics

/// The words each library uses for one thing flowrun names (libraries.md): a step (Combine's
/// `ignoreOutput` is RxSwift's `ignoreElements` and RAC2's `ignoreValues`) or a member of a
/// command (RAC2's `executionSignals` are flowrun's `executions`). The loader consults it when a
/// name is unknown, to suggest the word of the file's library.
///
/// One row per thing; a library without a word of its own leaves it out, and the default
/// catalogue's word (`flowrun`) is what every library reads when its own is not in its table.
struct LibraryWords: Sendable {
  /// The default catalogue's word.
  let flowrun: String
  /// Each library's word.
  let words: [Library: String]

  /// The steps.
  static let steps: [LibraryWords] = [
    LibraryWords(
      flowrun: "ignoreElements",
      words: [.rac2: "ignoreValues", .rxswift: "ignoreElements", .combine: "ignoreOutput", .rxjs: "ignoreElements"]),
    LibraryWords(
      flowrun: "distinctUntilChanged",
      words: [.rxswift: "distinctUntilChanged", .combine: "removeDuplicates", .rxjs: "distinctUntilChanged"]),
    LibraryWords(flowrun: "startWith", words: [.rac2: "startWith", .rxswift: "startWith", .combine: "prepend"]),
    LibraryWords(flowrun: "skip", words: [.rac2: "skip", .rxswift: "skip", .combine: "dropFirst"]),
    LibraryWords(flowrun: "take", words: [.rac2: "take", .rxswift: "take", .combine: "prefix"]),
    LibraryWords(flowrun: "mapTo", words: [.rac2: "mapReplace", .rxjs: "mapTo"]),
    LibraryWords(flowrun: "exhaustMap", words: [.rxswift: "flatMapFirst", .rxjs: "exhaustMap"]),
    LibraryWords(flowrun: "switchMap", words: [.rxswift: "flatMapLatest", .rxjs: "switchMap"]),
    LibraryWords(flowrun: "catchAndReturn", words: [.rxswift: "catchAndReturn", .combine: "replaceError"]),
    LibraryWords(flowrun: "defaultIfEmpty", words: [.combine: "replaceEmpty", .rxjs: "defaultIfEmpty"]),
  ]

  /// The keys beside a step that are some libraries' own words (by step, then key): a file of
  /// another library that writes one is told whose they are.
  static let keys: [String: [String: [Library]]] = [
    "throttle": ["latest": [.rxswift, .combine]]
  ]

  /// The members of a command (`<command>.<member>`).
  static let commandMembers: [LibraryWords] = [
    LibraryWords(flowrun: "executions", words: [.rac2: "executionSignals", .rxswift: "executionObservables"]),
    LibraryWords(flowrun: "values", words: [.rxswift: "elements"]),
    LibraryWords(flowrun: "errors", words: [.rac2: "errors", .rxswift: "errors"]),
    LibraryWords(flowrun: "executing", words: [.rac2: "executing", .rxswift: "executing"]),
    LibraryWords(flowrun: "enabled", words: [.rac2: "enabled", .rxswift: "enabledIf"]),
  ]

  /// Whose word `word` is, as prose says it ("RAC2's", "Combine's and RxJS's").
  func owners(of word: String) -> String? {
    let owners = Library.allCases.filter { words[$0] == word }.map { "\($0.title)'s" }
    guard !owners.isEmpty else { return nil }
    return owners.count == 1 ? owners[0] : owners.dropLast().joined(separator: ", ") + " and " + owners.last!
  }

  /// The word a scenario of `library` writes for what another library calls `word` (not `word`
  /// itself), among the words `known` accepts; nil when `word` is in no row.
  static func word(
    for word: String, in rows: [LibraryWords], library: Library?, known: (String) -> Bool
  ) -> (word: String, row: LibraryWords)? {
    for row in rows where row.words.values.contains(word) || row.flowrun == word {
      let own = row.words[library ?? .rxjs]
      for candidate in [own, row.flowrun].compactMap({ $0 }) where candidate != word && known(candidate) {
        return (candidate, row)
      }
    }
    return nil
  }

  /// "did you mean 'x'? ('w' is Combine's word; library 'rxswift' calls it 'x')".
  /// `owner`: the name the word is a member of (`login` for `login.executionSignals`).
  static func suggestion(
    _ word: String, _ found: (word: String, row: LibraryWords), library: Library?, owner: String? = nil
  ) -> String {
    var text = "did you mean '\(owner.map { $0 + "." } ?? "")\(found.word)'?"
    if let owners = found.row.owners(of: word) {
      let own = library.map { found.row.words[$0] == found.word } ?? false
      let reader = own ? "library '\((library ?? .rxjs).rawValue)'" : "flowrun"
      text += " ('\(word)' is \(owners) word; \(reader) calls it '\(found.word)')"
    }
    return text
  }
}
