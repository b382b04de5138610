import FlowrunCore
import FlowrunExpressions
import FlowrunYAML

extension StepTable {
  /// `library: combine` (libraries.md): Combine's operator names, and the keys Combine spells
  /// with its labels (`throttle: { for: 5, latest: true }`), each with Combine's meaning as
  /// OpenCombine implements it. Each meaning is a row of docs/libraries.md, named in `uses`.
  static let combineSteps: [StepDefinition] = [
    .equivalent(
      "removeDuplicates", .optionalExpression, of: "distinctUntilChanged", library: .combine,
      row: "combine-removeDuplicates-prepend", summary: "Combine removeDuplicates (= distinctUntilChanged)."),
    .equivalent(
      "prepend", .value, of: "startWith", library: .combine, row: "combine-removeDuplicates-prepend",
      summary: "Combine prepend: these values first (= startWith)."),
    .operator(
      "append", .value, summary: "Combine append: after the source completes, these values, then completed.",
      library: .combine, nearest: "concatWith"
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let values: [Value]
      if case .list(let items) = c.value(argument) { values = items } else { values = [c.value(argument)] }
      c.uses("combine-append")
      return c.apply(c.shape.passedOn) { _, upstream, _ in MergeSource.concat([upstream, ImmediateSource.of(values)]) }
    },
    .equivalent(
      "replaceError", .value, of: "catchAndReturn", library: .combine, row: "combine-replaceError",
      summary: "Combine replaceError(with:): on failure, this value, then finished."),
    .operator(
      "replaceEmpty", .value, summary: "Combine replaceEmpty(with:): this value when the source finishes empty.",
      library: .combine, nearest: "defaultIfEmpty"
    ) { c in
      guard let argument = c.requiredArgument() else { return nil }
      let value = c.value(argument)
      c.uses("combine-replaceEmpty")
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.replaceEmpty(with: value) }
    },
    .operator(
      "flatMap", .labels, extras: [.concurrent],
      summary: "flatMap: template, or Combine flatMap(maxPublishers:): { maxPublishers: n, signal: template }.",
      library: .combine, drops: .init(.unsubscribed, "maxPublishers inner signals were running")
    ) { c in
      guard let argument = c.argument, argument["maxPublishers"] != nil,
        let node = c.labelled(["maxPublishers", "signal"])
      else { return c.compileAsDefault() }
      guard let limit = c.required("maxPublishers", of: node).flatMap({ c.count($0, "'maxPublishers'", minimum: 1) }),
        let signal = c.required("signal", of: node), let template = c.template(signal, binding: .outer)
      else { return nil }
      c.uses("combine-flatmap-max-publishers-drops")
      return c.apply(.value) { graph, upstream, scope in
        upstream.flatMap(concurrent: limit, dropsWhenFull: true, graph.project(template, scope))
      }
    },
    .operator(
      "throttle", .labels, extras: [.leading, .trailing, .latest],
      summary: "throttle: d, or Combine throttle(for:latest:): { for: d, latest: bool }.", library: .combine
    ) { c in
      guard let node = c.labelled(["for", "latest"]) else { return c.compileAsDefault() }
      guard let duration = c.required("for", of: node), let latestNode = c.required("latest", of: node),
        let latest = c.bool(latestNode, "'latest'")
      else { return nil }
      c.uses("combine-throttle-latest-false-sends-first-at-window-end")
      c.uses("combine-throttle-emits-as-new-action")
      c.uses("combine-throttle-failure-waits-for-pending")
      return c.timed(duration, "'for'") { upstream, timing in upstream.combineThrottle(timing, latest: latest) }
    },
    .operator(
      "debounce", .labels, summary: "debounce: d, or Combine debounce(for:): { for: d }.", library: .combine,
      drops: .init(.replaced, "a newer value came", atEnd: "the source completed while it was pending")
    ) { c in
      guard let node = c.labelled(["for"]) else { return c.compileAsDefault() }
      guard let duration = c.required("for", of: node) else { return nil }
      c.uses("combine-debounce-drops-pending-on-completion")
      return c.timed(duration, "'for'") { upstream, timing in upstream.debounce(timing, dropsPendingOnEnd: true) }
    },
    .operator(
      "delay", .labels, summary: "delay: d, or Combine delay(for:): { for: d } — the completion and failure too.",
      library: .combine
    ) { c in
      guard let node = c.labelled(["for"]) else { return c.compileAsDefault() }
      guard let duration = c.required("for", of: node) else { return nil }
      c.uses("combine-delay-delays-completion-and-failure")
      return c.timed(duration, "'for'") { upstream, timing in
        upstream.delay(timing, delaysCompletion: true, delaysError: true)
      }
    },
    .operator(
      "timeout", .labels, extras: [.fallback],
      summary:
        "timeout: d, or Combine timeout(_:customError:): { for: d, customError: v } — finishes unless customError.",
      library: .combine
    ) { c in
      guard let node = c.labelled(["for", "customError"]) else { return c.compileAsDefault() }
      guard let duration = c.required("for", of: node) else { return nil }
      let customError = node["customError"].map { c.value($0) }
      c.uses("combine-timeout-finishes")
      c.uses("combine-timeout-redelivers-as-actions")
      return c.timed(duration, "'for'") { upstream, timing in upstream.combineTimeout(timing, customError: customError)
      }
    },
    .operator(
      "prefix", .labels,
      summary: "Combine prefix(n): finishes at the value after the n-th; { untilOutputFrom: s }: until s sends.",
      library: .combine, nearest: "take"
    ) { c in
      if let node = c.labelled(["untilOutputFrom"]) {
        guard let signal = c.required("untilOutputFrom", of: node),
          let notifier = c.signal(signal, "'untilOutputFrom'")?.0
        else { return nil }
        c.uses("combine-prefix-until-output-ignores-failure")
        return c.apply(c.shape.passedOn) { graph, upstream, scope in
          upstream.takeUntil(graph.source(for: notifier, scope: scope), ignoresNotifierError: true)
        }
      }
      guard let argument = c.requiredNonNullArgument(), let count = c.count(argument, c.quotedName) else { return nil }
      c.uses("combine-prefix-finishes-on-next-value")
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream.take(count, finishesOnNextValue: true) }
    },
    .equivalent(
      "dropFirst", .count, of: "skip", library: .combine, summary: "Combine dropFirst(n): drops the first n values."),
    .equivalent(
      "receiveOn", .string, of: "observeOn", library: .combine,
      summary: "Combine receive(on:): each event re-delivered as a new scheduler action at the same frame."),
    .equivalent(
      "handleEvents", .bare, of: "tap", library: .combine,
      summary: "Combine handleEvents: a marker that --trace labels."),
    .operator(
      "assign", .name, summary: "Combine assign(to:): the property takes every value, as a binding does.",
      library: .combine, nearest: "properties"
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let name = c.string(argument, c.quotedName) else { return nil }
      guard c.compiler.assign(c.input, to: name, at: argument) else { return nil }
      return c.apply(c.shape.passedOn, label: "assign") { _, upstream, _ in upstream }
    },
  ]
}
