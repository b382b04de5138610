import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunMarbles
import FlowrunYAML
import OrderedCollections

/// Turns one YAML document into a validated `Scenario`, reporting every problem it finds.
final class ScenarioCompiler {
  enum DeclarationKind: String {
    case signal, subject, property, command, service
  }

  struct Declaration {
    var kind: DeclarationKind
    var node: YAMLNode
    var keyNode: YAMLNode
  }

  /// The declared names in file order, with their declarations, each at an index (a hash
  /// table of indices and arrays rather than an `OrderedDictionary`, which a debug build runs
  /// many times slower). Passes over every declaration read the arrays, without hashing.
  struct Declarations: Sequence {
    private var indices: [String: Int] = [:]
    private(set) var keys: [String] = []
    private var values: [Declaration] = []

    var count: Int { keys.count }

    subscript(name: String) -> Declaration? { indices[name].map { values[$0] } }
    subscript(index: Int) -> Declaration { values[index] }

    /// The index of `name`'s declaration.
    func index(of name: String) -> Int? { indices[name] }

    /// Adds `name` unless it is declared already; returns the first declaration then.
    mutating func addNew(_ name: String, _ declaration: Declaration) -> Declaration? {
      let index = indices[name, default: keys.count]
      guard index == keys.count else { return values[index] }
      indices[name] = index
      keys.append(name)
      values.append(declaration)
      return nil
    }

    mutating func reserveCapacity(_ additional: Int) {
      indices.reserveCapacity(indices.count + additional)
      keys.reserveCapacity(keys.count + additional)
      values.reserveCapacity(values.count + additional)
    }

    func makeIterator() -> Iterator { Iterator(keys: keys, values: values) }

    /// A plain index walk: a debug build runs lazy and zipped sequences many times slower.
    struct Iterator: IteratorProtocol {
      let keys: [String]
      let values: [Declaration]
      var index = 0

      mutating func next() -> (key: String, value: Declaration)? {
        guard index < keys.count else { return nil }
        defer { index += 1 }
        return (keys[index], values[index])
      }
    }
  }

  static let topLevelKeys = [
    "flowrun", "name", "description", "tags", "library", "tick", "grammar", "values", "error", "signals",
    "subjects", "properties", "commands", "services", "effects", "timeline", "until", "exhaustive", "limit",
    "expect", "invariants", "explore",
  ]

  var context: LoadContext
  /// The steps signals may use: the default catalogue, or a library's dialect of it.
  var steps = StepTable.standard
  /// The library `flowrun run --library` asks for, which a file without `library:` is read in.
  let requestedLibrary: Library?
  /// Whether `requestedLibrary` overrides the file's own `library:` (`flowrun compare`).
  var forcesLibrary = false
  var plan = ScenarioPlan()
  var tick = Tick.default
  var grammar = MarbleGrammar.flowrun
  var errorValue: Value = .string("error")
  var marbleLimits = MarbleLimits()
  var declarations = Declarations()
  var propertyNames: [String] = []
  var templateNames: ExpressionScope.TemplateNames = []
  /// The named signal being compiled, to label its nodes.
  var currentName: String?
  /// The declared name (signal, subject, property, command, service) being compiled, for the
  /// references and docs rows it records (`refers(to:)`, `usesRow`).
  var referringName: String?
  /// Steps of the signal lists being compiled, one inside another (ScenarioCompiler+Signals.swift).
  var stepNesting = 0
  /// Whether the values reaching the step being compiled may come from a property (nil until
  /// set), for the hint of a run-time read of nil.
  var stepInputReadsProperty = false
  /// Load-time value kinds (ValueKinds.swift): of the source step just compiled, of the input of
  /// the operator being compiled, and of each named signal whose values are all known.
  var knownKinds = KnownKinds()
  /// The document being compiled.
  var root: YAMLNode?
  /// The name of the step after the one being compiled in its chain (nil at a chain's end): a
  /// Combine `ConnectablePublisher` (`multicast`, `Timer.publish`) reads whether `autoconnect`
  /// follows it. Read it before compiling nested signals, which set it for their own steps.
  var followingStepName: String?
  static let maxStepNesting = 10_000
  /// `limit.expression`: the deepest nesting of an expression (default 256, at most 10,000).
  var expressionDepth = 256
  static let maxExpressionDepth = 10_000
  /// The most characters `limit.marble` may allow in one marble.
  static let maxMarbleCharacters = 10_000_000
  /// Where the compilation of the named signals stands (ScenarioCompiler+NamedSignals.swift).
  var named = NamedSignalState()
  /// Combine `assign` steps: the property each binds, with the signal before the step.
  var assignments: [(property: String, plan: SignalPlan, node: YAMLNode)] = []
  /// The file legend as expectations see it, resolved once (`expectedFileLegend()`), with the
  /// key found to contain itself, if any.
  private var resolvedFileLegend: (legend: ExpectedLegend, cycle: String?)?

