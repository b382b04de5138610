import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

/// Where the compilation of the named signals stands, by declaration index.
struct NamedSignalState {
  /// The shape of each compiled named signal.
  var shapes: [ValueShape?] = []
  /// The named signals being compiled, outermost first, and the place of each in that list.
  var compiling: [Int] = []
  var position: [Int?] = []
  /// Compilations of signals that are more than a renaming, nested in one another right now.
  var nesting = 0
  /// Marks of the ordering walk (`compileReferencesFirst`): 1 on its path, 2 left for a
  /// nested compilation because a cycle may be in reach.
  var marks: [UInt8] = []
  var isOrdering = false
  /// What each declaration renames (`aliasTarget`), read once: -2 not read yet, -1 nothing.
  var aliases: [Int] = []
  /// The length of the longest signal name, to rule out longer scalars without a look-up.
  var longestName = 0
  /// The lowest stack address a nested compilation may reach (ThreadStack).
  var stackFloor: UInt = 0
  /// `maxSignalNesting`, scaled to the thread's stack (`ThreadStack.budgeted`).
  var nestingLimit = ScenarioCompiler.maxSignalNesting
}

/// Named signals are compiled once each, a signal compiling the named signals it refers to
/// inside its own compilation. So that a chain of any length is compiled without one nested
/// call per name, a compilation that is `orderingNesting` deep first walks, with a stack of its
/// own, what the signal may refer to and compiles it deepest first; only names that may lead
/// into a cycle (or into a signal being compiled) are left to the nested compilation, which
/// reports the cycle. Chains of renamings (`s0: { from: s1 }`) are followed without nesting.
/// (Shallow graphs, the usual ones, skip the walk: it costs more than the few nested calls.)
extension ScenarioCompiler {
  /// The deepest nesting of named signals compiled inside one another (only a long chain that
  /// leads into a cycle of references gets there).
  static let maxSignalNesting = 10_000
  /// The nesting at which a compilation orders what it refers to before compiling it.
  static let orderingNesting = 32

  /// Compiles a named signal once, after the signals it refers to; reports cycles.
  @discardableResult
  func compileNamedSignal(_ name: String) -> ValueShape? {
    guard let index = declarations.index(of: name) else { return nil }
    return compileNamedSignal(at: index)
  }

  func compileNamedSignal(at index: Int) -> ValueShape? {
    if named.shapes.isEmpty { prepareNamedSignals() }
    if let shape = named.shapes[index] { return shape }
    // A renaming is followed by `compileAliases`, which orders what the chain ends in.
    if named.nesting >= Self.orderingNesting && !named.isOrdering && alias(of: index) == nil {
      compileReferencesFirst(of: index)
    }
    return compileOne(index)
  }

  private func prepareNamedSignals() {
    named.shapes = Array(repeating: nil, count: declarations.count)
    named.position = Array(repeating: nil, count: declarations.count)
    named.marks = Array(repeating: 0, count: declarations.count)
    named.aliases = Array(repeating: -2, count: declarations.count)
    for (name, declaration) in declarations where declaration.kind == .signal {
      named.longestName = max(named.longestName, name.utf8.count)
    }
    named.stackFloor = ThreadStack.floor()
    named.nestingLimit = ThreadStack.budgeted(Self.maxSignalNesting, standard: Self.maxSignalNesting)
  }

  /// Compiles the named signals `root` may refer to (the scalars of its declaration that name
  /// a signal), deepest first, walking with a stack of its own. A signal from which a name on
  /// the walk's path can be reached may be in a cycle: it is left, with every signal that
  /// reaches it, to `compileOne`'s nested compilation, which finds the cycle and reports it.
  private func compileReferencesFirst(of root: Int) {
    named.isOrdering = true
    defer { named.isOrdering = false }
    var path: [(index: Int, candidates: [Int], next: Int, leadsToPath: Bool)] = []
    named.marks[root] = 1
    path.append((root, referenceCandidates(of: root), 0, false))
    while let last = path.indices.last {
      if path[last].next < path[last].candidates.count {
        let target = path[last].candidates[path[last].next]
        path[last].next += 1
        guard named.shapes[target] == nil else { continue }
        // A signal being compiled around this walk is on its path too.
        if named.marks[target] == 0 && named.position[target] == nil {
          named.marks[target] = 1
          path.append((target, referenceCandidates(of: target), 0, false))
        } else {
          path[last].leadsToPath = true
        }
        continue
      }
      let done = path.removeLast()
      if done.leadsToPath {
        named.marks[done.index] = 2
        if let parent = path.indices.last { path[parent].leadsToPath = true }
      } else {
        named.marks[done.index] = 0
        if done.index != root { _ = compileOne(done.index) }
      }
    }
  }

  /// The signals the declaration at `index` may refer to: every scalar value in it that is the
  /// name of a declared signal (more than the references: a string value may be a name too,
  /// which only costs an earlier compilation).
  private func referenceCandidates(of index: Int) -> [Int] {
    if let target = alias(of: index) { return [target] }
    var candidates: [Int] = []
    var pending = [declarations[index].node]
    while let node = pending.popLast() {
      if let pairs = node.mappingPairs {
        for pair in pairs { pending.append(pair.value) }
      } else if let items = node.sequenceItems {
        pending.append(contentsOf: items)
      } else if let length = node.scalarByteCount, length <= named.longestName, let text = node.scalarValue,
        let target = declarations.index(of: text), declarations[target].kind == .signal
      {
        candidates.append(target)
      }
    }
    return candidates
  }

