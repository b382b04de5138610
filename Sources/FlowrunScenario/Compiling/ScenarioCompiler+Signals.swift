import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunMarbles
import FlowrunYAML
import OrderedCollections

/// The shape of the values a step receives, which decides what `$0`, `$1` and key names mean.
enum ValueShape: Equatable {
  /// Any value: `$0` is the value.
  case value
  /// A list made by `combineLatest`/`zip` (list form): `$i` is element i.
  case tuple(Int)
  /// A map made by the keyed form: each key is a name in the next step.
  case keyed([String])
  /// Not known: the step before did not compile. The steps after it report nothing that
  /// depends on its values (`$1`, key names), only their own mistakes.
  case unknown

  /// The shape after an operator that passes values on unchanged.
  var passedOn: ValueShape {
    if case .keyed = self { return .value }
    return self
  }
}

/// One step as written: its operator name, its argument, and the extra keys beside it.
struct StepNode {
  var name: String
  var nameNode: YAMLNode
  var argument: YAMLNode?
  var extras: [YAMLNode.Pair]
  var node: YAMLNode

  func extra(_ key: String) -> YAMLNode? {
    extras.first { $0.key.isScalar(key) }?.value
  }
}

extension ScenarioCompiler {
  // MARK: - Signals

  /// Compiles a signal written as a name, one step (a mapping) or a list of steps.
  func compileSignal(_ node: YAMLNode, _ what: String) -> (SignalPlan, ValueShape)? {
    // Steps nest plans inside one another (and inline signals inside steps nest further):
    // bound the depth so that building, running and freeing a plan stays within the stack.
    let added = node.sequenceItems?.count ?? 1
    guard stepNesting + added <= Self.maxStepNesting else {
      context.error(.stepsNestTooDeep(Self.maxStepNesting), at: node)
      return nil
    }
    stepNesting += added
    defer { stepNesting -= added }
    knownKinds.source = nil
    switch node.kind {
    case .scalar:
      guard let name = context.string(node, what) else { return nil }
      return resolveReference(name, at: node)
    case .mapping:
      guard let step = splitStep(node) else { return nil }
      return compileSource(step)
    case .sequence(let steps):
      guard let first = steps.first else {
        context.error(.needsAStep(what), at: node)
        return nil
      }
      var current: (SignalPlan, ValueShape)?
      let outerFollowing = followingStepName
      defer { followingStepName = outerFollowing }
      followingStepName = steps.dropFirst().first.flatMap(Self.stepName)
      if first.isScalar {
        guard let name = context.string(first, what) else { return nil }
        current = resolveReference(name, at: first)
      } else if let step = splitStep(first) {
        current = compileSource(step)
      }
      // Known once for the chain (operators pass on where values come from), so that a long
      // chain costs nothing more per step.
      let readsProperty = current.map { Self.mayReadProperty($0.0) } ?? false
      let outerReadsProperty = stepInputReadsProperty
      // The values known at load time, passed on by the steps that only drop values.
      var known = current == nil ? nil : knownKinds.source
      let outerInput = knownKinds.stepInput
      defer {
        stepInputReadsProperty = outerReadsProperty
        knownKinds.stepInput = outerInput
      }
      for (offset, stepNode) in steps.enumerated().dropFirst() {
        followingStepName = steps.dropFirst(offset + 1).first.flatMap(Self.stepName)
        guard let step = splitStep(stepNode) else {
          current = nil
          continue
        }
        stepInputReadsProperty = readsProperty
        guard let input = current else {
          _ = compileOperator(step, input: .placeholder, shape: .unknown)
          continue
        }
        knownKinds.stepInput = known
        current = compileOperator(step, input: input.0, shape: input.1)
        let kind = self.steps.operator(named: step.name)?.drops?.kind
        if kind != .unsent && kind != .replaced { known = nil }
      }
      knownKinds.source = current == nil ? nil : known
      return current
    }
  }

  /// The name a step node is written with (a bare name, or its mapping's first key).
  static func stepName(_ node: YAMLNode) -> String? {
    node.isScalar ? node.scalarValue : node.mappingPairs?.first?.key.scalarValue
  }

  /// Whether the values of a chain's first step may come straight from a property: a property,
  /// or a combination of a few signals one of which is a property (looked at two levels deep).
  static func mayReadProperty(_ plan: SignalPlan, depth: Int = 0) -> Bool {
    switch plan {
    case .reference(.property): return true
    case .source(let source):
      return depth < 2 && source.inputs.contains { mayReadProperty($0, depth: depth + 1) }
    case .apply(let input, _): return depth < 2 && mayReadProperty(input, depth: depth + 1)
    default: return false
    }
  }