  init(file: YAMLFile, library: Library? = nil) {
    context = LoadContext(file: file)
    requestedLibrary = library
  }

  /// Compiles the document rooted at `root`; nil (with diagnostics) when it has errors.
  func compile(_ root: YAMLNode) -> Scenario? {
    guard let pairs = context.mapping(root, "a scenario") else { return nil }
    self.root = root
    context.checkKeys(pairs, allowed: Self.topLevelKeys, in: "the scenario")
    readVersion(root)
    readLibrary(root)
    let name = required(root, "name").flatMap { context.string($0, "'name'") }
    let description = root["description"].flatMap { context.string($0, "'description'") }
    let tags = root["tags"].flatMap { readTags($0) } ?? []
    if let node = root["tick"], let text = node.scalarValue {
      do throws(DurationError) {
        tick = try Tick(parsing: text)
      } catch {
        context.error(error, at: node)
      }
    }
    if let node = root["grammar"], let text = context.string(node, "'grammar'") {
      if let value = MarbleGrammar(rawValue: text) {
        grammar = value
      } else {
        context.error(.unknownGrammar(text), at: node)
      }
    }
    if let node = root["error"] { errorValue = context.value(node) }
    if let node = root["limit"] { readLimits(node) }
    if let node = root["values"] { plan.fileLegend = legendEntries(node, isFileLegend: true) ?? .empty }
    declare(root)
    compileSubjects()
    compileServices()
    compileCommands()
    compileSignals()
    compileProperties()
    if let node = root["effects"] { compileEffects(node) }
    if let node = root["timeline"] { compileTimeline(node) }
    if let node = root["until"] { plan.until = frames(node, "'until'", minimum: 0) }
    if let node = root["exhaustive"], let exhaustive = context.bool(node, "'exhaustive'") {
      plan.exhaustive = exhaustive
    }
    let expectations = root["expect"].map { compileExpectations($0) } ?? []
    if let node = root["invariants"] { compileInvariants(node) }
    if let node = root["explore"] { compileExplore(node) }
    plan.resolvedHotEvents = plainHotEvents()
    // Resolved events replace the parsed items (a million-event marble holds both otherwise).
    for (index, events) in plan.resolvedHotEvents.enumerated() where events != nil {
      plan.hotMarbles[index].marble.items = []
      plan.hotMarbles[index].events = nil
    }
    guard !context.hasErrors, let name else { return nil }
    return Scenario(
      path: context.file.path, name: name, description: description, tags: tags,
      location: root.start, tick: tick, grammar: grammar,
      fileLegend: expectedFileLegend(), errorValue: errorValue,
      expectations: expectations, file: context.file, plan: plan)
  }

  /// The events of every hot marble, resolved once at load when no legend in reach holds a signal
  /// value (those are made anew for each run), so a run needs no legend look-up.
  private func plainHotEvents() -> [EventTape?] {
    guard plan.fileLegend.isPlain else { return [] }
    var resolver = LegendResolver(plan: plan) { _, _, _ in .null }
    return plan.hotMarbles.map { $0.localLegend.isPlain ? resolver.tape(of: $0) : nil }
  }

  private func required(_ root: YAMLNode, _ key: String) -> YAMLNode? {
    if let node = root[key] { return node }
    context.error(.missingRequiredKey(key), at: root)
    return nil
  }

  private func readVersion(_ root: YAMLNode) {
    guard let node = required(root, "flowrun") else { return }
    guard case .int(let version) = node.resolvedScalar, version == 1 else {
      let text = node.resolvedScalar.map { _ in context.describe(node) } ?? "a \(node.kindName)"
      context.error(.unsupportedFormat(text), at: node)
      return
    }
  }

  private func readTags(_ node: YAMLNode) -> [String]? {
    guard let items = context.sequence(node, "'tags'") else { return nil }
    return items.compactMap { context.string($0, "a tag") }
  }

