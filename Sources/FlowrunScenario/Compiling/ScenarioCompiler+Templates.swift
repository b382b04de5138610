import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML
import OrderedCollections

extension ScenarioCompiler {
  // MARK: - Templates

  /// Compiles a template: a signal, or `cases:` whose first matching `when:` wins. `names` are
  /// the template names it binds (`outer`, `input`, `error`), added to those already bound.
  func compileTemplate(_ node: YAMLNode, _ what: String, binding names: ExpressionScope.TemplateNames)
    -> TemplatePlan?
  {
    let saved = templateNames
    templateNames.formUnion(names)
    defer { templateNames = saved }
    guard let pairs = node.mappingPairs, let casesPair = pairs.first(where: { $0.key.isScalar("cases") })
    else {
      return compileSignal(node, what).map { .signal($0.0) }
    }
    context.checkKeys(pairs, allowed: ["cases"], in: what)
    guard let items = context.sequence(casesPair.value, "'cases'") else { return nil }
    guard !items.isEmpty else {
      context.error(.noCases, at: casesPair.value)
      return nil
    }
    var cases: [TemplateCase] = []
    var failed = false
    for (index, item) in items.enumerated() {
      guard var casePairs = context.mapping(item, "a case").map(Array.init) else {
        failed = true
        continue
      }
      var when: StepExpression?
      if let whenIndex = casePairs.firstIndex(where: { $0.key.isScalar("when") }) {
        when = expression(casePairs[whenIndex].value, shape: .value, index: false)
        if when == nil { failed = true }
        casePairs.remove(at: whenIndex)
      } else if index < items.count - 1 {
        context.error(.caseWithoutWhen, at: item)
        failed = true
      }
      let plan: SignalPlan?
      if let signalPair = casePairs.first(where: { $0.key.isScalar("signal") }) {
        context.checkKeys(casePairs, allowed: ["signal"], in: "a case")
        plan = compileSignal(signalPair.value, "a case's 'signal'")?.0
      } else if casePairs.isEmpty {
        context.error(.caseWithoutSignal, at: item)
        plan = nil
      } else {
        plan = splitStep(casePairs, node: item).flatMap { compileSource($0)?.0 }
      }
      if let plan { cases.append(TemplateCase(when: when, plan: plan)) } else { failed = true }
    }
    return failed ? nil : .cases(cases, node: casesPair.key)
  }

  // MARK: - Commands and services

  func compileCommands() {
    for (name, declaration) in declarations where declaration.kind == .command {
      referringName = name
      defer { referringName = nil }
      let node = declaration.node
      guard let pairs = context.mapping(node, "command '\(name)'") else { continue }
      context.checkKeys(pairs, allowed: ["enabled", "concurrent", "work"], in: "command '\(name)'")
      let enabled = node["enabled"].flatMap { compileSignal($0, "'enabled'")?.0 }
      let concurrent = node["concurrent"].flatMap { context.bool($0, "'concurrent'") } ?? false
      let kind = plan.profile.commandKind
      if kind == .action {
        usesRow("rxswift-command-is-action")
        if node["enabled"] != nil { usesRow("rxswift-action-disabled-until-enabled") }
        if concurrent, let flag = node["concurrent"] {
          context.error(.concurrentAction(libraryPhrase), at: flag)
          continue
        }
      }
      guard let workNode = node["work"] else {
        context.error(.commandNeedsWork(name), at: declaration.keyNode)
        continue
      }
      guard let work = compileTemplate(workNode, "'work'", binding: .input) else { continue }
      plan.commands.append(
        CommandPlan(
          name: name, enabled: enabled, concurrent: concurrent, kind: kind, work: work,
          location: declaration.keyNode.start))
    }
  }