  /// Compiles a list of signals (`combineLatest: [a, b]`), or one signal as a list of one.
  func compileSignalList(_ node: YAMLNode, _ what: String) -> [SignalPlan]? {
    guard let items = node.sequenceItems else {
      return compileSignal(node, what).map { [$0.0] }
    }
    var plans: [SignalPlan] = []
    var failed = false
    for item in items {
      if let plan = compileSignal(item, what) { plans.append(plan.0) } else { failed = true }
    }
    return failed ? nil : plans
  }

  /// Reads a step node: a bare operator name, or a mapping whose first known key is the step.
  func splitStep(_ node: YAMLNode) -> StepNode? {
    if let name = node.scalarValue, node.isScalar {
      if name.isEmpty || node.isNull {
        context.error(.emptyStep, at: node)
        return nil
      }
      guard checkStepName(name, at: node) else { return nil }
      return StepNode(name: name, nameNode: node, argument: nil, extras: [], node: node)
    }
    guard let pairs = context.mapping(node, "a step") else { return nil }
    return splitStep(Array(pairs), node: node)
  }

  /// Reads a step from its mapping's pairs (`node` places messages about it).
  func splitStep(_ pairs: [YAMLNode.Pair], node: YAMLNode) -> StepNode? {
    guard
      let index = pairs.firstIndex(where: { steps.contains($0.key.scalarValue ?? "") })
    else {
      let key = pairs.first?.key
      let name = key?.scalarValue ?? ""
      context.error(unknownStep(name), at: key ?? node)
      return nil
    }
    let pair = pairs[index]
    let name = pair.key.scalarValue ?? ""
    guard checkStepName(name, at: pair.key) else { return nil }
    var extras = pairs
    extras.remove(at: index)
    let reported = context.diagnostics.count
    context.checkKeys(extras, allowed: steps.extras(of: name), in: "step '\(name)'")
    let step = StepNode(name: name, nameNode: pair.key, argument: pair.value, extras: extras, node: node)
    if context.diagnostics.count > reported, let definition = steps.operator(named: name),
      let note = libraryHint(forFailed: step, definition)
    {
      context.diagnostics[reported].notes.append(note)
    }
    return step
  }

  private func checkStepName(_ name: String, at node: YAMLNode) -> Bool {
    guard steps.contains(name) else {
      context.error(unknownStep(name), at: node)
      return false
    }
    return true
  }

  private func unknownStep(_ name: String) -> Diagnostic.Message {
    if let hint = libraryHint(forUnknownStep: name) { return hint }
    if let found = LibraryWords.word(for: name, in: LibraryWords.steps, library: plan.library, known: steps.contains) {
      return .unknownOperator(name).hinting(LibraryWords.suggestion(name, found, library: plan.library))
    }
    return .unknownOperator(name).didYouMean(closestName(to: name, among: steps.names))
  }

  private func argument(_ step: StepNode) -> YAMLNode? {
    if let argument = step.argument { return argument }
    context.error(.needsArgument(step.name), at: step.nameNode)
    return nil
  }

  // MARK: - Steps

  /// Compiles the first step of a signal, which must be a source; `knownKinds.source` is set by
  /// a source whose values the load knows.
  func compileSource(_ step: StepNode) -> (SignalPlan, ValueShape)? {
    knownKinds.source = nil
    guard let definition = steps.source(named: step.name), case .source(let compile) = definition.compile else {
      context.error(.operatorFirst(step.name), at: step.nameNode)
      return nil
    }
    guard let argument = argument(step) else { return nil }
    noteLibraryWord(step, definition)
    return compile(SourceCompilation(compiler: self, step: step, definition: definition, argument: argument))
  }

  /// Compiles one operator step applied to `input`, whose values have `shape`.
  func compileOperator(_ step: StepNode, input: SignalPlan, shape: ValueShape) -> (SignalPlan, ValueShape)? {
    guard let definition = steps.operator(named: step.name), case .operator(let compile) = definition.compile
    else {
      context.error(.sourceAfterFirst(step.name), at: step.nameNode)
      return nil
    }
    noteLibraryWord(step, definition)
    let reported = context.diagnostics.count
    let compiled = compile(
      OperatorCompilation(compiler: self, step: step, definition: definition, input: input, shape: shape))
    if context.diagnostics.count > reported, let note = libraryHint(forFailed: step, definition) {
      context.diagnostics[reported].notes.append(note)
    }
    return compiled
  }