  private func readLimits(_ node: YAMLNode) {
    guard let pairs = context.mapping(node, "'limit'") else { return }
    context.checkKeys(
      pairs, allowed: RunLimits.keys + ["marble", "expression"], in: "'limit'")
    if let value = node["time"] { plan.limits.time = frames(value, "'time'", minimum: 1) ?? plan.limits.time }
    if let value = node["steps"] {
      plan.limits.steps = context.count(value, "'steps'", minimum: 1) ?? plan.limits.steps
    }
    if let value = node["depth"] {
      plan.limits.depth = context.count(value, "'depth'", minimum: 1) ?? plan.limits.depth
    }
    if let value = node["events"] {
      plan.limits.events = context.count(value, "'events'", minimum: 1) ?? plan.limits.events
    }
    if let value = node["deliveries"] {
      plan.limits.budget.deliveries = context.count(value, "'deliveries'", minimum: 1) ?? plan.limits.budget.deliveries
    }
    if let value = node["memory"] {
      plan.limits.budget.memory = context.count(value, "'memory'", minimum: 1) ?? plan.limits.budget.memory
    }
    if let value = node["marble"], let count = context.count(value, "'marble'", minimum: 1) {
      if count > Self.maxMarbleCharacters {
        context.error(.marbleLimitTooHigh(Self.maxMarbleCharacters), at: value)
      } else {
        marbleLimits.characters = count
      }
    }
    if let value = node["expression"], let count = context.count(value, "'expression'", minimum: 1) {
      if count > Self.maxExpressionDepth {
        context.error(.expressionLimitTooHigh(Self.maxExpressionDepth), at: value)
      } else {
        expressionDepth = count
      }
    }
    if let value = node["nesting"] {
      plan.limits.budget.nesting = context.count(value, "'nesting'", minimum: 1) ?? plan.limits.budget.nesting
    }
  }

  // MARK: - Names

