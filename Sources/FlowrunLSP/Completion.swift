import FlowrunDiagnostics
import FlowrunScenario
import FlowrunYAML

/// `textDocument/completion`: top-level keys, step names, extra keys, names and derived names,
/// expectation targets, and legend tokens inside marbles.
enum Completion {
  static func items(_ document: OpenDocument, at position: Position) -> JSONValue {
    let lines = document.lines
    guard let context = CompletionContext(lines: lines, line: position.line, character: position.character) else {
      return .array([])
    }
    let replace = TextRange(
      start: Position(line: position.line, character: max(0, position.character - context.partialLength)),
      end: position)
    let offset = lines.byteOffset(of: position)
    let names = document.namesIndex(editing: position.line)
    let library = Self.document(names, offset)?.library
    let role = Role(path: context.path, library: library)
    var items: [Item] = []
    switch context.place {
    case .key(let siblings):
      items = keyItems(role: role, siblings: siblings, names: names, offset: offset, library: library)
    case .item(let position):
      items = itemItems(role: role, position: position, names: names, offset: offset, library: library)
    case .value:
      items = valueItems(role: role, names: names, offset: offset)
    case .quoted(let tag):
      if role.isMarble || tag == "!cold" || tag == "!hot" {
        items = legendItems(document.index, names: names, offset: offset)
      }
    }
    return ["isIncomplete": false, "items": .array(items.map { $0.json(replacing: replace) })]
  }

  // MARK: - By place

  private static func keyItems(
    role: Role, siblings: [String], names: ScenarioIndex, offset: Int, library: Library?
  ) -> [Item] {
    switch role {
    case .root:
      return ScenarioVocabulary.topLevelKeys.filter { !siblings.contains($0) }.map {
        Item(label: $0, kind: .keyword, detail: "scenario key")
      }
    case .step(let first), .caseItem(let first):
      var result: [Item] = []
      if let step = siblings.lazy.compactMap({ name in ScenarioVocabulary.steps(named: name, library: library).first })
        .first
      {
        result = step.extras.filter { !siblings.contains($0) }.map {
          Item(label: $0, kind: .property, detail: "extra key of '\(step.name)'")
        }
      } else {
        result = stepItems(first ? .source : .operator, library: library)
      }
      if case .caseItem = role {
        result += ["when", "signal"].filter { !siblings.contains($0) }.map {
          Item(label: $0, kind: .keyword, detail: "case key")
        }
      }
      return result
    case .signal, .template:
      var result = stepItems(.source, library: library)
      if case .template = role { result.append(Item(label: "cases", kind: .keyword, detail: "template cases")) }
      if case .signal(let property) = role, property {
        result += ["from", "initial", "observed"].map { Item(label: $0, kind: .keyword, detail: "property key") }
      }
      return result
    case .expect:
      return targetItems(names, offset: offset)
    case .expectation:
      return fixedKeys(["marble", "values", "error", "subscribe"], siblings, "expectation key")
    case .action:
      let words = LibraryProfile.of(library).actionWords.keys.sorted()
      return fixedKeys(
        ["on", "at", "when", "send", "set", "execute", "input", "complete", "fail", "onError", "onCompleted"] + words,
        siblings, "action key")
    case .command:
      return fixedKeys(["enabled", "concurrent", "work"], siblings, "command key")
    case .subject:
      return fixedKeys(["rac", "replay", "behavior", "subscribeTo"], siblings, "subject key")
    case .names(let kinds):
      return nameItems(names, offset: offset, kinds: kinds, derived: false)
    default:
      return []
    }
  }

  private static func itemItems(
    role: Role, position: Int, names: ScenarioIndex, offset: Int, library: Library?
  ) -> [Item] {
    switch role {
    case .signal, .template:
      return position == 0
        ? nameItems(names, offset: offset) + stepItems(.source, library: library)
        : stepItems(.operator, library: library)
    case .signals:
      return nameItems(names, offset: offset)
    case .cases:
      return stepItems(.source, library: library) + [Item(label: "when", kind: .keyword, detail: "case key")]
    case .actions:
      return fixedKeys(["on", "at"], [], "action key")
    default:
      return []
    }
  }