  /// A default key written under a library that has its own word for it: a note for
  /// `flowrun check` ("Combine calls it 'prepend'"); the key keeps its default meaning.
  private func noteLibraryWord(_ step: StepNode, _ definition: StepDefinition) {
    guard !definition.isLibraryRow, let library = plan.library, let word = steps.words[step.name] else { return }
    context.note(.keepsDefaultMeaning(step.name, under: libraryPhrase, library, callsIt: word), at: step.nameNode)
  }

  /// The frames of a duration node: a number of frames or a string such as `500ms`.
  func frames(_ node: YAMLNode, _ what: String, minimum: Int) -> Int? {
    let result: Int
    switch node.resolvedScalar {
    case .int(let value)?:
      result = value
    case .string(let text)?:
      do throws(DurationError) {
        result = try DurationLiteral(parsing: text).frames(tick: tick)
      } catch {
        context.error(error, at: node)
        return nil
      }
    default:
      context.error(.notADuration(what, found: context.describe(node)), at: node)
      return nil
    }
    guard result >= minimum else {
      context.error(.durationBelow(minimum, what, found: context.describe(node)), at: node)
      return nil
    }
    return result
  }

  // MARK: - Marbles

  /// A `hot`/`cold` step's marble with its local legend and error value.
  func marbleInput(_ step: StepNode, _ argument: YAMLNode, hot: Bool) -> MarbleInput? {
    let legend = step.extra("values").flatMap { legendEntries($0) } ?? .empty
    let error = step.extra("error").map { context.value($0) } ?? errorValue
    let label = NodeLabel(currentName ?? step.name, at: step.nameNode.start)
    return marbleInput(
      argument, hot: hot, legend: legend, error: error, label: label,
      resolve: hot && plan.fileLegend.isPlain && legend.isPlain)
  }

  /// Adds a hot marble to the plan (its source is shared by every subscriber); returns its index.
  func addHotMarble(_ input: MarbleInput) -> Int {
    plan.hotMarbles.append(input)
    return plan.hotMarbles.count - 1
  }

  /// A marble with its legend and error value. With `resolve` (a hot marble whose legends hold
  /// no signal) its events are resolved while it is parsed, so the items of a long marble are
  /// never all held at once.
  func marbleInput(
    _ node: YAMLNode, hot: Bool, legend: LegendTable, error: Value, label: NodeLabel, resolve: Bool = false
  ) -> MarbleInput? {
    guard let text = context.string(node, hot ? "a hot marble" : "a cold marble") else { return nil }
    let parser = MarbleParser(grammar: grammar, tick: tick, limits: marbleLimits)
    do throws(MarbleError) {
      if resolve {
        var resolver = LegendResolver(plan: plan) { _, _, _ in .null }
        let (marble, events) = try resolver.parseEvents(
          text, hot: true, parser: parser, legend: legend, errorValue: error)
        return MarbleInput(marble: marble, localLegend: legend, errorValue: error, label: label, events: events)
      }
      let marble = hot ? try parser.parseHot(text) : try parser.parseCold(text)
      return MarbleInput(marble: marble, localLegend: legend, errorValue: error, label: label)
    } catch {
      context.error(error, in: node)
      return nil
    }
  }

  /// A `values` legend: plain values, or `!cold`/`!hot` marbles. Every entry is checked here;
  /// plain values stay in the YAML (LegendTable.swift), signal entries are compiled. The marble
  /// of a signal entry reads its tokens from the legend it is written in: the file's, or for a
  /// step's or an expectation's own legend (`isFileLegend` false) that legend over the file's.
  func legendEntries(_ node: YAMLNode, isFileLegend: Bool = false) -> LegendTable? {
    guard let pairs = context.mapping(node, "'values'") else { return nil }
    var legend = LegendTable(mapping: node)
    if pairs.count <= LegendTable.resolvedLimit { legend.resolved = [] }
    for pair in pairs {
      guard let key = context.string(pair.key, "a legend key") else { continue }
      if key.isEmpty || key.contains("'") {
        context.error(.unwritableLegendKey(key), at: pair.key)
        continue
      }
      switch pair.value.tag {
      case "!cold"?, "!hot"?:
        let hot = pair.value.tag == "!hot"
        let label = NodeLabel("values.\(key)", at: pair.value.start)
        guard let input = marbleInput(pair.value, hot: hot, legend: .empty, error: errorValue, label: label)
        else { continue }
        guard legend.signals[key] == nil else { continue }
        if hot {
          plan.hotMarbles.append(input)
          legend.signals[key] = .hot(plan.hotMarbles.count - 1)
        } else {
          legend.signals[key] = .cold(input)
        }
      default:
        let value = context.value(pair.value)
        legend.resolved?.append((key, value))
      }
    }
    if !isFileLegend, !legend.signals.isEmpty { checkLocalLegend(legend) }
    return legend
  }

