import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunScenario
import FlowrunYAML

/// Reads the roles of a document's nodes into a `ScenarioIndex`: declarations, name uses,
/// marbles, step keys and expectations. It never reports anything (the loader does); a node
/// that is not what its place asks for is skipped.
struct ScenarioWalker {
  var index: ScenarioIndex
  let document: Int
  private var info: ScenarioIndex.Document!

  init(index: ScenarioIndex, document: Int) {
    self.index = index
    self.document = document
  }

  // MARK: - The top level

  mutating func walkRoot(_ root: YAMLNode) {
    guard let sections = root.mappingPairs else { return }
    info = ScenarioIndex.Document(
      number: document, root: root, name: root["name"]?.scalarValue,
      tick: root["tick"]?.scalarValue.flatMap { try? Tick(parsing: $0) } ?? .default,
      grammar: root["grammar"]?.scalarValue.flatMap(MarbleGrammar.init(rawValue:)) ?? .flowrun,
      library: root["library"]?.scalarValue.flatMap(Library.init(rawValue:)),
      values: root["values"], error: root["error"])
    declare(root)
    for section in sections {
      let value = section.value
      switch section.key.scalarValue {
      case "signals":
        for entry in pairs(value) { walkSignal(entry.value) }
      case "subjects":
        for entry in pairs(value) {
          if let target = entry.value["subscribeTo"] { walkSignal(target) }
        }
      case "properties":
        for entry in pairs(value) { walkProperty(entry.value) }
      case "commands":
        for entry in pairs(value) {
          if let enabled = entry.value["enabled"] { walkSignal(enabled) }
          if let work = entry.value["work"] { walkTemplate(work) }
        }
      case "services":
        for entry in pairs(value) {
          if let responses = entry.value["responses"] {
            for response in items(responses) { walkTemplate(response) }
          } else {
            walkTemplate(entry.value)
          }
        }
      case "effects", "timeline":
        for item in items(value) { walkAction(item) }
      case "expect":
        for entry in pairs(value) { walkExpectation(entry) }
      case "values":
        walkLegend(value)
      default:
        break
      }
    }
    index.documents.append(info)
  }

  private static let sections: [(String, ScenarioIndex.DeclarationKind)] = [
    ("signals", .signal), ("subjects", .subject), ("properties", .property), ("commands", .command),
    ("services", .service),
  ]

  private mutating func declare(_ root: YAMLNode) {
    for (section, kind) in Self.sections {
      for pair in pairs(root[section]) {
        guard let name = pair.key.scalarValue, info.declarations[name] == nil else { continue }
        info.declarations[name] = .init(name: name, kind: kind, key: pair.key, value: pair.value, document: document)
        info.order.append(name)
        index.uses.append(
          .init(
            name: name, member: nil, start: pair.key.start.offset, end: pair.key.end.offset, isDeclaration: true,
            document: document))
        if kind == .signal, let first = Self.firstStepKey(of: pair.value), first == "hot" || first == "cold" {
          info.loggedSignals.insert(name)
        }
      }
    }
  }

  /// The key of a signal's first step, when it is written as a step.
  private static func firstStepKey(of signal: YAMLNode) -> String? {
    let first = signal.sequenceItems?.first ?? signal
    return first.mappingPairs?.first?.key.scalarValue
  }

  // MARK: - Names

  /// A scalar that names a declared name, possibly with a member (`login.values`,
  /// `accountText.subscriptions`); `kinds` limits what it may name.
  private mutating func useName(_ node: YAMLNode, kinds: Set<ScenarioIndex.DeclarationKind>? = nil) {
    guard let text = node.scalarValue, node.isScalar, !text.isEmpty else { return }
    let start = Self.contentStart(of: node)
    if let declaration = info.declarations[text], kinds?.contains(declaration.kind) ?? true {
      index.uses.append(
        .init(
          name: text, member: nil, start: start, end: start + text.utf8.count, isDeclaration: false, document: document)
      )
      return
    }
    guard let dot = text.lastIndex(of: ".") else { return }
    let owner = String(text[..<dot])
    let member = String(text[text.index(after: dot)...])
    guard info.declarations[owner] != nil else { return }
    index.uses.append(
      .init(
        name: owner, member: member, start: start, end: start + owner.utf8.count, isDeclaration: false,
        document: document))
  }

  /// The byte where a scalar's text starts (after its tag, anchor and opening quote).
  private static func contentStart(of node: YAMLNode) -> Int {
    switch node.scalarStyle {
    case .singleQuoted?, .doubleQuoted?: node.end.offset - (node.scalarValue?.utf8.count ?? 0) - 1
    default: node.end.offset - (node.scalarValue?.utf8.count ?? 0)
    }
  }