  /// ASCII letters, digits and `_`, not starting with a digit, in dot-separated parts.
  static func isValidName(_ name: String) -> Bool {
    var atPartStart = true
    for byte in name.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
        atPartStart = false
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if atPartStart { return false }
      case UInt8(ascii: "."):
        if atPartStart { return false }
        atPartStart = true
      default:
        return false
      }
    }
    return !atPartStart
  }

  /// The top-level sections that declare names, in the order their names are listed.
  private static let declarationSections: [(String, DeclarationKind)] = [
    ("signals", .signal), ("subjects", .subject), ("properties", .property),
    ("commands", .command), ("services", .service),
  ]

  /// Collects every declared name; reports invalid and duplicate names.
  private func declare(_ root: YAMLNode) {
    for (key, kind) in Self.declarationSections {
      guard let section = root[key], let pairs = context.mapping(section, "'\(key)'") else { continue }
      declarations.reserveCapacity(pairs.count)
      for pair in pairs {
        guard let name = context.string(pair.key, "a name") else { continue }
        guard Self.isValidName(name) else {
          context.error(.invalidName(name), at: pair.key)
          continue
        }
        if let first = declarations.addNew(name, Declaration(kind: kind, node: pair.value, keyNode: pair.key)) {
          context.error(
            .declaredTwice(name),
            at: pair.key,
            notes: [.init(location: first.keyNode.start, message: "'\(name)' first declared here")])
          continue
        }
        if kind == .property { propertyNames.append(name) }
      }
    }
  }

  /// A name used as a signal: a signal, subject or property, or a derived name. In an
  /// expectation (`target`), a misspelt name may also be suggested as `<name>.subscriptions`.
  func resolveReference(_ name: String, at node: YAMLNode, target: Bool = false) -> (SignalPlan, ValueShape)? {
    if !target { plan.readNames.insert(name) }
    if declarations[name] == nil, let derived = derivedReference(name) {
      if case .command(let owner, _) = derived { refers(to: owner) }
      if case .serviceCalls(let owner) = derived { refers(to: owner) }
      knownKinds.source = nil
      return (.reference(derived), .value)
    }
    guard let declaration = declarations[name] else {
      var message: Diagnostic.Message = .unknownDeclaration(.signal, name)
      if let dot = name.lastIndex(of: "."), case .command? = declarations[String(name[..<dot])]?.kind,
        case let member = String(name[name.index(after: dot)...]),
        let found = LibraryWords.word(
          for: member, in: LibraryWords.commandMembers, library: plan.library,
          known: { CommandState(rawValue: $0) != nil })
      {
        let owner = String(name[..<dot])
        message = message.hinting(LibraryWords.suggestion(member, found, library: plan.library, owner: owner))
      } else if let suggestion = suggestedName(for: name, target: target) {
        message = message.didYouMean(suggestion)
      }
      context.error(message, at: node)
      return nil
    }
    refers(to: name)
    knownKinds.source = nil
    switch declaration.kind {
    case .signal:
      guard let shape = compileNamedSignal(name) else { return nil }
      knownKinds.source = .reference(name)
      return (.reference(.signal(name)), shape)
    case .subject: return (.reference(.subject(name)), .value)
    case .property:
      knownKinds.source = .reference(name)
      return (.reference(.property(name)), .value)
    case .command, .service:
      context.error(.wrongKind(name, declaration.kind, expected: .signal), at: node)
      return nil
    }
  }

  private func compileSignals() {
    plan.signals.reserveCapacity(declarations.count)
    plan.signalLocations.reserveCapacity(declarations.count)
    for index in declarations.keys.indices where declarations[index].kind == .signal {
      _ = compileNamedSignal(at: index)
    }
    // Keep the file order of named signals (they were compiled in dependency order).
    plan.signalOrder = declarations.keys.filter { plan.signals[$0] != nil }
  }

  // MARK: - Subjects and properties

  private func compileSubjects() {
    defer { referringName = nil }
    for (name, declaration) in declarations where declaration.kind == .subject {
      referringName = name
      let value = declaration.node
      var subject = SubjectPlan(
        name: name, kind: .publish, isRAC: plan.profile.subjects == .keepingNoTerminalState, subscribeTo: nil,
        location: declaration.keyNode.start)
      if value.isNull {
        if subject.isRAC { usesRow("rac2-subject-keeps-no-terminal-state") }
        plan.subjects.append(subject)
        continue
      }
      guard let pairs = context.mapping(value, "subject '\(name)'"), !rejectRelay(pairs) else { continue }
      context.checkKeys(pairs, allowed: subjectKeys, in: "subject '\(name)'")
      if let rac = value["rac"] { subject.isRAC = context.bool(rac, "'rac'") ?? false }
      guard librarySubject(&subject, value, pairs) else { continue }
      if let replay = value["replay"], let size = replaySize(replay) {
        subject.kind = .replay(size)
      }
      if let behavior = value["behavior"] {
        if value["replay"] != nil {
          context.error(.replayAndBehavior, at: behavior)
        }
        subject.kind = .behavior(context.value(behavior))
      }
      plan.subjects.append(subject)
    }
    // `subscribeTo` may name signals, which are compiled after every name is declared.
    for index in plan.subjects.indices {
      let name = plan.subjects[index].name
      referringName = name
      if let target = declarations[name]?.node["subscribeTo"] {
        plan.subjects[index].subscribeTo = compileSignal(target, "'subscribeTo'")?.0
      }
    }
  }

  /// A subject's `replay`: a count, or `all` / `~` for an unbounded buffer.
  private func replaySize(_ node: YAMLNode) -> Int? {
    switch node.resolvedScalar {
    case .null?, .string("all")?: return .max
    case .int?: return context.count(node, "'replay'")
    default:
      context.error(.badReplay(found: context.describe(node)), at: node)
      return nil
    }
  }

  private func compileProperties() {
    // Where each bound property's binding is written, for "bound twice".
    var boundAt: [String: SourceLocation] = [:]
    for (name, declaration) in declarations where declaration.kind == .property {
      referringName = name
      defer { referringName = nil }
      let value = declaration.node
      var property = PropertyPlan(name: name, initial: .null, binding: nil, location: declaration.keyNode.start)
      if let observed = value["observed"], let pairs = value.mappingPairs {
        context.checkKeys(pairs, allowed: ["observed"], in: "property '\(name)'")
        property.binding = observedPlan(observed, property: name)
      } else if let pairs = value.mappingPairs, Self.isPropertyDeclaration(pairs) {
        context.checkKeys(pairs, allowed: ["from", "initial"], in: "property '\(name)'")
        if let initial = value["initial"] { property.initial = context.value(initial) }
        if let from = value["from"] {
          property.binding = compileSignal(from, "property '\(name)'")?.0
          boundAt[name] = from.start
        }
      } else if value.isNull {
        context.error(.propertyNeedsBinding(name), at: declaration.keyNode)
      } else {
        currentName = name
        property.binding = compileSignal(value, "property '\(name)'")?.0
        boundAt[name] = value.start
        currentName = nil
      }
      plan.properties.append(property)
    }
    bindAssignments(boundAt: boundAt)
  }

  /// An `observed:` property (Observation's `Observations` over the names it reads): one name
  /// or a list of names, whose values it sends as one value, or a list, per transaction.
  private func observedPlan(_ node: YAMLNode, property name: String) -> SignalPlan? {
    let items = node.sequenceItems.map(Array.init) ?? [node]
    guard !items.isEmpty, items.allSatisfy({ $0.scalarValue != nil }) else {
      context.error(.badObserved(property: name, found: context.describe(node)), at: node)
      return nil
    }
    var inputs: [SignalPlan] = []
    for item in items {
      guard let input = compileSignal(item, "'observed' of property '\(name)'")?.0 else { return nil }
      inputs.append(input)
    }
    let label = NodeLabel(name, at: node.start)
    return .source(
      SourcePlan(
        label: "observed", subscriptions: nil, traceRole: .source,
        make: { graph, scope in
          ObservedValue(
            inputs: inputs.map { graph.step(for: $0, scope: scope) }, owner: label, runtime: graph.runtime)
        }, inputs: inputs))
  }

  /// Whether a property's mapping declares it (`from`, `initial`) rather than being an inline
  /// step: it has `initial`, or `from` and no other step.
  static func isPropertyDeclaration(_ pairs: some Collection<YAMLNode.Pair>) -> Bool {
    let keys = pairs.compactMap { $0.key.scalarValue }
    if keys.contains("initial") { return true }
    return keys.contains("from") && keys.filter { $0 != "from" && StepTable.standard.contains($0) }.isEmpty
  }

  /// The file legend as expectations see it: signal values as their marbles' events. Reports
  /// a legend signal that contains itself. Resolved once per document; every expectation and
  /// the scenario share it.
  func expectedFileLegend() -> ExpectedLegend {
    let resolved = resolvedFileLegend ?? resolveFileLegend()
    resolvedFileLegend = resolved
    if let cycle = resolved.cycle {
      context.error(.legendValueContainsItself(cycle), at: cycleLocation(cycle))
    }
    return resolved.legend
  }

  private func resolveFileLegend() -> (legend: ExpectedLegend, cycle: String?) {
    var resolver = LegendResolver(plan: plan) { input, events, _ in
      .signal(SignalValue(events: events))
    }
    let signals = resolver.fileSignals()
    return (ExpectedLegend(table: plan.fileLegend, signals: signals), resolver.cycle)
  }

  private func cycleLocation(_ key: String) -> SourceLocation {
    plan.fileLegend.signals[key].map { location(of: $0) } ?? .init(line: 1, column: 1, offset: 0)
  }
}

