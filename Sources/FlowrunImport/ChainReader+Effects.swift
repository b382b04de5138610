import FlowrunDiagnostics
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
          if sequence.elements.contains(where: { $0.is(AssignmentExprSyntax.self) }) {
            values.append(Assignment(member: "", value: ExprSyntax(sequence), node: Syntax(sequence), valueNames: []))
          }
          continue
        }
        let item = Assignment(member: member, value: value, node: Syntax(sequence), valueNames: perValue ? names : [])
        if perValue { values.append(item) } else { ends.append(item) }
      }
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
