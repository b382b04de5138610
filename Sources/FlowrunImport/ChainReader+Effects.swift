import FlowrunDiagnostics
import Foundation
import SwiftSyntax

/// A command's effects: what the code does with each answer of its work (`sink`, `subscribe`,
/// the statements of an async method's `Task` after its service call), as `effects:`.
extension ChainReader {
  /// An async method that starts a `Task` calling a service (`func login(password:)`): a
  /// command whose work calls the service with `input`, and whose task's assignments are its
  /// effects. False when the method is no such command.
  mutating func readAsyncCommand(_ method: FunctionDeclSyntax) -> Bool {
    guard let body = method.body, !helperMethods.contains(method.name.text),
      !method.modifiers.contains(where: { ["private", "fileprivate"].contains($0.name.text) })
    else { return false }
    let tasks = NodeCollector<FunctionCallExprSyntax>.all(in: body).compactMap { Self.taskClosure(ExprSyntax($0)) }
    guard let task = tasks.first,
      let call = NodeCollector<FunctionCallExprSyntax>.all(in: task).first(where: { serviceCallShape($0) })
    else { return false }
    let saved = current
    current = Draft.Chain(name: method.name.text, steps: [], origin: file.cite(method.name))
    current.isCommand = true
    if let parameter = method.signature.parameterClause.parameters.first {
      constantsForCommand = [parameter.secondName?.text ?? parameter.firstName.text: "input"]
      current.inputType = parameter.type.trimmedDescription
      current.inputName = parameter.secondName?.text ?? parameter.firstName.text
    }
    current.steps = serviceCall(call) ?? []
    constantsForCommand = [:]
    guardPlaceholder(method)
    // After the call: assignments that use the answer, or that an `if` on the answer guards,
    // are per value; the others run when the work ends.
    let answer = resultName(of: call, in: Array(task.statements))
    var values: [Assignment] = []
    var ends: [Assignment] = []
    for sequence in NodeCollector<SequenceExprSyntax>.all(in: task) {
      guard let (member, value) = assignment(ExprSyntax(sequence)) else { continue }
      var guarded = false
      var ancestor = sequence.parent
      while let node = ancestor, !guarded {
        if let ifExpr = node.as(IfExprSyntax.self), Self.encloses(ifExpr.conditions, call) { guarded = true }
        ancestor = node.parent
      }
      let usesAnswer = answer.map { name in
        NodeCollector<DeclReferenceExprSyntax>.all(in: value).contains { $0.baseName.text == name }
      }
      let item = Assignment(member: member, value: value, node: Syntax(sequence), valueNames: answer.map { [$0] } ?? [])
      if guarded || usesAnswer == true { values.append(item) } else { ends.append(item) }
    }
    inferResponse(values: values, method: method)
    if effects(values: values, ends: ends, method: method, origin: "\(file.cite(task)) Task") {
      current.recognised.append("Task")
    } else {
      current.unrecognised.append("Task at \(file.cite(task))")
    }
    draft.chains.append(current)
    current = saved
    return true
  }

  /// The `guard` of a command's method: its `enabled:` (`enabledSignal`), or left to fill in.
  mutating func guardPlaceholder(_ method: FunctionDeclSyntax) {
    guard let guardStatement = method.body?.statements.first(where: { $0.item.is(GuardStmtSyntax.self) }),
      let statement = guardStatement.item.as(GuardStmtSyntax.self)
    else { return }
    let operands = guardOperands(method, guard: statement)
    let flags = executingFlags(method)
    current.rejectsWhileExecuting = operands?.contains { isExecutingCheck($0, flags: flags) } == true
    if let operands, let enabled = enabledSignal(operands, flags: flags) {
      if !enabled.isEmpty { current.enabled = enabled }
      return
    }
    current.enabledPlaceholder = "enabled: the guard at \(file.cite(guardStatement))"
    diagnostics.append(
      file.diagnostic(
        .warning, "the guard of '\(method.name.text)' is the command's 'enabled:': left to fill in",
        at: guardStatement))
  }

  /// `sink(receiveCompletion:receiveValue:)`, `sink { … }`, `subscribe(onNext:…)` of a
  /// command's work: its closures' assignments as effects.
  mutating func sinkEffects(_ name: String, call: FunctionCallExprSyntax, token: TokenSyntax) {
    var values: [Assignment] = []
    var ends: [Assignment] = []
    var closures: [(label: String, closure: ClosureExprSyntax)] = call.arguments.compactMap { argument in
      argument.expression.as(ClosureExprSyntax.self).map { (argument.label?.text ?? "_", $0) }
    }
    if let trailing = call.trailingClosure { closures.append(("_", trailing)) }
    for (label, closure) in closures {
      let perValue = ["_", "receiveValue", "onNext", "onSuccess"].contains(label)
      let parameters = ExpressionTranslator.parameterNames(closure)
      let names = Set(parameters.prefix(1).filter { $0 != "_" } + (parameters.isEmpty ? ["$0"] : []))
      for sequence in NodeCollector<SequenceExprSyntax>.all(in: closure) {
        guard let (member, value) = assignment(ExprSyntax(sequence)) else {
          if sequence.elements.contains(where: { $0.is(AssignmentExprSyntax.self) || Self.isCompoundAssignment($0) }) {
            values.append(Assignment(member: "", value: ExprSyntax(sequence), node: Syntax(sequence), valueNames: []))
          }
          continue
        }
        let item = Assignment(member: member, value: value, node: Syntax(sequence), valueNames: perValue ? names : [])
        if perValue { values.append(item) } else { ends.append(item) }
      }
    }
    if let method = currentMethod {
      // Whatever the effects make of it, an answer set as it is tells the service's type
      // (`receiveValue: { token in self?.session = token }`: a `String`).
      inferResponse(values: values, method: method)
    }
    guard let method = currentMethod,
      effects(values: values, ends: ends, method: method, origin: "\(file.cite(token)) \(name)")
    else {
      current.unrecognised.append("\(name) at \(file.cite(token))")
      diagnostics.append(
        file.diagnostic(.warning, "the effects of '\(name)' in a command are left to fill in as 'effects:'", at: token))
      return
    }
    current.recognised.append(name)
  }

