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

/// The step names flowrun knows, by role.
enum StepCatalog {
  static let sources = [
    "hot", "cold", "from", "just", "of", "empty", "never", "fail", "interval", "timer",
    "combineLatest", "zip", "merge", "concat", "race", "call",
  ]
  static let operators = [
    "map", "mapTo", "filter", "scan", "distinctUntilChanged", "skip", "take", "takeWhile",
    "skipWhile", "takeUntil", "takeUntilRAC", "startWith", "combineLatest", "combineLatestWith",
    "zip", "zipWith", "merge", "mergeWith", "concat", "concatWith", "tap", "doNext", "name",
  ] + higherOrder + CatalogueOperator.names
  /// Operators taking a template or flattening signal values (TemplateCompiler.swift).
  static let higherOrder = [
    "flatMap", "flattenMap", "flatMapLatest", "switchMap", "concatMap", "exhaustMap", "mergeAll",
    "flatten", "switchToLatest", "switchAll", "concatAll", "catch", "catchAndReturn", "retry",
  ]
  /// Steps of the spec that this version does not run yet.
  static let planned = [
    "reduce", "pairwise", "materialize", "dematerialize", "takeLast", "skipUntil",
    "first", "last", "elementAt", "ignoreElements", "ignoreValues", "ignore", "withLatestFrom",
    "sample", "sampleRAC", "then", "debounce", "throttle", "delay", "delaySubscription", "timeout", "timeoutRAC", "bufferTime",
    "buffer", "share", "shareReplay", "replay", "replayLast",
    "replayLazily", "observeOn", "deliverOn",
  ].filter { !CatalogueOperator.nameSet.contains($0) }
  static let all = Set(sources + operators + planned)
  // Sets of the lists above, for membership tests (the lists keep their order for suggestions).
  static let sourceSet = Set(sources)
  static let operatorSet = Set(operators)
  static let higherOrderSet = Set(higherOrder)
  static let plannedSet = Set(planned)

