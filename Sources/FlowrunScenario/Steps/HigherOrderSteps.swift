import FlowrunCore
import FlowrunExpressions
import FlowrunYAML

extension StepTable {
  /// The operators whose argument is a template or that flatten signal values, and the error
  /// operators (GraphTemplates.swift instantiates templates).
  static let higherOrderSteps: [StepDefinition] = [
    .operator(
      "flatMap", .template, aliases: [Alias("flattenMap", of: .rac2)], extras: [.concurrent],
      summary:
        "Each value makes an inner signal from the template ('outer' is the value); all are merged (extra key: concurrent)."
    ) { c in
      guard let argument = c.requiredArgument(), let template = c.template(argument, binding: .outer) else {
        return nil
      }
      let concurrent = c.extra(.concurrent).flatMap { c.count($0, "'concurrent'", minimum: 1) } ?? .max
      return c.flatMap(template, concurrent: concurrent)
    },
    .operator(
      "flatMapLatest", .template, aliases: [Alias("switchMap", of: .rxjs)],
      summary: "Each value makes an inner signal; a new one cancels the previous (switchMap)."
    ) { c in
      guard let argument = c.requiredArgument(), let template = c.template(argument, binding: .outer) else {
        return nil
      }
      return c.apply(.value) { graph, upstream, scope in
        upstream.switchMap(graph.project(template, scope))
      }
    },
    .operator("concatMap", .template, summary: "Each value makes an inner signal; they run one after another.") { c in
      guard let argument = c.requiredArgument(), let template = c.template(argument, binding: .outer) else {
        return nil
      }
      return c.flatMap(template, concurrent: 1)
    },
    .operator(
      "exhaustMap", .template, summary: "Each value makes an inner signal, ignored while the previous one runs."
    ) { c in
      guard let argument = c.requiredArgument(), let template = c.template(argument, binding: .outer) else {
        return nil
      }
      return c.apply(.value) { graph, upstream, scope in
        upstream.exhaustMap(graph.project(template, scope))
      }
    },
    .operator(
      "mergeAll", .bare, aliases: [Alias("flatten", of: .rac2)], extras: [.concurrent],
      summary: "Merges signal values (extra key: concurrent)."
    ) { c in
      c.mergeAll(concurrent: c.extra(.concurrent).flatMap { c.count($0, "'concurrent'", minimum: 1) } ?? .max)
    },
    .operator(
      "switchToLatest", .bare, aliases: [Alias("switchAll", of: .rxjs)],
      summary: "Switches to the latest signal value, cancelling the previous one."
    ) { c in
      let name = c.definition.name
      return c.apply(.value) { _, upstream, _ in
        upstream.switchMap { value, _ throws(StepFailure) in try innerSignal(of: value, operator: name) }
      }
    },
    .operator("concatAll", .bare, summary: "Subscribes to signal values one after another.") { c in
      c.mergeAll(concurrent: 1)
    },
    .operator(
      "catch", .template, summary: "On error, continues with the template's signal ('error' is the error value)."
    ) { c in
      guard let argument = c.requiredArgument(), let template = c.template(argument, binding: .error) else {
        return nil
      }
      return c.apply(.value) { graph, upstream, scope in
        // Unowned: the handler runs only while its graph runs (Runtime, "Ownership").
        upstream.catchError { [unowned graph] error throws(StepFailure) in
          var inner = scope
          inner.error = error
          inner.subject = error
          return try graph.instantiate(template, scope: inner)
        }
      }
    },
    .operator("catchAndReturn", .value, summary: "On error, emits this value and completes.") { c in
      guard let argument = c.requiredArgument() else { return nil }
      let value = c.value(argument)
      return c.apply(.value) { _, upstream, _ in upstream.catchError { _ in ImmediateSource.just(value) } }
    },
    .operator(
      "retry", .retry, summary: "Re-subscribes after an error: n times, unbounded when bare, or {count, delay}."
    ) { c in
      let label = NodeLabel(c.compiler.currentName ?? c.step.name, at: c.step.nameNode.start)
      var count: Int?
      var delay = 0
      if let argument = c.argument, !argument.isNull {
        if let pairs = argument.mappingPairs {
          c.compiler.context.checkKeys(pairs, allowed: ["count", "delay"], in: c.quotedName)
          count = argument["count"].flatMap { c.count($0, "'count'") }
          if argument["count"] != nil, count == nil { return nil }
          delay = argument["delay"].flatMap { c.frames($0, "'delay'", minimum: 0) } ?? 0
        } else {
          guard let limit = c.count(argument, c.quotedName) else { return nil }
          count = limit
        }
      }
      // Retrying passes the source's values on unchanged, so they keep their shape (expressions.md:
      // `$i` after a list-form combineLatest/zip survives such operators).
      return c.apply(c.shape.passedOn) { [count, delay] graph, upstream, _ in
        upstream.retry(count: count, delay: Timing(delay, owner: label, runtime: graph.runtime))
      }
    },
  ]
}

extension OperatorCompilation {
  /// `flatMap` with at most `concurrent` inners at once (traced as `concatMap` with one);
  /// `isAsyncSequence`: the standard library's `flatMap`, which makes its next inner at the
  /// consumer's pull and lets its base's failure wait behind the inners (`Source.flatMap`).
  func flatMap(_ template: TemplatePlan, concurrent: Int, isAsyncSequence: Bool = false) -> (
    SignalPlan, ValueShape
  ) {
    apply(.value, label: concurrent == 1 ? "concatMap" : "flatMap") { graph, upstream, scope in
      upstream.flatMap(
        isAsyncSequence ? .asyncSequence : .merge(concurrent: concurrent), graph.project(template, scope))
    }
  }

  /// `mergeAll` with at most `concurrent` inners at once (traced, and named in its errors, as
  /// `concatAll` with one). Its argument is not read.
  fileprivate func mergeAll(concurrent: Int) -> (SignalPlan, ValueShape) {
    let name = concurrent == 1 ? "concatAll" : "mergeAll"
    return apply(.value, label: name) { _, upstream, _ in
      upstream.flatMap(.merge(concurrent: concurrent)) { value, _ throws(StepFailure) in
        try innerSignal(of: value, operator: name)
      }
    }
  }
}
