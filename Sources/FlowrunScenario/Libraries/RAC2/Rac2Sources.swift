import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

extension StepTable {
  /// `library: rac2`: ReactiveObjC's class methods that start a signal (`+return:`, `+error:`,
  /// `+defer:`, `+if:then:else:`, `+switch:cases:default:`), its multicast connections
  /// (`-publish`, `-multicast:` + `-autoconnect`) and the operators that split or flatten
  /// signals (`-flatten:`, `-groupBy:`, `-takeUntilReplacement:`, `-repeat`), each over a shared
  /// observer (docs/libraries.md, "RAC2 vocabulary").
  static let rac2SourceSteps: [StepDefinition] = [
    .source("return", .value, summary: "RAC2 +return:: one value, then completed, at subscription.", library: .rac2) {
      c in c.compileSource(as: "just")
    },
    .source(
      "error", .value, summary: "RAC2 +error:: an error with this value at subscription.", library: .rac2
    ) { c in c.compileSource(as: "fail") },
    .source("defer", .signal, summary: "RAC2 +defer:: the signal made anew for each subscriber.", library: .rac2) {
      c in
      guard let inner = c.signal(c.argument, "'defer'")?.0 else { return nil }
      return (c.source { graph, scope in DeferredSource { graph.source(for: inner, scope: scope) } }, .value)
    },
    .source(
      "if", .labels,
      summary: "RAC2 +if:then:else:: { signal: bools, then: signal, else: signal }, switching at each Bool.",
      library: .rac2
    ) { c in c.rac2Switch(ifThenElse: true) },
    .source(
      "switch", .labels,
      summary:
        "RAC2 +switch:cases:default:: { signal: keys, cases: { key: signal, … }, default: signal }, switching at each key.",
      library: .rac2
    ) { c in c.rac2Switch(ifThenElse: false) },
    .operator(
      "flatten", .labels,
      summary: "RAC2 -flatten / -flatten:: merges signal values, at most n at once (0 or bare: without limit).",
      library: .rac2, nearest: "mergeAll"
    ) { c in
      var limit = Int.max
      if let argument = c.nonNullArgument, argument.resolvedScalar != .bool(true) {
        guard let count = c.count(argument, c.quotedName) else { return nil }
        if count > 0 { limit = count }
      }
      let name = c.definition.name
      return c.apply(.value) { _, upstream, _ in
        upstream.flatMap(.merge(concurrent: limit)) { value, _ throws(StepFailure) in
          try innerSignal(of: value, operator: name)
        }
      }
    },
    .operator(
      "takeUntilReplacement", .signal,
      summary:
        "RAC2 -takeUntilReplacement:: the source's values until the replacement sends any event, then its events.",
      library: .rac2, nearest: "takeUntil"
    ) { c in
      guard let argument = c.requiredNonNullArgument(), let other = c.signal(argument, c.quotedName)?.0 else {
        return nil
      }
      c.uses("rac2-takeUntilReplacement")
      return c.apply(c.shape.passedOn) { graph, upstream, scope in
        upstream.takeUntilReplacement(graph.source(for: other, scope: scope))
      }
    },
    .operator(
      "repeat", .bare,
      summary: "RAC2 -repeat: subscribes again at each completion, through the scheduler; an error ends it.",
      library: .rac2, nearest: "retry"
    ) { c in
      guard c.checkBare() else { return nil }
      c.uses("rac2-repeat")
      let owner = c.nodeLabel
      return c.apply(c.shape.passedOn) { graph, upstream, _ in
        upstream.repeatForever(owner: owner, runtime: graph.runtime)
      }
    },
    .operator(
      "groupBy", .labels,
      summary:
        "RAC2 -groupBy: / -groupBy:transform:: groupBy: expr or { key: expr, transform: expr }; the groups end after the outer signal.",
      library: .rac2, nearest: "mergeAll"
    ) { c in c.groupBy(keyLabel: "key", transformLabel: "transform", groupsEndLast: true, row: "rac2-groupBy") },
    .operator(
      "publish", .bare,
      summary:
        "RAC2 -publish: a RACMulticastConnection through a RACSubject; connected at setup unless 'autoconnect' follows.",
      library: .rac2, nearest: "replay"
    ) { c in
      guard c.checkBare() else { return nil }
      return c.rac2Multicast(.publish, isRAC: true)
    },
    .operator(
      "multicast", .labels,
      summary:
        "RAC2 -multicast:: { subject: {} | { replay: n } | { behavior: v } }; connected at setup unless 'autoconnect' follows.",
      library: .rac2, nearest: "replay"
    ) { c in
      guard let kind = c.multicastSubject() else { return nil }
      return c.rac2Multicast(kind, isRAC: true)
    },
    .operator(
      "autoconnect", .bare,
      summary:
        "RAC2 -autoconnect: after 'publish' or 'multicast', connects at the first subscriber, disconnects for good after the last.",
      library: .rac2, nearest: "replayLazily"
    ) { c in
      guard c.checkBare() else { return nil }
      guard case .apply(_, let op) = c.input, ["publish", "multicast"].contains(op.label) else {
        c.error(.autoconnectNeedsConnection, at: c.step.nameNode)
        return nil
      }
      return c.apply(c.shape.passedOn) { _, upstream, _ in upstream }
    },
  ]
}