  /// Reports a signal entry of a marble's own legend that contains itself, and gives its `!hot`
  /// entries that legend (a hot marble is resolved on its own, by index).
  private func checkLocalLegend(_ legend: LegendTable) {
    if let key = legend.firstCycle(hotMarbles: plan.hotMarbles), let entry = legend.signals[key] {
      context.error(.legendValueContainsItself(key), at: location(of: entry))
    }
    for case .hot(let index) in legend.signals.values {
      plan.hotMarbles[index].localLegend = legend
    }
  }

  /// Where a legend's signal entry is written.
  func location(of entry: LegendValue) -> SourceLocation {
    let label: NodeLabel? =
      switch entry {
      case .cold(let input): input.label
      case .hot(let index): plan.hotMarbles[index].label
      case .value: nil
      }
    return label?.location ?? .init(line: 1, column: 1, offset: 0)
  }

  // MARK: - Expressions

  /// Compiles an expression node (a YAML number, bool or null is that literal value).
  func expression(
    _ node: YAMLNode, shape: ValueShape, accumulator: Bool = false, index: Bool = true, knownValues: [Value]? = nil
  ) -> StepExpression? {
    let compiled: CompiledExpression
    switch node.resolvedScalar {
    case .string(let text)?:
      var parameters: ExpressionScope.Parameters
      switch shape {
      case .value: parameters = .value
      case .tuple(let arity): parameters = .tuple(arity: arity)
      case .keyed(let names): parameters = .keyed(names: names)
      case .unknown: parameters = .unknown
      }
      if accumulator, shape != .unknown {
        if case .tuple(let arity) = shape {
          parameters = .accumulator(valueArity: arity)
        } else {
          parameters = .accumulator(valueArity: nil)
        }
      }
      var scope = ExpressionScope(
        parameters: parameters, indexAvailable: index, templateNames: templateNames,
        properties: propertyNames, maxDepth: expressionDepth)
      scope.knownValues = knownValues
      do throws(ExpressionError) {
        compiled = try CompiledExpression(text, scope: scope)
      } catch {
        context.error(error, in: node)
        return nil
      }
      for slot in compiled.referencedProperties where slot < propertyNames.count {
        plan.readNames.insert(propertyNames[slot])
      }
    case .null?, .bool?, .int?, .double?:
      compiled = .literal(context.value(node))
    case nil:
      context.error(.notAnExpression(node), at: node)
      return nil
    }
    return StepExpression(
      expression: compiled, node: node, location: node.start, inputReadsProperty: stepInputReadsProperty)
  }
}

extension Diagnostic.Message {
  fileprivate static func stepsNestTooDeep(_ limit: Int) -> Self {
    "signal steps nest deeper than the limit of \(limit) (counting the steps of inline signals)"
  }
  fileprivate static func needsAStep(_ what: String) -> Self { "\(what) must have at least one step" }
  fileprivate static let emptyStep: Self =
    "the step is empty: write a step after '-' (such as '- map: …'), or remove the '-'"
  fileprivate static func unknownOperator(_ name: String) -> Self { "unknown operator '\(name)'" }
  fileprivate static func operatorFirst(_ step: String) -> Self {
    "'\(step)' is an operator; a signal must start with a source"
  }
  fileprivate static func sourceAfterFirst(_ step: String) -> Self {
    "'\(step)' is a source; only the first step of a signal may be one"
  }
  /// A default key written under `library`, which has its own `word` for it.
  fileprivate static func keepsDefaultMeaning(
    _ step: String, under libraryPhrase: String, _ library: Library, callsIt word: String
  ) -> Self {
    "'\(step)' keeps the default catalogue's meaning under \(libraryPhrase); \(library.title) calls it \(word)"
  }
  fileprivate static func notADuration(_ what: String, found: String) -> Self {
    "\(what) must be a duration such as 5, 500ms or 1.5s, found \(found)"
  }
  /// A duration below `minimum` frames (1 or 0).
  fileprivate static func durationBelow(_ minimum: Int, _ what: String, found: String) -> Self {
    let least = minimum == 1 ? "be at least one frame" : "not be negative"
    return "\(what) must \(least), found \(found)"
  }
  fileprivate static func unwritableLegendKey(_ key: String) -> Self {
    "legend key '\(key)' cannot be written in a marble"
  }
  fileprivate static func notAnExpression(_ node: YAMLNode) -> Self {
    "expected an expression (a string), found a \(node.kindName)"
  }
}
