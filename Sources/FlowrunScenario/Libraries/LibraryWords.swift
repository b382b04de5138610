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

  /// The steps: one row per default key that a library calls by another name, derived from
  /// the libraries' own tables (`StepTable.words(of:)`: each library's step file declares its
  /// map, `combineWords`, `rxSwiftWords`, `rac2Words`), so the loader's suggestions, the notes
  /// of `flowrun check` and the language server read one list of words. A library's word counts
  /// when it is one name of its dialect (`'prepend'`, `'mapReplace:'`, `'observe(on:)'`,
  /// `'receive: { on }'`); a library whose dialect has the key and names no other word for it
  /// calls it by the key (RxSwift's `ignoreElements`).
  static let steps: [LibraryWords] = stepRows()

  static func stepRows() -> [LibraryWords] {
    var rows: [String: [Library: String]] = [:]
    for library in Library.allCases {
      let dialect = StepTable.dialect(library)
      for (key, phrase) in StepTable.words(of: library) {
        guard let word = plainWord(phrase), dialect.contains(word) else { continue }
        rows[key, default: [:]][library] = word
      }
    }
    let order = StepTable.standard.names
    func rank(_ key: String) -> Int { order.firstIndex(of: key) ?? order.count }
    return rows.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }.map { key, found in
      var words = found
      for library in Library.allCases
      where words[library] == nil && StepTable.words(of: library)[key] == nil
        && StepTable.dialect(library).contains(key)
      {
        words[library] = key
      }
      return LibraryWords(flowrun: key, words: words)
    }
  }

  /// The step name a library's word for a key is written with (`'prepend'` → `prepend`,
  /// `'observe(on:)'` → `observe`, `'receive: { on }'` → `receive`); nil for a phrase of several
  /// steps (`'map' then 'switchToLatest'`, `'take:1'`).
  static func plainWord(_ phrase: String) -> String? {
    guard phrase.count > 2, phrase.first == "'", phrase.last == "'" else { return nil }
    let inner = phrase.dropFirst().dropLast()
    guard !inner.contains("'") else { return nil }
    let name = inner.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    let rest = inner.dropFirst(name.count)
    guard !name.isEmpty else { return nil }
    if rest.isEmpty || rest == ":" { return String(name) }
    if rest.hasPrefix("("), rest.hasSuffix(")") { return String(name) }
    if rest.hasPrefix(": {"), rest.hasSuffix("}") { return String(name) }
    return nil
  }

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