extension OperatorCompilation {
  /// RAC2's `RACMulticastConnection` over the input: connected at setup (the view model's
  /// `-connect`) unless `autoconnect` follows.
  fileprivate func rac2Multicast(_ kind: Subject.Kind, isRAC: Bool) -> (SignalPlan, ValueShape) {
    let autoconnect = compiler.followingStepName == "autoconnect"
    uses(autoconnect ? "rac2-autoconnect" : "rac2-multicast-connect")
    let owner = nodeLabel
    return apply(shape.passedOn, label: step.name) { graph, upstream, _ in
      let shared = ShareSource(
        upstream, policy: .rac2Multicast(kind, isRAC: isRAC, autoconnect: autoconnect), owner: owner,
        runtime: graph.runtime)
      if !autoconnect { graph.eagerConnections.append { [weak shared] in shared?.connect() } }
      return shared
    }
  }
}

extension SourceCompilation {
  /// `+if:then:else:` (`{ signal, then, else }`) and `+switch:cases:default:` (`{ signal, cases,
  /// default }`): each value of `signal` picks a signal, which replaces the previous one
  /// (`map` + `switchToLatest`); a key without a case and no default fails with
  /// "no matching case" (ROC `RACSignalErrorNoMatchingCase`).
  fileprivate func rac2Switch(ifThenElse: Bool) -> (SignalPlan, ValueShape)? {
    let labels = ifThenElse ? ["signal", "then", "else"] : ["signal", "cases", "default"]
    guard let pairs = argument.mappingPairs else {
      error(.takesLabels(step.name, labels), at: argument)
      return nil
    }
    compiler.context.checkKeys(pairs, allowed: labels, in: quotedName)
    guard let signalNode = argument["signal"], let keys = signal(signalNode, "'signal'")?.0 else {
      if argument["signal"] == nil { error(.needsLabel(step.name, "signal"), at: argument) }
      return nil
    }
    var cases: [(Value, SignalPlan)] = []
    var fallback: SignalPlan?
    if ifThenElse {
      guard let thenNode = argument["then"], let elseNode = argument["else"] else {
        error(.ifNeedsThenAndElse, at: argument)
        return nil
      }
      guard let then = signal(thenNode, "'then'")?.0, let otherwise = signal(elseNode, "'else'")?.0 else { return nil }
      cases = [(.bool(true), then), (.bool(false), otherwise)]
    } else {
      guard let casesNode = argument["cases"], let casePairs = casesNode.mappingPairs else {
        error(.switchNeedsCases, at: argument["cases"] ?? argument)
        return nil
      }
      for pair in casePairs {
        guard let plan = signal(pair.value, "case '\(pair.key.scalarValue ?? "")'")?.0 else { return nil }
        cases.append((value(pair.key), plan))
      }
      if let defaultNode = argument["default"] {
        guard let plan = signal(defaultNode, "'default'")?.0 else { return nil }
        fallback = plan
      }
    }
    let name = step.name
    return (
      source(label: name) { [cases, fallback] graph, scope in
        graph.source(for: keys, scope: scope).switchMap { key, _ throws(StepFailure) in
          if let plan = cases.first(where: { $0.0 == key })?.1 ?? fallback {
            return graph.source(for: plan, scope: scope)
          }
          guard !ifThenElse else {
            throw StepFailure(.string("'if' needs Bool values, got \(key.kindName)"))
          }
          return ImmediateSource.fail(.string("no matching case for \(key)"))
        }
      }, .value
    )
  }
}

extension Diagnostic.Message {
  fileprivate static let autoconnectNeedsConnection: Self =
    "'autoconnect' follows a RACMulticastConnection: 'publish' or 'multicast'"
  /// Step `step` takes a mapping of `labels` (`{ signal: …, then: …, else: … }`).
  fileprivate static func takesLabels(_ step: String, _ labels: [String]) -> Self {
    "'\(step)' takes { \(labels.map { "\($0): …" }.joined(separator: ", ")) }"
  }
  fileprivate static let ifNeedsThenAndElse: Self = "'if' needs 'then' and 'else'"
  fileprivate static let switchNeedsCases: Self = "'switch' needs 'cases': a mapping of keys to signals"
}