  /// `+=`, `-=` … (an assignment the effects cannot write as a `set:`).
  static func isCompoundAssignment(_ expr: ExprSyntax) -> Bool {
    expr.as(BinaryOperatorExprSyntax.self).map { compoundAssignments.contains($0.operator.text) } ?? false
  }

  /// `sink { … }` / `subscribe(onNext: { … })` at the end of a signal (not a command) whose
  /// closure assigns several members (`self?.isSearching = false; self?.results = found`): the
  /// chain stays a signal and each assignment is an effect on it (`- on: chain` `set:
  /// vm.results`). False, with nothing appended, when an assignment is not one a `set:` writes.
  mutating func signalSinkEffects(_ call: FunctionCallExprSyntax, on signal: String, origin: String) -> Int? {
    let labels: [String?] = ["receiveValue", "receiveOutput", "onNext", nil]
    var closures = call.arguments.compactMap { argument -> ClosureExprSyntax? in
      guard labels.contains(argument.label?.text) else { return nil }
      return argument.expression.as(ClosureExprSyntax.self)
    }
    if let trailing = call.trailingClosure { closures.append(trailing) }
    guard closures.count == 1, let closure = closures.first,
      call.arguments.allSatisfy({ labels.contains($0.label?.text) })
    else { return nil }
    let parameters = ExpressionTranslator.parameterNames(closure)
    let names = Set(parameters.prefix(1).filter { $0 != "_" } + (parameters.isEmpty ? ["$0"] : []))
    var found: [Draft.Effect] = []
    for item in closure.statements {
      switch item.item {
      case .stmt(let statement) where statement.is(GuardStmtSyntax.self):
        continue  // `guard let self else { return }`: no effect of its own.
      case .expr(let expr):
        guard let (member, value) = assignment(expr) ?? relaySend(expr) else { return nil }
        let target = "vm.\(member)"
        let folded = folded(value)
        let action = isProperty(target) ? "set" : "send"
        if let reference = folded.as(DeclReferenceExprSyntax.self), names.contains(reference.baseName.text) {
          found.append(Draft.Effect(on: signal, action: "\(action): \(target)", origin: origin, target: target))
        } else if let literal = SwiftImporter.yamlLiteral(folded) {
          found.append(
            Draft.Effect(on: signal, action: "\(action): { \(target): \(literal) }", origin: origin, target: target))
        } else if let expression = perValueExpression(folded, names: names) {
          found.append(
            Draft.Effect(on: signal, action: "\(action): \(target)", origin: origin, target: target, map: expression))
        } else {
          return nil
        }
      default:
        return nil
      }
    }
    guard !found.isEmpty else { return nil }
    draft.effects += found
    for effect in found {
      if let target = effect.target, isProperty(target) { markOutput(String(target.dropFirst(3))) }
    }
    return found.count
  }

  /// Whether the draft's state `name` is a property (`set:`), not a subject (`send:`).
  func isProperty(_ name: String) -> Bool {
    guard let state = draft.states.first(where: { $0.name == name }) else { return true }
    if case .property = state.kind { return true }
    return false
  }

  /// `self?.isRefreshing.accept(true)`, `spinner.send(x)` of a member subject or relay: the
  /// member and the value sent, read as an assignment.
  func relaySend(_ expr: ExprSyntax) -> (String, ExprSyntax)? {
    guard let call = expr.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
      let access = call.calledExpression.as(MemberAccessExprSyntax.self),
      ["accept", "send", "onNext"].contains(access.declName.baseName.text),
      let base = access.base?.as(MemberAccessExprSyntax.self),
      ["self", "self?"].contains(base.base?.trimmedDescription ?? ""),
      decl.member(base.declName.baseName.text) != nil, let value = call.arguments.first?.expression
    else { return nil }
    return (base.declName.baseName.text, value)
  }

