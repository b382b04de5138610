import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML
import OrderedCollections

extension Graph {
  // MARK: - Templates

  /// The signal a template makes for `scope`, whose `subject` is the value that made it.
  func instantiate(_ template: TemplatePlan, scope: TemplateScope) throws(StepFailure) -> any Source {
    switch template {
    case .signal(let plan):
      return source(for: plan, scope: scope)
    case .cases(let cases, let node):
      for item in cases {
        guard let when = item.when else { return source(for: item.plan, scope: scope) }
        if try predicate(when, scope, role: "when")(scope.subject, scope.index) {
          return source(for: item.plan, scope: scope)
        }
      }
      let location = node.start
      runtime.warn(.noCaseMatches(scope.subject), at: location)
      let at = "\(scenario.path):\(location.line):\(location.column)"
      throw StepFailure(.map(["expressionError": .string("no case matches \(scope.subject)"), "at": .string(at)]))
    }
  }

  /// The inner signal of each outer value: `template` with `outer` bound to the value.
  /// (The closures here capture the graph unowned: they are called only while it runs.)
  func project(_ template: TemplatePlan, _ scope: TemplateScope) -> Projection {
    { [unowned self] value, index throws(StepFailure) in
      var inner = scope
      inner.outer = value
      inner.subject = value
      inner.index = index
      return try self.instantiate(template, scope: inner)
    }
  }

  // MARK: - Commands and services

  /// Makes the commands and services of the plan.
  func makeCommandsAndServices() {
    for plan in scenario.plan.services { services[plan.name] = makeService(plan) }
    for plan in scenario.plan.commands {
      let owner = NodeLabel(plan.name, at: plan.location)
      commands[plan.name] = Command(
        owner: owner, isConcurrent: plan.concurrent, kind: plan.kind, followsEnabledSignal: plan.enabled != nil,
        runtime: runtime
      ) {
        [unowned self] input throws(StepFailure) in
        var scope = TemplateScope.none
        scope.input = input
        scope.subject = input
        scope.traceOwner = self.tracing == nil ? nil : plan.name
        return try self.instantiate(plan.work, scope: scope)
      }
    }
  }

  /// The service of `plan`: each call answered by the responder the scenario declares.
  private func makeService(_ plan: ServicePlan) -> Service {
    let owner = NodeLabel(plan.name, at: plan.location)
    return Service(owner: owner, runtime: runtime) {
      [unowned self] input, number throws(StepFailure) in
      let template: TemplatePlan
      switch plan.responder {
      case .template(let single): template = single
      case .responses(let list): template = list[min(number, list.count - 1)]
      case .answers(let list):
        guard let answer = list.isEmpty ? nil : list[min(number, list.count - 1)] else {
          return ImmediateSource.never
        }
        return ColdSource(events: answer, owner: owner, runtime: self.runtime)
      }
      var scope = TemplateScope.none
      scope.input = input
      scope.subject = input
      scope.traceOwner = self.tracing == nil ? nil : plan.name
      return try self.instantiate(template, scope: scope)
    }
  }

  /// The code's own node of the declared service `name` (CodeBinding.swift), made on first use.
  func codeService(_ name: String) -> Service? {
    if let made = codeServices[name] { return made }
    guard let plan = scenario.plan.services.first(where: { $0.name == name }) else { return nil }
    let made = makeService(plan)
    codeServices[name] = made
    return made
  }

  /// Ends what the graph itself keeps subscribed (commands' `enabled` and `values`), after a
  /// run.
  func tearDown() {
    for (_, command) in commands { command.dispose() }
  }

  /// Commands subscribe to their `enabled` signal (after properties bind, before effects).
  func connectCommands() {
    for plan in scenario.plan.commands {
      guard let enabled = plan.enabled else { continue }
      commands[plan.name]?.follow(enabled: source(for: enabled))
    }
  }

  func source(command name: String, _ state: CommandState) -> any Source {
    guard let command = commands[name] else { return ImmediateSource.never }
    switch state {
    case .executing: return command.executing
    case .enabled: return command.enabled
    case .executions: return command.executions
    case .values: return command.values
    case .errors: return command.errors
    }
  }

  /// `call: service`: the input is evaluated at subscription, with the template's names bound.
  func callSource(_ service: String, _ input: StepExpression?, scope: TemplateScope) -> any Source {
    guard let node = services[service] else { return ImmediateSource.never }
    guard let input else { return CallSource(service: node) { .null } }
    let evaluate = transform(input, scope)
    return CallSource(service: node) { () throws(StepFailure) in try evaluate(scope.subject, scope.index) }
  }
}

extension Diagnostic.Message {
  fileprivate static func noCaseMatches(_ value: Value) -> Self { "no case matches \(value)" }
}