  func compileServices() {
    for (name, declaration) in declarations where declaration.kind == .service {
      referringName = name
      defer { referringName = nil }
      let node = declaration.node
      let responder: ServicePlan.Responder
      if let pairs = node.mappingPairs, let responses = pairs.first(where: { $0.key.isScalar("responses") }) {
        context.checkKeys(pairs, allowed: ["responses"], in: "service '\(name)'")
        guard let items = context.sequence(responses.value, "'responses'"), !items.isEmpty else {
          if responses.value.sequenceItems?.isEmpty == true {
            context.error(.noResponses, at: responses.value)
          }
          continue
        }
        let templates = items.compactMap { compileTemplate($0, "a response", binding: .input) }
        guard templates.count == items.count else { continue }
        responder = .responses(templates)
      } else {
        guard let template = compileTemplate(node, "service '\(name)'", binding: .input) else { continue }
        responder = .template(template)
      }
      plan.services.append(ServicePlan(name: name, responder: responder, location: declaration.keyNode.start))
    }
  }

  /// `call: service` with its optional `with:` input: the service's name and the input.
  func compileCall(_ step: StepNode, _ argument: YAMLNode) -> (String, StepExpression?)? {
    guard let name = context.string(argument, "'\(step.name)'") else { return nil }
    refers(to: name)
    guard let declaration = declarations[name], declaration.kind == .service else {
      let services = declarations.filter { $0.value.kind == .service }.map(\.key)
      context.error(.unknownService(name).suggesting(name, among: services), at: argument)
      return nil
    }
    var input: StepExpression?
    if let with = step.extra(ExtraKey.with.name) {
      input = expression(with, shape: .value, index: false)
      if input == nil { return nil }
    }
    return (name, input)
  }

  /// The name closest to a misspelt `name`: a declared one, or a derived one (`fetch.executing`,
  /// `api.calls`, and for an expectation `target` also `<name>.subscriptions`) of the name
  /// before its last dot, or of the declared name closest to that.
  func suggestedName(for name: String, target: Bool) -> String? {
    var candidates: [String] = []
    if let declared = closestName(to: name, among: declarations.keys) { candidates.append(declared) }
    if let dot = name.lastIndex(of: ".") {
      var owner = String(name[..<dot])
      if declarations[owner] == nil, let close = closestName(to: owner, among: declarations.keys) { owner = close }
      candidates += derivedNames(of: owner, target: target)
    }
    return closestName(to: name, among: candidates)
  }

  /// The derived names of a declared name.
  private func derivedNames(of owner: String, target: Bool) -> [String] {
    guard let kind = declarations[owner]?.kind else { return [] }
    var members: [String] = []
    switch kind {
    case .command: members = CommandState.allCases.map(\.rawValue)
    case .service: members = ["calls"]
    case .signal, .subject: if target { members = ["subscriptions"] }
    case .property: break
    }
    return members.map { "\(owner).\($0)" }
  }

  /// A derived name: `<command>.executing` … or `<service>.calls`.
  func derivedReference(_ name: String) -> Reference? {
    guard let dot = name.lastIndex(of: ".") else { return nil }
    let owner = String(name[..<dot])
    let member = String(name[name.index(after: dot)...])
    switch declarations[owner]?.kind {
    case .command?: return CommandState(rawValue: member).map { .command(owner, $0) }
    case .service?: return member == "calls" ? .serviceCalls(owner) : nil
    default: return nil
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func unknownService(_ name: String) -> Self { "unknown service '\(name)'" }
  fileprivate static let noCases: Self = "'cases' needs at least one case"
  fileprivate static let caseWithoutWhen: Self = "only the last case may omit 'when'"
  fileprivate static let caseWithoutSignal: Self = "a case needs a step or 'signal:' beside 'when'"
  fileprivate static func concurrentAction(_ libraryPhrase: String) -> Self {
    Self(
      "'concurrent' is RACCommand's: an RxSwift Action runs one execution at a time (\(libraryPhrase)); "
        + "the nearest is a command without 'concurrent'")
  }
  fileprivate static func commandNeedsWork(_ name: String) -> Self { "command '\(name)' needs 'work'" }
  fileprivate static let noResponses: Self = "'responses' needs at least one response"
}