  /// `handleEvents(receiveOutput:)` / `do(onNext:)` whose closure sets members: the steps so
  /// far become a shared signal of their own, the effects act on it, and the chain goes on from
  /// it. False, with nothing changed, when the closure is not one the effects can write.
  mutating func sideEffects(_ name: String, call: FunctionCallExprSyntax, origin: String, steps: inout [Draft.Step])
    -> Bool
  {
    guard !steps.isEmpty, !current.isCommand, constantsForTemplate.isEmpty else { return false }
    let tap = uniqueName(current.name.replacingOccurrences(of: ".", with: "_") + "Events")
    let savedEffects = draft.effects
    guard signalSinkEffects(call, on: tap, origin: origin) != nil else {
      draft.effects = savedEffects
      return false
    }
    var chain = Draft.Chain(name: tap, steps: steps + [Draft.Step(key: "share", origin: origin)], origin: origin)
    chain.recognised = [name]
    draft.chains.append(chain)
    steps = [Draft.Step(key: "from", value: tap, origin: origin)]
    return true
  }

  /// A property a chain binds when another chain binds it already (a property is bound to one
  /// signal): an effect on this chain sets it instead.
  mutating func setByEffect(_ target: String, name: String, origin: String) {
    current.recognised.append(name)
    draft.effects.append(
      Draft.Effect(on: current.name, action: "set: vm.\(target)", origin: "\(origin) \(name)", target: "vm.\(target)"))
    sinkEffectsRead = true
  }

  /// `{ _ in form }`: the signal a closure returns (a local chain, a subject, a publisher member).
  func signalOfClosure(_ closure: ClosureExprSyntax) -> String? {
    guard closure.statements.count == 1, case .expr(let expr)? = closure.statements.first?.item else { return nil }
    if let reference = expr.as(DeclReferenceExprSyntax.self) { return rootKind(reference.baseName.text) }
    if let access = expr.as(MemberAccessExprSyntax.self), access.base?.trimmedDescription == "self" {
      return rootKind(access.declName.baseName.text)
    }
    return nil
  }

  /// The response type of the command's one service when the protocol is not in the file: the
  /// type of the member its answer is assigned to, without `?`.
  mutating func inferResponse(values: [Assignment], method: FunctionDeclSyntax) {
    let called = Set(current.recognised).filter { name in draft.services.contains { $0.name == name } }.sorted()
    guard called.count == 1, let index = draft.services.firstIndex(where: { $0.name == called[0] }),
      draft.services[index].response.isEmpty
    else { return }
    for item in values {
      guard let reference = folded(item.value).as(DeclReferenceExprSyntax.self),
        item.valueNames.contains(reference.baseName.text), var type = decl.member(item.member)?.type
      else { continue }
      if type.hasSuffix("?") { type.removeLast() }
      draft.services[index].response = type
      return
    }
  }

  /// An assignment in a command's code: `self?.user = user`.
  struct Assignment {
    var member: String
    var value: ExprSyntax
    var node: Syntax
    /// The names that stand for the answer (`user`, `$0`).
    var valueNames: Set<String>
  }

  /// Appends the effects of one command: per value, `set: vm.x` (the answer) or `set: { vm.x:
  /// literal }`; at the end of the work, a flag the method raised before it (`isLoggingIn = true`
  /// … `isLoggingIn = false`) is the command's `executing`. False, with nothing appended, when
  /// one assignment is none of these (or there is none).
  mutating func effects(values: [Assignment], ends: [Assignment], method: FunctionDeclSyntax, origin: String) -> Bool {
    let command = current.name
    var found: [Draft.Effect] = []
    for item in values {
      guard !item.member.isEmpty else { return false }
      let target = "vm.\(item.member)"
      let value = folded(item.value)
      if let reference = value.as(DeclReferenceExprSyntax.self), item.valueNames.contains(reference.baseName.text) {
        found.append(Draft.Effect(on: "\(command).values", action: "set: \(target)", origin: origin, target: target))
      } else if let literal = SwiftImporter.yamlLiteral(value) {
        found.append(
          Draft.Effect(
            on: "\(command).values", action: "set: { \(target): \(literal) }", origin: origin, target: target))
      } else if let expression = perValueExpression(value, names: item.valueNames) {
        // Computed from the answer (or the state): the command's values mapped, then set.
        found.append(
          Draft.Effect(
            on: "\(command).values", action: "set: \(target)", origin: origin, target: target, map: expression))
      } else {
        return false
      }
    }
    let raised = raisedFlags(method)
    for item in ends {
      guard let literal = ExpressionTranslator.literal(item.value), let before = raised[item.member],
        before == "true", literal == "false"
      else { return false }
      found.append(
        Draft.Effect(
          on: "\(command).executing", action: "set: vm.\(item.member)", origin: origin, target: "vm.\(item.member)"))
    }
    guard !found.isEmpty else { return false }
    draft.effects += found
    return true
  }

  /// `isLoggingIn = true` among a method's own statements: the flags it raises, by member.
  func raisedFlags(_ method: FunctionDeclSyntax) -> [String: String] {
    var flags: [String: String] = [:]
    for item in method.body?.statements ?? [] {
      guard case .expr(let expr) = item.item, let (member, value) = assignment(expr),
        let literal = ExpressionTranslator.literal(value)
      else { continue }
      flags[member] = literal
    }
    return flags
  }
}
