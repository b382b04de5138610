import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

/// Operators of the wider catalogue (scenario-format.md §Operators), compiled from their steps
/// and instantiated per run (CatalogueGraph.swift).
enum CatalogueOperator {
  case reduce(StepExpression, seed: Value?)
  case pairwise
  case materialize
  case dematerialize
  case takeLast(Int)
  case skipUntil(SignalPlan)
  case first(StepExpression?, default: Value?)
  case last(StepExpression?, default: Value?)
  case elementAt(Int, default: Value?)
  case ignoreElements
  case ignore(Value)
  case withLatestFrom([SignalPlan])
  case sample(SignalPlan, rac: Bool)
  case then(SignalPlan)
  case debounce(Int, NodeLabel)
  case throttle(Int, leading: Bool, trailing: Bool, NodeLabel)
  case delay(Int, NodeLabel)
  case delaySubscription(Int, NodeLabel)
  case timeout(Int, fallback: SignalPlan?, NodeLabel)
  case timeoutRAC(Int, NodeLabel)
  case bufferTime(Int, every: Int?, max: Int?, NodeLabel)
  case buffer(Int, every: Int?)
  /// `share`, `shareReplay`, `replay`, `replayLast`, `replayLazily`; `eager` connects at setup.
  case share(ShareSource.Policy, eager: Bool, NodeLabel)
  case observeOn(NodeLabel)

  /// The step names handled here.
  static let names: [String] = [
    "reduce", "pairwise", "materialize", "dematerialize", "takeLast", "skipUntil", "first", "last",
    "elementAt", "ignoreElements", "ignoreValues", "ignore", "withLatestFrom", "sample", "sampleRAC",
    "then", "debounce", "throttle", "delay", "delaySubscription", "timeout", "timeoutRAC",
    "bufferTime", "buffer", "share", "shareReplay", "replay", "replayLast", "replayLazily",
    "observeOn", "deliverOn",
  ]

  static let nameSet = Set(names)

  /// Steps that take no argument (written bare, or with `true`/null).
  static let bare: Set<String> = [
    "pairwise", "materialize", "dematerialize", "ignoreElements", "ignoreValues", "share", "replay",
    "replayLast", "replayLazily",
  ]

  /// The extra keys a step accepts beside its own.
  static func extras(of step: String) -> [String] {
    switch step {
    case "reduce": ["seed"]
    case "first", "last", "elementAt": ["default"]
    case "throttle": ["leading", "trailing", "latest"]
    case "timeout": ["fallback"]
    case "bufferTime": ["every", "max"]
    case "buffer": ["every"]
    default: []
    }
  }
}