  /// Names of declared properties (and other names) inside an expression string.
  private mutating func walkExpression(_ node: YAMLNode) {
    guard let text = node.scalarValue, node.isScalar else { return }
    let scalars = Array(text.unicodeScalars)
    var position = 0
    while position < scalars.count {
      let scalar = scalars[position]
      guard Self.startsName(scalar), position == 0 || !Self.continuesName(scalars[position - 1]) else {
        if scalar == "\"" { position = Self.skipString(scalars, from: position) } else { position += 1 }
        continue
      }
      var end = position
      while end < scalars.count, Self.continuesName(scalars[end]) || scalars[end] == "." { end += 1 }
      var name = String(String.UnicodeScalarView(scalars[position..<end]))
      // The longest declared prefix: `vm.account.count` names `vm.account`.
      while !name.isEmpty, info.declarations[name] == nil {
        guard let dot = name.lastIndex(of: ".") else {
          name = ""
          break
        }
        name = String(name[..<dot])
      }
      if !name.isEmpty {
        let from = index.file.location(ofScalarOffset: position, in: node).offset
        index.uses.append(
          .init(
            name: name, member: nil, start: from, end: from + name.utf8.count, isDeclaration: false, document: document)
        )
      }
      position = end
    }
  }

  private static func startsName(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
  }

  private static func continuesName(_ scalar: Unicode.Scalar) -> Bool {
    startsName(scalar) || ("0"..."9").contains(scalar) || scalar == "$"
  }

  /// The position after a string literal starting at `start` (interpolations are skipped with
  /// it: a name inside `\( … )` is not indexed).
  private static func skipString(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
    var position = start + 1
    while position < scalars.count, scalars[position] != "\"" {
      position += scalars[position] == "\\" ? 2 : 1
    }
    return position + 1
  }

  // MARK: - Signals and steps

  mutating func walkSignal(_ node: YAMLNode) {
    switch node.kind {
    case .scalar:
      useName(node)
    case .mapping:
      walkStep(node, role: .source)
    case .sequence(let items):
      for (position, item) in items.enumerated() {
        if position == 0, item.isScalar {
          useName(item)
        } else {
          walkStep(item, role: position == 0 ? .source : .operator)
        }
      }
    }
  }

  private mutating func walkProperty(_ node: YAMLNode) {
    if let observed = node["observed"] {
      // `observed:` reads a name or a list of names.
      for item in observed.sequenceItems.map(Array.init) ?? [observed] where item.isScalar { useName(item) }
      return
    }
    if let entries = node.mappingPairs,
      entries.contains(where: { $0.key.isScalar("initial") })
        || (entries.contains(where: { $0.key.isScalar("from") })
          && !entries.contains(where: { !$0.key.isScalar("from") && isStep($0.key.scalarValue) }))
    {
      if let from = node["from"] { walkSignal(from) }
      return
    }
    walkSignal(node)
  }

  /// The step names of each library's table.
  private static let stepNames: [Library?: Set<String>] = Dictionary(
    uniqueKeysWithValues: ([nil] + Library.allCases.map(Optional.some)).map { library in
      (library, Set(ScenarioVocabulary.steps(library: library).map(\.name)))
    })

  /// Whether `name` is a step in the document's library.
  private func isStep(_ name: String?) -> Bool {
    name.map { Self.stepNames[info.library]?.contains($0) ?? false } ?? false
  }

  /// A template: a signal, or `cases` whose items are `when` beside a step or `signal`.
  mutating func walkTemplate(_ node: YAMLNode) {
    guard let cases = node["cases"] else {
      walkSignal(node)
      return
    }
    for item in items(cases) {
      if let when = item["when"] { walkExpression(when) }
      if let signal = item["signal"] {
        walkSignal(signal)
      } else if item.isMapping {
        walkStep(item, role: .source)
      }
    }
  }

  private mutating func walkStep(_ node: YAMLNode, role: ScenarioVocabulary.Role) {
    if let name = node.scalarValue, node.isScalar {
      if isStep(name) { index.steps.append(.init(name: name, role: role, node: node, library: info.library)) }
      return
    }
    guard let entries = node.mappingPairs,
      let stepPair = entries.first(where: { isStep($0.key.scalarValue) }),
      let name = stepPair.key.scalarValue
    else { return }
    index.steps.append(.init(name: name, role: role, node: stepPair.key, library: info.library))
    let argument = stepPair.value
    switch StepArgument.kind(of: name, role: role, library: info.library) {
    case .marble:
      marble(argument, kind: name == "hot" ? .hot : .cold, legend: node["values"], error: node["error"])
    case .signal:
      walkSignal(argument)
    case .signals:
      walkSignals(argument)
    case .service:
      useName(argument, kinds: [.service])
    case .template:
      walkTemplate(argument)
    case .expression:
      walkExpression(argument)
    case .literal:
      break
    }
    for pair in entries where pair.key != stepPair.key {
      switch pair.key.scalarValue {
      case "with", "valuesPassingTest": walkExpression(pair.value)
      case "fallback": walkSignal(pair.value)
      case "values": walkLegend(pair.value)
      default: break
      }
    }
  }

