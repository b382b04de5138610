import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

extension ScenarioCompiler {
  /// Compiles one operator step applied to `input`, whose values have `shape`.
  func compileOperator(_ step: StepNode, input: SignalPlan, shape: ValueShape) -> (SignalPlan, ValueShape)? {
    let name = step.name
    guard StepCatalog.operatorSet.contains(name) else {
      context.error("'\(name)' is a source; only the first step of a signal may be one", at: step.nameNode)
      return nil
    }
    func apply(_ op: OperatorPlan, _ shape: ValueShape) -> (SignalPlan, ValueShape) {
      (.apply(input, op), shape)
    }
    if StepCatalog.higherOrderSet.contains(name) {
      // `retry` passes its source's values on unchanged, so they keep their shape
      // (expressions.md: `$i` after a list-form combineLatest/zip survives such operators).
      let after = name == "retry" ? shape.passedOn : .value
      return compileHigherOrder(step, input: input).map { ($0, after) }
    }
    if CatalogueOperator.nameSet.contains(name) {
      return compileCatalogueOperator(step, input: input, shape: shape)
    }
    switch name {
    case "tap", "doNext":
      return apply(.label(NodeLabel(name, at: step.nameNode.start)), shape)
    case "distinctUntilChanged":
      guard let argument = step.argument, !argument.isNull, argument.resolvedScalar != .bool(true) else {
        return apply(.distinctUntilChanged(nil), shape.passedOn)
      }
      guard let key = expression(argument, shape: shape) else { return nil }
      return apply(.distinctUntilChanged(key), shape.passedOn)
    default:
      break
    }
    guard let argument = step.argument else {
      context.error("'\(name)' needs an argument", at: step.nameNode)
      return nil
    }
    switch name {
    case "map":
      return expression(argument, shape: shape).map { apply(.map($0), .value) }
    case "mapTo":
      return apply(.mapTo(context.value(argument)), .value)
    case "filter":
      return expression(argument, shape: shape).map { apply(.filter($0), shape.passedOn) }
    case "scan":
      let seed = step.extra("seed").map { context.value($0) }
      return expression(argument, shape: shape, accumulator: true).map {
        apply(.scan($0, seed: seed), .value)
      }
    case "skip", "take":
      guard let count = context.count(argument, "'\(name)'") else { return nil }
      return apply(name == "skip" ? .skip(count) : .take(count), shape.passedOn)
    case "takeWhile":
      let inclusive = step.extra("inclusive").flatMap { context.bool($0, "'inclusive'") } ?? false
      return expression(argument, shape: shape).map {
        apply(.takeWhile($0, inclusive: inclusive), shape.passedOn)
      }
    case "skipWhile":
      return expression(argument, shape: shape).map { apply(.skipWhile($0), shape.passedOn) }
    case "takeUntil", "takeUntilRAC":
      guard let notifier = compileSignal(argument, "'\(name)'") else { return nil }
      return apply(.takeUntil(notifier.0, completesWithNotifier: name == "takeUntilRAC"), shape.passedOn)
    case "startWith":
      let values: [Value]
      if case .list(let items) = context.value(argument) { values = items } else {
        values = [context.value(argument)]
      }
      return apply(.startWith(values), shape.passedOn)
    case "combineLatest", "combineLatestWith", "zip", "zipWith":
      return compileCombination(name, argument, first: input)
    case "merge", "mergeWith":
      guard let others = compileSignalList(argument, "'\(name)'") else { return nil }
      let concurrent =
        step.extra("concurrent").flatMap { context.count($0, "'concurrent'", minimum: 1) } ?? .max
      return (.merge([input] + others, concurrent: concurrent), .value)
    case "concat", "concatWith":
      guard let others = compileSignalList(argument, "'\(name)'") else { return nil }
      return (.concat([input] + others), .value)
    case "name":
      guard let label = context.string(argument, "'name'") else { return nil }
      return apply(.label(NodeLabel(label, at: argument.start)), shape)
    default:
      context.error("'\(name)' is not supported yet", at: step.nameNode)
      return nil
    }
  }
}