  private static func valueItems(role: Role, names: ScenarioIndex, offset: Int) -> [Item] {
    switch role {
    case .signal, .signals, .template: nameItems(names, offset: offset)
    case .names(let kinds): nameItems(names, offset: offset, kinds: kinds, derived: false)
    default: []
    }
  }

  private static func fixedKeys(_ keys: [String], _ siblings: [String], _ detail: String) -> [Item] {
    keys.filter { !siblings.contains($0) }.map { Item(label: $0, kind: .keyword, detail: detail) }
  }

  // MARK: - Items

  /// The steps of the document's library (its own names and forms first).
  private static func stepItems(_ role: ScenarioVocabulary.Role, library: Library?) -> [Item] {
    let steps = ScenarioVocabulary.steps(library: library).filter { $0.role == role }
    let own = steps.filter(\.isLibraryRow)
    return (own + steps.filter { !$0.isLibraryRow }).map { step in
      var detail = step.isAlias ? "\(role.rawValue), alias of \(step.canonical)" : role.rawValue
      if let owner = step.library ?? step.aliasLibrary { detail += " · \(owner.title)" }
      return Item(label: step.name, kind: .operator, detail: detail, documentation: step.summary)
    }
  }

  /// Declared names, and the derived names of commands and services.
  private static func nameItems(
    _ names: ScenarioIndex, offset: Int, kinds: Set<ScenarioIndex.DeclarationKind>? = nil, derived: Bool = true
  ) -> [Item] {
    guard let info = document(names, offset) else { return [] }
    var result: [Item] = []
    for name in info.order {
      guard let declaration = info.declarations[name] else { continue }
      if kinds?.contains(declaration.kind) ?? (declaration.kind != .command && declaration.kind != .service) {
        result.append(Item(label: name, kind: Item.Kind(declaration.kind), detail: declaration.kind.rawValue))
      }
      guard derived else { continue }
      let members =
        switch declaration.kind {
        case .command: ScenarioVocabulary.commandMembers
        case .service: ScenarioVocabulary.serviceMembers
        default: [String]()
        }
      for member in members {
        result.append(
          Item(label: "\(name).\(member)", kind: .field, detail: "derived from \(declaration.kind.rawValue) \(name)"))
      }
    }
    return result
  }

  /// What `expect` may name: names, derived names and subscription logs.
  private static func targetItems(_ names: ScenarioIndex, offset: Int) -> [Item] {
    var result = nameItems(names, offset: offset)
    guard let info = document(names, offset) else { return result }
    for name in info.order {
      guard let declaration = info.declarations[name],
        declaration.kind == .subject || info.loggedSignals.contains(name)
      else { continue }
      result.append(
        Item(
          label: "\(name).\(ScenarioVocabulary.subscriptionsMember)", kind: .field,
          detail: "subscription log of \(declaration.kind.rawValue) \(name)"))
    }
    return result
  }

  /// The tokens of the marble's own legend (when the text parses), then of the file's.
  private static func legendItems(_ current: ScenarioIndex, names: ScenarioIndex, offset: Int) -> [Item] {
    var result: [Item] = []
    var seen: Set<String> = []
    func add(_ legend: YAMLNode?, _ index: ScenarioIndex, _ detail: String) {
      for pair in pairs(legend) {
        guard let key = pair.key.scalarValue, seen.insert(key).inserted else { continue }
        let token = key.unicodeScalars.count == 1 ? key : "'\(key)'"
        result.append(Item(label: token, kind: .value, detail: "\(detail): \(index.sourceText(of: pair.value))"))
      }
    }
    if let site = current.marble(at: offset) ?? current.marble(at: offset - 1) {
      add(site.localLegend, current, "values")
    }
    if let info = document(names, offset) { add(info.values, names, "file values") }
    return result
  }

  private static func document(_ index: ScenarioIndex, _ offset: Int) -> ScenarioIndex.Document? {
    guard let number = index.document(at: offset) else { return nil }
    return index.documentInfo(number)
  }

  // MARK: - Roles

