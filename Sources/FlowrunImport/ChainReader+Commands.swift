import FlowrunDiagnostics
import Foundation
import SwiftSyntax

/// A command's method in more detail: a helper it calls with its arguments (`refresh()` calls
/// `load(page: 1, reset: true)`), its `guard` as `enabled:`, and conditions on constants decided.
extension ChainReader {
  /// The private methods another method calls as a statement (`load(page:reset:)`): read inside
  /// each caller's command, with the caller's arguments, never as a command of their own (a
  /// method the view's code can call stays a command).
  func commandHelpers() -> Set<String> {
    let names = Set(
      decl.methods.filter {
        $0.modifiers.contains { ["private", "fileprivate"].contains($0.name.text) }
      }.map(\.name.text))
    var helpers: Set<String> = []
    for method in decl.methods {
      for item in method.body?.statements ?? [] {
        guard case .expr(let expr) = item.item, let call = expr.as(FunctionCallExprSyntax.self),
          let name = Self.calledName(call), names.contains(name), name != method.name.text
        else { continue }
        helpers.insert(name)
      }
    }
    return helpers
  }

  /// `load(…)` or `self.load(…)`: the name of a method of `self` that `call` calls.
  static func calledName(_ call: FunctionCallExprSyntax) -> String? {
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
    if let access = call.calledExpression.as(MemberAccessExprSyntax.self), access.base?.trimmedDescription == "self" {
      return access.declName.baseName.text
    }
    return nil
  }

  /// A statement of a command's method that calls a helper method (`load(page: currentPage + 1,
  /// reset: false)`): the helper's statements read as the command's, each of its parameters
  /// standing for the argument (a literal is a constant, which decides conditions).
  mutating func readHelperCall(_ expr: ExprSyntax, command: FunctionDeclSyntax?) -> Bool {
    guard let command, let call = expr.as(FunctionCallExprSyntax.self), let name = Self.calledName(call),
      name != command.name.text, commandHelpers().contains(name),
      let helper = decl.methods.first(where: {
        $0.name.text == name && $0.signature.parameterClause.parameters.count == call.arguments.count
      }),
      let body = helper.body
    else { return false }
    let saved = (constantsForCommand, constants, currentMethod)
    if let parameter = command.signature.parameterClause.parameters.first {
      constantsForCommand[parameter.secondName?.text ?? parameter.firstName.text] = "input"
    }
    var translator = expressionTranslator()
    for (parameter, argument) in zip(helper.signature.parameterClause.parameters, call.arguments) {
      let name = parameter.secondName?.text ?? parameter.firstName.text
      if ExpressionTranslator.literal(argument.expression) != nil {
        constants[name] = argument.expression
      } else if let text = translator.translate(folded(argument.expression)) {
        constantsForCommand[name] = text.contains(" ") ? "(\(text))" : text
      }
    }
    currentMethod = helper
    readStatements(body.statements, command: command)
    (constantsForCommand, constants, currentMethod) = saved
    return true
  }