  /// The extra keys each step accepts beside its own.
  static func extras(of step: String) -> [String] {
    switch step {
    case "hot", "cold": ["values", "error"]
    case "scan": ["seed"]
    case "takeWhile": ["inclusive"]
    case "merge", "mergeWith", "flatMap", "flattenMap", "mergeAll", "flatten": ["concurrent"]
    case "call": ["with"]
    default: CatalogueOperator.extras(of: step)
    }
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
      context.error(
        "signal steps nest deeper than the limit of \(Self.maxStepNesting) (counting the steps of inline signals)",
        at: node)
      return nil
    }
    stepNesting += added
    defer { stepNesting -= added }
    switch node.kind {
    case .scalar:
      guard let name = context.string(node, what) else { return nil }
      return resolveReference(name, at: node)
    case .mapping:
      guard let step = splitStep(node) else { return nil }
      return compileSource(step)
    case .sequence(let steps):
      guard let first = steps.first else {
        context.error("\(what) must have at least one step", at: node)
        return nil
      }
      var current: (SignalPlan, ValueShape)?
      if first.isScalar {
        guard let name = context.string(first, what) else { return nil }
        current = resolveReference(name, at: first)
      } else if let step = splitStep(first) {
        current = compileSource(step)
      }
      for stepNode in steps.dropFirst() {
        guard let step = splitStep(stepNode) else {
          current = nil
          continue
        }
        guard let input = current else {
          _ = compileOperator(step, input: .never, shape: .value)
          continue
        }
        current = compileOperator(step, input: input.0, shape: input.1)
      }
      return current
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
      guard checkStepName(name, at: node) else { return nil }
      return StepNode(name: name, nameNode: node, argument: nil, extras: [], node: node)
    }
    guard let pairs = context.mapping(node, "a step") else { return nil }
    return splitStep(Array(pairs), node: node)
  }

  /// Reads a step from its mapping's pairs (`node` places messages about it).
  func splitStep(_ pairs: [YAMLNode.Pair], node: YAMLNode) -> StepNode? {
    guard
      let index = pairs.firstIndex(where: { StepCatalog.all.contains($0.key.scalarValue ?? "") })
    else {
      let key = pairs.first?.key
      let name = key?.scalarValue ?? ""
      context.error(.unknownOperator(name), at: key ?? node)
      return nil
    }
    let pair = pairs[index]
    let name = pair.key.scalarValue ?? ""
    guard checkStepName(name, at: pair.key) else { return nil }
    var extras = pairs
    extras.remove(at: index)
    context.checkKeys(extras, allowed: StepCatalog.extras(of: name), in: "step '\(name)'")
    return StepNode(name: name, nameNode: pair.key, argument: pair.value, extras: extras, node: node)
  }

  private func checkStepName(_ name: String, at node: YAMLNode) -> Bool {
    if StepCatalog.plannedSet.contains(name) {
      context.error("'\(name)' is not supported yet", at: node)
      return false
    }
    guard StepCatalog.all.contains(name) else {
      context.error(.unknownOperator(name), at: node)
      return false
    }
    return true
  }

  private func argument(_ step: StepNode) -> YAMLNode? {
    if let argument = step.argument { return argument }
    context.error("'\(step.name)' needs an argument", at: step.nameNode)
    return nil
  }

  // MARK: - Sources

  func compileSource(_ step: StepNode) -> (SignalPlan, ValueShape)? {
    guard StepCatalog.sourceSet.contains(step.name) else {
      context.error("'\(step.name)' is an operator; a signal must start with a source", at: step.nameNode)
      return nil
    }
    guard let argument = argument(step) else { return nil }
    let label = NodeLabel(step.name, at: step.nameNode.start)
    switch step.name {
    case "hot":
      guard let input = marbleInput(step, argument, hot: true) else { return nil }
      plan.hotMarbles.append(input)
      return (.hot(plan.hotMarbles.count - 1), .value)
    case "cold":
      guard let input = marbleInput(step, argument, hot: false) else { return nil }
      return (.cold(input), .value)
    case "from":
      guard let name = context.string(argument, "'from'") else { return nil }
      return resolveReference(name, at: argument)
    case "just":
      return (.just(context.value(argument)), .value)
    case "of":
      guard let items = context.sequence(argument, "'of'") else { return nil }
      return (.of(items.map { context.value($0) }), .value)
    case "empty", "never":
      guard context.bool(argument, "'\(step.name)'") == true else {
        if case .bool(false) = argument.resolvedScalar {
          context.error("'\(step.name)' takes 'true'", at: argument)
        }
        return nil
      }
      return (step.name == "empty" ? .empty : .never, .value)
    case "fail":
      return (.fail(context.value(argument)), .value)
    case "interval":
      guard let period = frames(argument, "'interval'", minimum: 1) else { return nil }
      return (.timer(delay: period, period: period, label: label), .value)
    case "timer":
      return compileTimer(argument, label: label)
    case "combineLatest", "zip":
      return compileCombination(step.name, argument, first: nil)
    case "merge":
      guard let inputs = compileSignalList(argument, "'merge'") else { return nil }
      return (.merge(inputs, concurrent: concurrency(step) ?? .max), .value)
    case "concat":
      guard let inputs = compileSignalList(argument, "'concat'") else { return nil }
      return (.concat(inputs), .value)
    case "race":
      guard let inputs = compileSignalList(argument, "'race'") else { return nil }
      return (.race(inputs), .value)
    case "call":
      return compileCall(step, argument).map { ($0, .value) }
    default:
      return nil
    }
  }

  private func compileTimer(_ argument: YAMLNode, label: NodeLabel) -> (SignalPlan, ValueShape)? {
    guard let pairs = argument.mappingPairs else {
      guard let delay = frames(argument, "'timer'", minimum: 0) else { return nil }
      return (.timer(delay: delay, period: nil, label: label), .value)
    }
    context.checkKeys(pairs, allowed: ["after", "every"], in: "'timer'")
    let after = argument["after"].flatMap { frames($0, "'after'", minimum: 0) } ?? 0
    guard let everyNode = argument["every"] else {
      context.error("'timer' needs 'every' (or a single duration)", at: argument)
      return nil
    }
    guard let every = frames(everyNode, "'every'", minimum: 1) else { return nil }
    return (.timer(delay: after, period: every, label: label), .value)
  }

  /// `combineLatest`/`zip` as a source (`first` nil) or as an operator after `first`.
  func compileCombination(_ name: String, _ argument: YAMLNode, first: SignalPlan?) -> (SignalPlan, ValueShape)? {
    let isZip = name.hasPrefix("zip")
    if let pairs = argument.mappingPairs, first == nil, !pairs.isEmpty,
      pairs.allSatisfy({ !StepCatalog.all.contains($0.key.scalarValue ?? "") })
    {
      var keys: [String] = []
      var inputs: [SignalPlan] = []
      for pair in pairs {
        guard let key = context.string(pair.key, "a key"),
          let input = compileSignal(pair.value, "'\(name)' input '\(key)'")
        else { return nil }
        keys.append(key)
        inputs.append(input.0)
      }
      let plan: SignalPlan = isZip ? .zip(inputs, keys: keys) : .combineLatest(inputs, keys: keys)
      return (plan, .keyed(keys))
    }
    guard let others = compileSignalList(argument, "'\(name)'") else { return nil }
    let inputs = (first.map { [$0] } ?? []) + others
    let plan: SignalPlan = isZip ? .zip(inputs, keys: nil) : .combineLatest(inputs, keys: nil)
    return (plan, .tuple(inputs.count))
  }

  private func concurrency(_ step: StepNode) -> Int? {
    step.extra("concurrent").flatMap { context.count($0, "'concurrent'", minimum: 1) }
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
      context.error("\(what) must be a duration such as 5, 500ms or 1.5s, found \(context.describe(node))", at: node)
      return nil
    }
    guard result >= minimum else {
      let least = minimum == 1 ? "be at least one frame" : "not be negative"
      context.error("\(what) must \(least), found \(context.describe(node))", at: node)
      return nil
    }
    return result
  }

  // MARK: - Marbles

  /// A `hot`/`cold` step's marble with its local legend and error value.
  private func marbleInput(_ step: StepNode, _ argument: YAMLNode, hot: Bool) -> MarbleInput? {
    let legend = step.extra("values").flatMap { legendEntries($0) } ?? .empty
    let error = step.extra("error").map { context.value($0) } ?? errorValue
    let label = NodeLabel(currentName ?? step.name, at: step.nameNode.start)
    return marbleInput(
      argument, hot: hot, legend: legend, error: error, label: label,
      resolve: hot && plan.fileLegend.isPlain && legend.isPlain)
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
  /// plain values stay in the YAML (LegendTable.swift), signal entries are compiled.
  func legendEntries(_ node: YAMLNode) -> LegendTable? {
    guard let pairs = context.mapping(node, "'values'") else { return nil }
    var legend = LegendTable(mapping: node)
    if pairs.count <= LegendTable.resolvedLimit { legend.resolved = [] }
    for pair in pairs {
      guard let key = context.string(pair.key, "a legend key") else { continue }
      if key.isEmpty || key.contains("'") {
        context.error("legend key '\(key)' cannot be written in a marble", at: pair.key)
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
    return legend
  }

  // MARK: - Expressions

  /// Compiles an expression node (a YAML number, bool or null is that literal value).
  func expression(
    _ node: YAMLNode, shape: ValueShape, accumulator: Bool = false, index: Bool = true
  ) -> StepExpression? {
    let compiled: CompiledExpression
    switch node.resolvedScalar {
    case .string(let text)?:
      var parameters: ExpressionScope.Parameters
      switch shape {
      case .value: parameters = .value
      case .tuple(let arity): parameters = .tuple(arity: arity)
      case .keyed(let names): parameters = .keyed(names: names)
      }
      if accumulator {
        if case .tuple(let arity) = shape {
          parameters = .accumulator(valueArity: arity)
        } else {
          parameters = .accumulator(valueArity: nil)
        }
      }
      let scope = ExpressionScope(
        parameters: parameters, indexAvailable: index, templateNames: templateNames,
        properties: propertyNames, maxDepth: expressionDepth)
      do throws(ExpressionError) {
        compiled = try CompiledExpression(text, scope: scope)
      } catch {
        context.error(error, in: node)
        return nil
      }
    case .null?, .bool?, .int?, .double?:
      compiled = .literal(context.value(node))
    case nil:
      context.error("expected an expression (a string), found a \(node.kindName)", at: node)
      return nil
    }
    return StepExpression(expression: compiled, node: node, location: node.start)
  }
}

extension Diagnostic.Message {
  fileprivate static func unknownOperator(_ name: String) -> Self {
    Self("unknown operator '\(name)'").suggesting(name, among: StepCatalog.sources + StepCatalog.operators)
  }
}