  /// A list of signals, a map of them (keyed `combineLatest`), or one signal.
  private mutating func walkSignals(_ node: YAMLNode) {
    if let items = node.sequenceItems {
      for item in items { walkSignal(item) }
    } else if let entries = node.mappingPairs, !entries.contains(where: { isStep($0.key.scalarValue) }) {
      for pair in entries { walkSignal(pair.value) }
    } else {
      walkSignal(node)
    }
  }

  // MARK: - Marbles and legends

  private mutating func marble(
    _ node: YAMLNode, kind: ScenarioIndex.MarbleKind, legend: YAMLNode?, error: YAMLNode?
  ) {
    guard node.isScalar else { return }
    index.marbles.append(.init(node: node, kind: kind, localLegend: legend, localError: error, document: document))
  }

  /// A legend's `!cold` and `!hot` values are marbles read with the same legend.
  private mutating func walkLegend(_ node: YAMLNode) {
    for pair in pairs(node) {
      switch pair.value.tag {
      case "!cold": marble(pair.value, kind: .cold, legend: node, error: nil)
      case "!hot": marble(pair.value, kind: .hot, legend: node, error: nil)
      default: break
      }
    }
  }

  // MARK: - Effects, timeline and expectations

  private mutating func walkAction(_ node: YAMLNode) {
    for pair in pairs(node) {
      let value = pair.value
      switch pair.key.scalarValue {
      case "on": walkSignal(value)
      case "when": walkExpression(value)
      case "send", "complete", "fail", "finish": useTargets(value, kinds: [.subject])
      case "set": useTargets(value, kinds: [.property])
      case "execute": useName(value, kinds: [.command])
      case "onError", "onCompleted": walkAction(value)
      default: break
      }
    }
  }

  /// `send: status` or `send: { status: value }`: the names are the scalar, or the keys.
  private mutating func useTargets(_ node: YAMLNode, kinds: Set<ScenarioIndex.DeclarationKind>) {
    if let entries = node.mappingPairs {
      for pair in entries { useName(pair.key, kinds: kinds) }
    } else {
      useName(node, kinds: kinds)
    }
  }

  private mutating func walkExpectation(_ pair: YAMLNode.Pair) {
    guard let target = pair.key.scalarValue else { return }
    useName(pair.key)
    index.expectations.append(.init(target: target, key: pair.key, value: pair.value, document: document))
    let logs = target.hasSuffix("." + ScenarioVocabulary.subscriptionsMember) && info.declarations[target] == nil
    let value = pair.value
    if logs {
      for item in value.sequenceItems.map(Array.init) ?? [value] {
        marble(item, kind: .subscription, legend: nil, error: nil)
      }
    } else if value.isScalar {
      marble(value, kind: .expectation, legend: nil, error: nil)
    } else if let marbleNode = value["marble"] {
      marble(marbleNode, kind: .expectation, legend: value["values"], error: value["error"])
    }
    if let window = value["subscribe"] { marble(window, kind: .subscription, legend: nil, error: nil) }
    if let legend = value["values"] { walkLegend(legend) }
  }
}

/// What a step's argument holds, for indexing. (The step table's argument shapes, once they
/// are public, say the same.)
enum StepArgument {
  case marble, signal, signals, service, template, expression, literal

  static func kind(of step: String, role: ScenarioVocabulary.Role, library: Library? = nil) -> StepArgument {
    switch step {
    case "hot", "cold": .marble
    case "from", "takeUntil", "takeUntilRAC", "skipUntil", "sample", "sampleRAC", "then", "deferred", "defer",
      "takeUntilReplacement":
      .signal
    case "combineLatest", "zip", "merge", "concat", "race", "combineLatestWith", "zipWith", "mergeWith",
      "concatWith", "withLatestFrom":
      .signals
    case "call": .service
    case "flatMap", "flattenMap", "flatMapLatest", "switchMap", "concatMap", "exhaustMap", "catch": .template
    default: ScenarioVocabulary.expressionKeys(library: library).contains(step) ? .expression : .literal
    }
  }
}

/// A mapping's pairs; none when `node` is absent or not a mapping.
func pairs(_ node: YAMLNode?) -> [YAMLNode.Pair] {
  node?.mappingPairs.map(Array.init) ?? []
}

/// A sequence's items; none when `node` is absent or not a sequence.
func items(_ node: YAMLNode?) -> [YAMLNode] {
  node?.sequenceItems.map(Array.init) ?? []
}