  /// What the node at a path is, as completion needs it.
  enum Role: Equatable {
    case root, declarations(String), signal(property: Bool), signals, template, cases, caseItem(first: Bool)
    case step(first: Bool), marble, expect, expectation, actions, action, command, subject, legend
    case names(Set<ScenarioIndex.DeclarationKind>)
    case other

    /// A marble string: a `hot`/`cold` argument, an expectation or its `marble`/`subscribe`.
    var isMarble: Bool { self == .marble || self == .expectation }

    init(path: [CompletionContext.Segment], library: Library? = nil) {
      var role = Role.root
      for segment in path { role = role.child(segment, library: library) }
      self = role
    }

    private func child(_ segment: CompletionContext.Segment, library: Library?) -> Role {
      switch (self, segment) {
      case (.root, .key(let key)):
        switch key {
        case "signals", "subjects", "properties", "commands", "services": return .declarations(key)
        case "effects", "timeline": return .actions
        case "expect": return .expect
        case "values": return .legend
        default: return .other
        }
      case (.declarations(let section), .key):
        switch section {
        case "signals": return .signal(property: false)
        case "properties": return .signal(property: true)
        case "commands": return .command
        case "subjects": return .subject
        default: return .template
        }
      case (.command, .key(let key)):
        return key == "enabled" ? .signal(property: false) : key == "work" ? .template : .other
      case (.subject, .key(let key)): return key == "subscribeTo" ? .signal(property: false) : .other
      case (.template, .key("responses")): return .signals
      case (.template, .key("cases")): return .cases
      case (.cases, .item(let position)): return .caseItem(first: position == 0)
      case (.caseItem, .key("signal")): return .signal(property: false)
      case (.caseItem, .key("when")): return .other
      case (.signal(let property), .key("from")) where property: return .signal(property: false)
      case (.signal, .item(let position)), (.template, .item(let position)): return .step(first: position == 0)
      case (.signals, .item), (.signals, .key): return .signal(property: false)
      case (.signal, .key(let key)), (.template, .key(let key)), (.step, .key(let key)), (.caseItem, .key(let key)):
        return Self.argument(of: key, library: library)
      case (.actions, .item): return .action
      case (.action, .key(let key)):
        switch key {
        case "on": return .signal(property: false)
        case "onError", "onCompleted": return .action
        case "send", "complete", "fail", "finish": return .names([.subject])
        case "set": return .names([.property])
        case "execute": return .names([.command])
        default: return .other
        }
      case (.expect, .key): return .expectation
      case (.expectation, .key(let key)): return key == "marble" || key == "subscribe" ? .marble : .other
      case (.expectation, .item): return .marble
      default: return .other
      }
    }

    /// The role of a step's argument or extra key.
    private static func argument(of key: String, library: Library?) -> Role {
      switch key {
      case "hot", "cold": return .marble
      case "fallback": return .signal(property: false)
      case "values": return .legend
      case "call": return .names([.service])
      default: break
      }
      guard let step = ScenarioVocabulary.steps(named: key, library: library).first else { return .other }
      switch StepArgument.kind(of: step.name, role: step.role, library: library) {
      case .signal: return .signal(property: false)
      case .signals: return .signals
      case .template: return .template
      default: return .other
      }
    }
  }
}

/// One completion item.
struct Item {
  /// LSP CompletionItemKind numbers.
  enum Kind: Int {
    case function = 3, field = 5, variable = 6, interface = 8, property = 10, value = 12, keyword = 14, event = 23,
      `operator` = 24

    init(_ declaration: ScenarioIndex.DeclarationKind) {
      switch declaration {
      case .signal: self = .event
      case .subject: self = .variable
      case .property: self = .property
      case .command: self = .function
      case .service: self = .interface
      }
    }
  }

  var label: String
  var kind: Kind
  var detail: String
  var documentation: String? = nil

  func json(replacing range: TextRange) -> JSONValue {
    var result: [String: JSONValue] = [
      "label": .string(label), "kind": .int(kind.rawValue), "detail": .string(detail),
      "textEdit": ["range": range.json, "newText": .string(label)],
    ]
    if let documentation { result["documentation"] = .string(documentation) }
    return .object(result)
  }
}