  /// `cond ? a : b` whose condition is made of constants (`reset ? page : items + page` with
  /// `reset` true): the branch it takes, itself decided; otherwise the expression.
  func folded(_ expr: ExprSyntax) -> ExprSyntax {
    if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
      let kept = folded(inner.expression)
      return kept.id == inner.expression.id ? expr : kept
    }
    guard let sequence = expr.as(SequenceExprSyntax.self) else { return expr }
    // `c ? a : x + y`: the ternary binds loosest, so its `else` is the rest of the sequence.
    let elements = Array(sequence.elements)
    guard let index = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
      let marker = elements[index].as(UnresolvedTernaryExprSyntax.self), index + 1 < elements.count,
      !elements.contains(where: { $0.is(AssignmentExprSyntax.self) }),
      let decided = decide(Array(elements[..<index]))
    else { return expr }
    if decided { return folded(marker.thenExpression) }
    let rest = Array(elements[(index + 1)...])
    return folded(rest.count == 1 ? rest[0] : ExprSyntax(SequenceExprSyntax(elements: ExprListSyntax(rest))))
  }

  /// The flags a command raises before its work (`isLoading = true` in the method or the helper
  /// it calls), which the end of the work lowers: its `executing`.
  func executingFlags(_ method: FunctionDeclSyntax) -> Set<String> {
    var methods = [method]
    if let helper = currentMethod, helper.id != method.id { methods.append(helper) }
    return Set(methods.flatMap { raisedFlags($0).filter { $0.value == "true" }.map(\.key) })
  }

  /// A command's `guard` as its `enabled:` signal: each of its operands (`guardOperands`) that
  /// is not the command's own executing flag (`!isLoggingIn`, one of `flags`, which a command
  /// already checks), translated. One property: `vm.hasNextPage`, or the property
  /// mapped (`[{ from: vm.user }, { map: '$0 == nil' }]`). Nil when the guard reads more than
  /// one property or cannot be translated (left to fill in); "" when nothing is left to check.
  func enabledSignal(_ operands: [ExprSyntax], flags: Set<String>) -> String? {
    var translator = expressionTranslator()
    let kept = operands.filter { !isExecutingCheck($0, flags: flags) }
    guard !kept.isEmpty else { return "" }
    var texts: [String] = []
    for operand in kept {
      guard let text = translator.translate(operand) else { return nil }
      texts.append(kept.count > 1 && text.contains(" ") ? "(\(text))" : text)
    }
    let text = texts.joined(separator: " && ")
    let read = decl.members.filter { member in
      member.kind != .other && text.range(of: "vm.\(member.name)\\b", options: .regularExpression) != nil
    }
    guard read.count == 1, let property = read.first else { return nil }
    if text == "vm.\(property.name)" { return text }
    translator.members[property.name] = "$0"
    var mapped: [String] = []
    for operand in kept {
      guard let part = translator.translate(operand) else { return nil }
      mapped.append(kept.count > 1 && part.contains(" ") ? "(\(part))" : part)
    }
    return "[{ from: vm.\(property.name) }, { map: \(quoted(mapped.joined(separator: " && "))) }]"
  }

  /// The `&&` operands of a `guard`'s conditions, the method's `let`s before it inlined
  /// (`guard allowed` with `let allowed = hasNextPage && !isLoading`); nil when a condition is
  /// no expression (`guard let`) or a `let` has no value.
  func guardOperands(_ method: FunctionDeclSyntax, guard statement: GuardStmtSyntax) -> [ExprSyntax]? {
    var lets: [String: ExprSyntax] = [:]
    for item in method.body?.statements ?? [] {
      guard item.position < statement.position, case .decl(let declaration) = item.item,
        let variable = declaration.as(VariableDeclSyntax.self)
      else { continue }
      for binding in variable.bindings {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
          let value = binding.initializer?.value
        else { return nil }
        lets[name] = folded(value)
      }
    }
    var operands: [ExprSyntax] = []
    for condition in statement.conditions {
      guard case .expression(let expr) = condition.condition else { return nil }
      operands += conjuncts(folded(expr), lets: lets)
    }
    return operands
  }

  /// Whether `operand` is `!flag` of a flag the command raises while it runs (`!isLoading`,
  /// one of `flags`, its `executingFlags`).
  func isExecutingCheck(_ operand: ExprSyntax, flags: Set<String>) -> Bool {
    guard let prefix = operand.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!",
      let name = memberName(prefix.expression)
    else { return false }
    return flags.contains(name)
  }

  /// The `&&` operands of a condition, through parentheses and the method's `let`s (`guard
  /// allowed` with `let allowed = hasNextPage && !isLoading`).
  func conjuncts(_ expr: ExprSyntax, lets: [String: ExprSyntax]) -> [ExprSyntax] {
    if let reference = expr.as(DeclReferenceExprSyntax.self), let value = lets[reference.baseName.text] {
      return conjuncts(value, lets: lets)
    }
    if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
      return conjuncts(inner.expression, lets: lets)
    }
    guard let sequence = expr.as(SequenceExprSyntax.self) else { return [expr] }
    let elements = Array(sequence.elements)
    let operators = elements.compactMap { $0.as(BinaryOperatorExprSyntax.self)?.operator.text }
    guard !operators.isEmpty, operators.allSatisfy({ $0 == "&&" }),
      elements.count == 2 * operators.count + 1
    else { return [expr] }
    return elements.enumerated().filter { $0.offset % 2 == 0 }.flatMap { conjuncts($0.element, lets: lets) }
  }

  /// An effect of each value computed from it (`items = items + page`, `hasNextPage =
  /// page.count >= Self.pageSize`): the value's names as `$0`, as a `map:` of the command's
  /// values. Nil when the expression cannot be translated.
  func perValueExpression(_ value: ExprSyntax, names: Set<String>) -> String? {
    var translator = expressionTranslator()
    for name in names { translator.names[name] = "$0" }
    return translator.translate(value)
  }

  /// The properties a command's effects set are outputs: the binding test observes them.
  mutating func markEffectOutputs() {
    for effect in draft.effects {
      guard let target = effect.target,
        let index = draft.states.firstIndex(where: { $0.name == target && !$0.isInput })
      else { continue }
      draft.states[index].isOutput = true
    }
  }
}