extension ScenarioCompiler {
  /// Compiles a catalogue operator step applied to `input`, whose values have `shape`.
  func compileCatalogueOperator(_ step: StepNode, input: SignalPlan, shape: ValueShape) -> (SignalPlan, ValueShape)? {
    let name = step.name
    let label = NodeLabel(name, at: step.nameNode.start)
    func apply(_ op: CatalogueOperator, _ shape: ValueShape) -> (SignalPlan, ValueShape) {
      (.apply(input, .catalogue(op)), shape)
    }
    let argument = step.argument.flatMap { $0.resolvedScalar == .null ? nil : $0 }
    if CatalogueOperator.bare.contains(name) {
      if let argument, argument.resolvedScalar != .bool(true) {
        context.error("'\(name)' takes no argument", at: argument)
        return nil
      }
      switch name {
      case "pairwise": return apply(.pairwise, .tuple(2))
      case "materialize": return apply(.materialize, .value)
      case "dematerialize": return apply(.dematerialize, .value)
      case "share": return apply(.share(.share, eager: false, label), shape.passedOn)
      case "replay": return apply(.share(.racReplay(.max), eager: true, label), shape.passedOn)
      case "replayLast": return apply(.share(.racReplay(1), eager: true, label), shape.passedOn)
      case "replayLazily": return apply(.share(.racReplay(.max), eager: false, label), shape.passedOn)
      default: return apply(.ignoreElements, shape.passedOn)
      }
    }
    if name == "first" || name == "last" {
      let defaultValue = step.extra("default").map { context.value($0) }
      var test: StepExpression?
      if let argument {
        guard let compiled = expression(argument, shape: shape) else { return nil }
        test = compiled
      }
      let op: CatalogueOperator =
        name == "first" ? .first(test, default: defaultValue) : .last(test, default: defaultValue)
      return apply(op, shape.passedOn)
    }
    guard let argument else {
      context.error("'\(name)' needs an argument", at: step.nameNode)
      return nil
    }
    switch name {
    case "reduce":
      let seed = step.extra("seed").map { context.value($0) }
      return expression(argument, shape: shape, accumulator: true).map {
        apply(.reduce($0, seed: seed), .value)
      }
    case "takeLast":
      return context.count(argument, "'takeLast'").map { apply(.takeLast($0), shape.passedOn) }
    case "elementAt":
      guard let index = context.count(argument, "'elementAt'") else { return nil }
      let defaultValue = step.extra("default").map { context.value($0) }
      return apply(.elementAt(index, default: defaultValue), shape.passedOn)
    case "ignore":
      return apply(.ignore(context.value(argument)), shape.passedOn)
    case "skipUntil":
      return compileSignal(argument, "'skipUntil'").map { apply(.skipUntil($0.0), shape.passedOn) }
    case "sample", "sampleRAC":
      return compileSignal(argument, "'\(name)'").map {
        apply(.sample($0.0, rac: name == "sampleRAC"), shape.passedOn)
      }
    case "then":
      return compileSignal(argument, "'then'").map { apply(.then($0.0), $0.1) }
    case "withLatestFrom":
      return compileSignalList(argument, "'withLatestFrom'").map {
        apply(.withLatestFrom($0), .tuple($0.count + 1))
      }
    case "debounce", "delay", "delaySubscription", "timeoutRAC":
      guard let duration = frames(argument, "'\(name)'", minimum: 0) else { return nil }
      switch name {
      case "debounce": return apply(.debounce(duration, label), shape.passedOn)
      case "delay": return apply(.delay(duration, label), shape.passedOn)
      case "delaySubscription": return apply(.delaySubscription(duration, label), shape.passedOn)
      default: return apply(.timeoutRAC(duration, label), shape.passedOn)
      }
    case "throttle":
      guard let duration = frames(argument, "'throttle'", minimum: 0) else { return nil }
      let leading = step.extra("leading").flatMap { context.bool($0, "'leading'") } ?? true
      if step.extra("trailing") != nil, let latest = step.extra("latest") {
        context.error("'latest' is an alias of 'trailing'; write only one of them", at: latest)
      }
      let trailingNode = step.extra("trailing") ?? step.extra("latest")
      let trailing = trailingNode.flatMap { context.bool($0, "'trailing'") } ?? true
      return apply(.throttle(duration, leading: leading, trailing: trailing, label), shape.passedOn)
    case "timeout":
      guard let duration = frames(argument, "'timeout'", minimum: 0) else { return nil }
      var fallback: SignalPlan?
      if let node = step.extra("fallback") {
        guard let plan = compileSignal(node, "'fallback'") else { return nil }
        fallback = plan.0
      }
      return apply(.timeout(duration, fallback: fallback, label), shape.passedOn)
    case "bufferTime":
      guard let span = frames(argument, "'bufferTime'", minimum: 1) else { return nil }
      let every = step.extra("every").flatMap { frames($0, "'every'", minimum: 1) }
      let max = step.extra("max").flatMap { context.count($0, "'max'", minimum: 1) }
      return apply(.bufferTime(span, every: every, max: max, label), .value)
    case "buffer":
      guard let size = context.count(argument, "'buffer'", minimum: 1) else { return nil }
      let every = step.extra("every").flatMap { context.count($0, "'every'", minimum: 1) }
      return apply(.buffer(size, every: every), .value)
    case "shareReplay":
      return context.count(argument, "'shareReplay'").map {
        apply(.share(.shareReplay($0), eager: false, label), shape.passedOn)
      }
    case "observeOn", "deliverOn":
      guard context.string(argument, "'\(name)'") != nil else { return nil }
      return apply(.observeOn(label), shape.passedOn)
    default:
      context.error("'\(name)' is not supported yet", at: step.nameNode)
      return nil
    }
  }
}