  /// Compiles the named signal at `index`, compiling any signal it refers to that is not yet
  /// compiled inside it (a cycle is found that way).
  private func compileOne(_ index: Int) -> ValueShape? {
    if let shape = named.shapes[index] { return shape }
    if let start = named.position[index] {
      reportCycle(named.compiling[start...] + [index])
      named.shapes[index] = .value
      return nil
    }
    if alias(of: index) != nil { return compileAliases(from: index) }
    let declaration = declarations[index]
    let name = declarations.keys[index]
    guard named.nesting < named.nestingLimit, ThreadStack.address() >= named.stackFloor else {
      let limit: Int? = named.nesting < named.nestingLimit ? nil : named.nestingLimit
      context.error(.referencesTooDeep(name, limit: limit), at: declaration.keyNode)
      named.shapes[index] = .value
      return nil
    }
    named.nesting += 1
    pushCompiling(index)
    let outerName = currentName
    let outerReferring = referringName
    let outerNesting = stepNesting
    currentName = name
    referringName = name
    stepNesting = 0
    let compiled = compileSignal(declaration.node, "signal '\(name)'")
    if compiled != nil, let known = knownKinds.source { knownKinds.signals[name] = known }
    currentName = outerName
    referringName = outerReferring
    stepNesting = outerNesting
    popCompiling()
    named.nesting -= 1
    guard named.shapes[index] == nil else { return nil }
    guard let compiled else {
      named.shapes[index] = .value
      return nil
    }
    plan.signals[name] = compiled.0
    plan.signalLocations[name] = declaration.keyNode.start
    named.shapes[index] = compiled.1
    return compiled.1
  }

  private func pushCompiling(_ index: Int) {
    named.position[index] = named.compiling.count
    named.compiling.append(index)
  }

  private func popCompiling() {
    named.position[named.compiling.removeLast()] = nil
  }

  /// Compiles a chain of names that only rename the next one (`s0: { from: s1 }`, `s1: s2`, …)
  /// without a nested call per name: the names are followed to the first that is compiled,
  /// being compiled (a cycle) or not a renaming, that one is compiled, and each renaming takes
  /// its shape.
  private func compileAliases(from start: Int) -> ValueShape? {
    var chain: [(index: Int, target: Int)] = []
    var current = start
    while named.shapes[current] == nil, named.position[current] == nil, let target = alias(of: current) {
      chain.append((current, target))
      pushCompiling(current)
      current = target
    }
    if named.nesting >= Self.orderingNesting && !named.isOrdering && named.shapes[current] == nil
      && named.position[current] == nil
    {
      compileReferencesFirst(of: current)
    }
    let shape = compileOne(current)
    for link in chain.reversed() {
      popCompiling()
      guard named.shapes[link.index] == nil else { continue }
      guard let shape else {
        named.shapes[link.index] = .value
        continue
      }
      let name = declarations.keys[link.index]
      plan.signals[name] = .reference(.signal(declarations.keys[link.target]))
      plan.references.append((name, declarations.keys[link.target]))
      plan.signalLocations[name] = declarations[link.index].keyNode.start
      named.shapes[link.index] = shape
    }
    return named.shapes[start] == shape ? shape : nil
  }

  /// The declaration index of the signal the declaration at `index` only renames.
  private func alias(of index: Int) -> Int? {
    if named.aliases[index] == -2 { named.aliases[index] = aliasTarget(of: declarations[index].node) ?? -1 }
    let target = named.aliases[index]
    return target >= 0 ? target : nil
  }

  /// The declaration index of the signal a declaration only renames: `{ from: a }`, `a`, or a
  /// list of one of those, where `a` is a declared signal.
  private func aliasTarget(of node: YAMLNode) -> Int? {
    var step = node
    var kind = step.kind
    if case .sequence(let items) = kind {
      guard items.count == 1, let only = items.first else { return nil }
      step = only
      kind = step.kind
    }
    if case .mapping(let pairs) = kind {
      guard pairs.count == 1, let pair = pairs.first, pair.key.isScalar("from") else { return nil }
      step = pair.value
      kind = step.kind
    }
    // A declared name is never a plain null or bool, the only plain scalars starting with a
    // letter that do not read as strings.
    guard case .scalar(let name, let style) = kind, step.tag == nil,
      let target = declarations.index(of: name), declarations[target].kind == .signal,
      style != .plain || !Self.plainKeywords.contains(name)
    else { return nil }
    return target
  }

  private static let plainKeywords: Set<String> = [
    "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
  ]

  /// Reports a cycle of named signals at the declaration of the name that closes it. A long
  /// cycle is shown by its first and last names.
  private func reportCycle(_ cycle: some Collection<Int>) {
    guard let first = cycle.first else { return }
    let name = { (index: Int) in "'\(self.declarations.keys[index])'" }
    let shown =
      cycle.count <= 12
      ? cycle.map(name)
      : cycle.prefix(5).map(name) + ["… \(cycle.count - 10) more …"] + cycle.suffix(5).map(name)
    context.error(.cycleOfReferences(shown), at: declarations[first].keyNode)
  }
}

extension Diagnostic.Message {
  /// Signals that refer to one another deeper than `limit` references at `name`, or (nil) than
  /// the thread's stack allows.
  fileprivate static func referencesTooDeep(_ name: String, limit: Int?) -> Self {
    let depth = limit.map { "deeper than the limit of \($0)" } ?? "too deep for the thread's stack"
    return "signals refer to one another \(depth) at '\(name)' (a long chain that leads into a cycle of references?)"
  }
  /// `names`: the quoted names of the cycle, in order.
  fileprivate static func cycleOfReferences(_ names: [String]) -> Self {
    "cycle of references: \(names.joined(separator: " → "))"
  }
}