extension Diagnostic.Message {
  /// `name` is used as a `kind` but not declared.
  static func unknownDeclaration(_ kind: ScenarioCompiler.DeclarationKind, _ name: String) -> Self {
    "unknown \(kind.rawValue) '\(name)'"
  }
  /// `name` is declared as `kind` where a declaration of `expected` is needed.
  static func wrongKind(
    _ name: String, _ kind: ScenarioCompiler.DeclarationKind, expected: ScenarioCompiler.DeclarationKind
  ) -> Self {
    "'\(name)' is a \(kind.rawValue), not a \(expected.rawValue)"
  }
  /// A signal entry of a legend whose marble names itself, directly or through other entries.
  static func legendValueContainsItself(_ key: String) -> Self { "legend value '\(key)' contains itself" }
  /// The message followed by `; did you mean 'name'?`, or the message alone when `name` is nil.
  func didYouMean(_ name: String?) -> Self { name.map { Self("\(text); did you mean '\($0)'?") } ?? self }
  /// The message followed by `; ` and `hint`.
  func hinting(_ hint: String) -> Self { Self("\(text); \(hint)") }
  fileprivate static func unknownGrammar(_ text: String) -> Self {
    "unknown grammar '\(text)'; use 'flowrun' or 'rxjs'"
  }
  fileprivate static func missingRequiredKey(_ key: String) -> Self { "missing required key '\(key)'" }
  fileprivate static func unsupportedFormat(_ found: String) -> Self {
    "unsupported scenario format \(found) (this flowrun reads 1)"
  }
  fileprivate static func marbleLimitTooHigh(_ maximum: Int) -> Self { "'marble' may be at most \(maximum) characters" }
  fileprivate static func expressionLimitTooHigh(_ maximum: Int) -> Self {
    "'expression' may be at most \(maximum) levels"
  }
  fileprivate static func invalidName(_ name: String) -> Self {
    "invalid name '\(name)': use letters, digits and '_', dotted like 'vm.account'"
  }
  fileprivate static func declaredTwice(_ name: String) -> Self { "'\(name)' is declared twice" }
  fileprivate static let replayAndBehavior: Self = "a subject is either 'replay' or 'behavior', not both"
  fileprivate static func badReplay(found: String) -> Self {
    "'replay' must be an integer ≥ 0, 'all' or ~, found \(found)"
  }
  fileprivate static func propertyNeedsBinding(_ name: String) -> Self {
    "property '\(name)' needs a signal to bind or 'initial'"
  }
  fileprivate static func badObserved(property name: String, found: String) -> Self {
    "'observed' of property '\(name)' must be a name or a list of names, found \(found)"
  }
}
