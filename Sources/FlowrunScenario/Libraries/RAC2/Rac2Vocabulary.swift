import FlowrunCore
import FlowrunYAML

extension StepTable {
  /// `library: rac2`: ReactiveObjC's own selectors for operators the catalogue has the meaning
  /// of, and the few it adds (docs/libraries.md, "RAC2 vocabulary").
  static let rac2Vocabulary: [StepDefinition] = rac2NamedSteps + rac2SourceSteps

  /// RAC2's names for the catalogue's meanings, and its small operators.
  static let rac2NamedSteps: [StepDefinition] = [
    .equivalent(
      "doError", .bare, of: "tap", library: .rac2, summary: "RAC2 -doError:: a marker that --trace labels."),
    .equivalent(
      "doCompleted", .bare, of: "tap", library: .rac2, summary: "RAC2 -doCompleted:: a marker that --trace labels."),
    .operator(
      "setNameWithFormat", .string, summary: "RAC2 -setNameWithFormat:: names the signal; events pass on.",
      library: .rac2, nearest: "name"
    ) { c in
      c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator(
      "deliverOnMainThread", .bare,
      summary:
        "RAC2 -deliverOnMainThread: on the main thread with nothing queued it delivers at once, so events pass on.",
      library: .rac2, nearest: "deliverOn"
    ) { c in
      // RACSignal+Operations.m -deliverOnMainThread: `NSThread.isMainThread && queued == 1`
      // runs the block at once; a view model's signals run on the main thread (a delivery that
      // re-enters while one is under way is queued in RAC2, which is not modelled).
      guard c.checkBare() else { return nil }
      return c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator(
      "logAll", .bare, summary: "RAC2 -logAll: logs in RAC2; here a marker that --trace labels.", library: .rac2,
      nearest: "tap"
    ) { c in
      c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator(
      "logNext", .bare, summary: "RAC2 -logNext: logs in RAC2; here a marker that --trace labels.", library: .rac2,
      nearest: "tap"
    ) { c in
      c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator(
      "logError", .bare, summary: "RAC2 -logError: logs in RAC2; here a marker that --trace labels.",
      library: .rac2, nearest: "tap"
    ) { c in
      c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator(
      "logCompleted", .bare, summary: "RAC2 -logCompleted: logs in RAC2; here a marker that --trace labels.",
      library: .rac2, nearest: "tap"
    ) { c in
      c.apply(c.shape, label: c.step.name) { _, upstream, _ in upstream }
    },
    .operator(
      "any", .optionalExpression,
      summary: "RAC2 -any / -any:: true at the first value (that passes), false when the signal ends first.",
      library: .rac2, nearest: "first"
    ) { c in
      c.uses("rac2-any-all")
      return c.rac2Test(passesWhenBare: true) { upstream, test in upstream.rac2Any(test) }
    },
    .operator(
      "all", .expression,
      summary: "RAC2 -all:: false at the first value that fails or at an error, true at completion.",
      library: .rac2, nearest: "reduce"
    ) { c in
      guard c.requiredNonNullArgument() != nil else { return nil }
      c.uses("rac2-any-all")
      return c.rac2Test(passesWhenBare: true) { upstream, test in upstream.rac2All(test) }
    },
    .operator(
      "try", .expression,
      summary: "RAC2 -try:: a value passes when the expression is true; false fails the signal with the value.",
      library: .rac2, nearest: "filter"
    ) { c in
      c.uses("rac2-try")
      guard let argument = c.requiredArgument(), let step = c.expression(argument) else { return nil }
      let role = c.definition.name
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        let test = graph.predicate(step, scope, role: role)
        return upstream.map { value, index throws(StepFailure) in
          guard try test(value, index) else { throw StepFailure(value) }
          return value
        }
      }
    },
    .operator(
      "tryMap", .expression,
      summary: "RAC2 -tryMap:: the expression's value; nil (null) or a failing expression fails the signal.",
      library: .rac2, nearest: "map"
    ) { c in
      c.uses("rac2-try")
      guard let argument = c.requiredArgument(), let step = c.expression(argument) else { return nil }
      return c.apply(.value) { graph, upstream, scope in
        let transform = graph.transform(step, scope)
        return upstream.map { value, index throws(StepFailure) in
          let mapped = try transform(value, index)
          guard mapped != .null else { throw StepFailure(value) }
          return mapped
        }
      }
    },
    .operator(
      "combinePreviousWithStart", .labels,
      summary:
        "RAC2 -combinePreviousWithStart:reduce:: { start: v, reduce: expr }, $0 the previous value, $1 the new one.",
      library: .rac2, nearest: "pairwise"
    ) { c in
      c.uses("rac2-combinePreviousWithStart")
      guard let node = c.labelled(["start", "reduce"]) else {
        c.error(.takesStartAndReduce(c.step.name), at: c.argument ?? c.step.nameNode)
        return nil
      }
      guard let startNode = c.required("start", of: node), let reduceNode = c.required("reduce", of: node),
        let step = c.expression(reduceNode, accumulator: true)
      else { return nil }
      let start = c.value(startNode)
      return c.apply(.value) { graph, upstream, scope in
        let reduce = graph.accumulate(step, scope)
        // The running pair [previous value, last result].
        return upstream.scan(seed: .list([start, .null])) { pair, value, index throws(StepFailure) in
          guard case .list(let items) = pair, let previous = items.first else { return pair }
          return .list([value, try reduce(previous, value, index)])
        }
        .map { pair, _ in
          guard case .list(let items) = pair, items.count == 2 else { return pair }
          return items[1]
        }
      }
    },
  ]

  /// For each default key that RAC2 spells otherwise, ReactiveObjC's selector, quoted as the note
  /// of `flowrun check` under `library: rac2` prints it.
  static let rac2Words: [String: String] = [
    "mapTo": "'mapReplace:'", "flatMap": "'flattenMap:'", "mergeAll": "'flatten'", "concatAll": "'concat'",
    "switchMap": "'flattenMap: + switchToLatest'", "tap": "'doNext:'", "observeOn": "'deliverOn:'",
    "catchAndReturn": "'catchTo: + return:'", "ignoreElements": "'ignoreValues'",
    "reduce": "'aggregateWithStart:reduce:'",
    "scan": "'scanWithStart:reduce:'", "takeWhile": "'takeWhileBlock:'", "skipWhile": "'skipWhileBlock:'",
    "pairwise": "'combinePreviousWithStart:reduce:'", "debounce": "'throttle:'",
    "bufferTime": "'bufferWithTime:onScheduler:'",
    "mergeWith": "'merge:'", "concatWith": "'concat:'",
    "first": "'take:1'", "last": "'takeLast:1'", "fail": "'error:'", "just": "'return:'",
    "timeoutRAC": "'timeout:onScheduler:'", "takeUntilRAC": "'takeUntil:'", "sampleRAC": "'sample:'",
  ]
}

extension OperatorCompilation {
  /// A test written as the argument, or (bare, when `passesWhenBare`) one every value passes.
  fileprivate func rac2Test(
    passesWhenBare: Bool, _ make: @escaping (_ upstream: any Source, @escaping Predicate) -> any Source
  ) -> (SignalPlan, ValueShape)? {
    guard let argument = nonNullArgument, argument.resolvedScalar != .bool(true) else {
      return apply(.value) { _, upstream, _ in make(upstream) { _, _ in passesWhenBare } }
    }
    guard let step = expression(argument) else { return nil }
    let role = definition.name
    return apply(.value) { graph, upstream, scope in make(upstream, graph.predicate(step, scope, role: role)) }
  }
}
