import FlowrunDiagnostics
import Foundation
import SwiftSyntax

/// async/await and `@Observable` view models (`library: async`): computed properties read
/// through Observation, `AsyncStream` inputs, `Task { … }` bodies whose `for await` loops
/// iterate a chain and assign a property.
extension ChainReader {
  // MARK: - Observation

  /// Each computed property of an `@Observable` class that reads stored properties: an
  /// `observed:` property over what it reads (`observed.isLoginEnabled: { observed: [vm.account,
  /// vm.password] }`) and the output signal `vm.isLoginEnabled` that maps it with the getter.
  mutating func readComputed() {
    guard decl.observable else { return }
    for computed in decl.computed {
      let reads = storedReads(computed.body)
      guard !reads.isEmpty else { continue }
      let origin = file.cite(computed.node)
      let observed = "observed.\(computed.name)"
      draft.observed.append(
        Draft.Observed(name: observed, reads: reads.map { "vm.\($0)" }, origin: "\(origin) \(computed.name)"))
      let saved = current
      current = Draft.Chain(name: "vm.\(computed.name)", steps: [], origin: origin)
      current.isOutput = true
      current.recognised.append("Observation")
      var steps = [Draft.Step(key: "from", value: observed, origin: "\(origin) Observation")]
      var translator = expressionTranslator()
      for (index, name) in reads.enumerated() {
        translator.members[name] = reads.count == 1 ? "$0" : "$0[\(index)]"
      }
      if let text = translator.statements(computed.body, node: computed.node) {
        current.recognised.append("get")
        steps.append(Draft.Step(key: "map", value: quoted(text), origin: "\(origin) get"))
      } else {
        let reason = translator.failure.map { "\($0.reason) at \(file.cite($0.node))" } ?? "the getter"
        current.unrecognised.append("get at \(origin)")
        diagnostics.append(
          file.diagnostic(
            .warning, "the draft cannot write this getter as an expression: left to fill in",
            at: translator.failure?.node ?? computed.node))
        steps.append(
          Draft.Step(key: "map", value: "'$0'", origin: "\(origin) get", placeholder: "the getter: \(reason)"))
      }
      current.steps = steps
      draft.chains.append(current)
      current = saved
    }
  }

  /// The stored properties a getter reads, in the order it first reads them.
  func storedReads(_ body: CodeBlockItemListSyntax) -> [String] {
    var reads: [String] = []
    for reference in NodeCollector<DeclReferenceExprSyntax>.all(in: body) {
      let name = reference.baseName.text
      if let parent = reference.parent?.as(MemberAccessExprSyntax.self), parent.declName.id == reference.id,
        parent.base?.trimmedDescription != "self"
      {
        continue  // `x.count`: a member of something else
      }
      guard decl.member(name)?.kind == .published, !reads.contains(name) else { continue }
      reads.append(name)
    }
    return reads
  }

  /// The view model's outputs, as Observation delivers them: an `observed:` property over each
  /// property a chain assigns (`observed.results: { observed: [vm.results] }`).
  mutating func observeOutputs() {
    guard decl.observable else { return }
    for state in draft.states where state.isOutput {
      guard !draft.observed.contains(where: { $0.reads == [state.name] }) else { continue }
      let member = String(state.name.dropFirst(3))
      draft.observed.append(Draft.Observed(name: "observed.\(member)", reads: [state.name], origin: state.origin))
    }
  }

  // MARK: - Streams and durations

  /// `let interval = Duration.milliseconds(300)` (a duration the chains name) and `let
  /// (queries, typed) = AsyncStream.makeStream(of: String.self)`: a stream fed by a property's
  /// `didSet { typed.yield(query) }` is that property's changes.
  mutating func readAsyncDeclaration(_ variable: VariableDeclSyntax) {
    for binding in variable.bindings {
      guard let value = binding.initializer?.value else { continue }
      if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
        let milliseconds = OperatorRows.milliseconds(value)
      {
        localDurations[name] = milliseconds
        continue
      }
      guard let tuple = binding.pattern.as(TuplePatternSyntax.self), tuple.elements.count == 2,
        let call = value.as(FunctionCallExprSyntax.self),
        let access = call.calledExpression.as(MemberAccessExprSyntax.self),
        access.declName.baseName.text == "makeStream",
        let stream = tuple.elements.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
        let continuation = tuple.elements.last?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      else { continue }
      let saved = current
      current = Draft.Chain(name: stream, steps: [], origin: file.cite(binding))
      current.recognised.append("makeStream")
      if let (member, yield) = yieldingProperty(continuation) {
        current.recognised.append("yield")
        current.steps = [
          rootStep("vm.\(member)", name: member, at: yield),
          Draft.Step(key: "dropFirst", value: "1", origin: "\(file.cite(yield)) didSet"),
        ]
      } else {
        current.unrecognised.append("'\(continuation).yield' at \(file.cite(binding))")
        diagnostics.append(
          file.diagnostic(
            .warning, "the draft cannot find what '\(continuation)' yields: the stream is left to fill in",
            at: binding))
        current.steps = [
          Draft.Step(
            key: "never", value: "true", origin: file.cite(binding),
            placeholder: "what \(continuation).yield sends")
        ]
      }
      locals[stream] = stream
      draft.chains.append(current)
      current = saved
    }
  }

  /// The stored property whose `didSet` yields itself to `continuation`, and the yield.
  func yieldingProperty(_ continuation: String) -> (String, FunctionCallExprSyntax)? {
    for member in decl.members {
      guard let body = member.didSet else { continue }
      for call in NodeCollector<FunctionCallExprSyntax>.all(in: body) {
        guard let access = call.calledExpression.as(MemberAccessExprSyntax.self),
          access.declName.baseName.text == "yield",
          access.base?.trimmedDescription.replacingOccurrences(of: "self.", with: "") == continuation,
          call.arguments.first?.expression.trimmedDescription.replacingOccurrences(of: "self.", with: "")
            == member.name
        else { continue }
        return (member.name, call)
      }
    }
    return nil
  }

  // MARK: - Tasks

  /// `Task { … }` or `pipeline = Task { … }` in the initializer: reads its body; false for any
  /// other statement.
  mutating func readTaskStatement(_ expr: ExprSyntax) -> Bool {
    var value = expr
    if let sequence = expr.as(SequenceExprSyntax.self), sequence.elements.count == 3,
      sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true, let last = sequence.elements.last
    {
      value = last
    }
    guard let closure = Self.taskClosure(value) else { return false }
    readTaskBody(closure.statements, parameters: [:], depth: 0)
    return true
  }

  /// The closure of `Task { … }`.
  static func taskClosure(_ expr: ExprSyntax) -> ClosureExprSyntax? {
    guard let call = expr.as(FunctionCallExprSyntax.self),
      call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Task"
    else { return nil }
    return call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self)
  }

  /// The statements of a task: `for await` loops, the branches constants take, and the methods
  /// it calls with a sequence (`await self?.run(queries.debounce(…))`).
  mutating func readTaskBody(_ statements: CodeBlockItemListSyntax, parameters: [String: ExprSyntax], depth: Int) {
    guard depth < 4 else { return }
    for item in statements {
      switch item.item {
      case .decl(let declaration):
        if let variable = declaration.as(VariableDeclSyntax.self) { readAsyncDeclaration(variable) }
      case .stmt(let statement):
        if let loop = statement.as(ForStmtSyntax.self), loop.awaitKeyword != nil {
          readLoop(loop, parameters: parameters)
        } else if let block = statement.as(DoStmtSyntax.self) {
          readTaskBody(block.body.statements, parameters: parameters, depth: depth)
        } else if let expression = statement.as(ExpressionStmtSyntax.self)?.expression {
          readTaskExpression(expression, parameters: parameters, depth: depth)
        }
      case .expr(let expr):
        readTaskExpression(expr, parameters: parameters, depth: depth)
      }
    }
  }

  mutating func readTaskExpression(_ expr: ExprSyntax, parameters: [String: ExprSyntax], depth: Int) {
    if let awaited = expr.as(AwaitExprSyntax.self) {
      return readTaskExpression(awaited.expression, parameters: parameters, depth: depth)
    }
    if let tried = expr.as(TryExprSyntax.self) {
      return readTaskExpression(tried.expression, parameters: parameters, depth: depth)
    }
    if let switchExpr = expr.as(SwitchExprSyntax.self), let chosen = chosenCase(switchExpr) {
      return readTaskBody(chosen.statements, parameters: parameters, depth: depth)
    }
    if let ifExpr = expr.as(IfExprSyntax.self) {
      return readTaskBody(liveStatements(ifExpr), parameters: parameters, depth: depth)
    }
    guard let call = expr.as(FunctionCallExprSyntax.self), let argument = call.arguments.first?.expression else {
      return
    }
    var methodName: String?
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      methodName = reference.baseName.text
    } else if let access = call.calledExpression.as(MemberAccessExprSyntax.self),
      ["self", "self?"].contains(access.base?.trimmedDescription ?? "")
    {
      methodName = access.declName.baseName.text
    }
    guard let methodName, let method = decl.methods.first(where: { $0.name.text == methodName }),
      let parameter = method.signature.parameterClause.parameters.first, let body = method.body
    else { return }
    helperMethods.insert(methodName)
    let name = parameter.secondName?.text ?? parameter.firstName.text
    readTaskBody(body.statements, parameters: [name: argument], depth: depth + 1)
  }

  /// The case of `switch constant { … }` the constant's value takes (`case .x, nil:` for a
  /// `nil` default, else `default:`); the first case, with a warning, when it cannot decide.
  mutating func chosenCase(_ switchExpr: SwitchExprSyntax) -> SwitchCaseSyntax? {
    let cases = switchExpr.cases.compactMap { $0.as(SwitchCaseSyntax.self) }
    var value: String?
    if let reference = switchExpr.subject.as(DeclReferenceExprSyntax.self),
      let constant = constants[reference.baseName.text]
    {
      value = ExpressionTranslator.literal(constant) ?? constant.trimmedDescription
    }
    if let value {
      for switchCase in cases {
        guard case .case(let label) = switchCase.label else { continue }
        if label.caseItems.contains(where: { $0.pattern.trimmedDescription == value }) { return switchCase }
      }
      if let fallback = cases.first(where: { if case .default = $0.label { true } else { false } }) {
        return fallback
      }
    }
    diagnostics.append(
      file.diagnostic(.warning, "the draft follows the first case of a switch it cannot decide", at: switchExpr))
    return cases.first
  }

  /// The statements an `if` runs when its condition is made of constants (the `else` branch
  /// when false), or its body when the draft cannot decide.
  func liveStatements(_ ifExpr: IfExprSyntax) -> CodeBlockItemListSyntax {
    var decided: Bool?
    if ifExpr.conditions.count == 1, case .expression(let condition)? = ifExpr.conditions.first?.condition {
      if let sequence = condition.as(SequenceExprSyntax.self) {
        decided = decide(Array(sequence.elements))
      } else {
        decided = decide([condition])
      }
    }
    if decided == false {
      if case .codeBlock(let block)? = ifExpr.elseBody { return block.statements }
      return []
    }
    return ifExpr.body.statements
  }

  /// `statements` with each `if` of constants replaced by the branch it takes and each `do`
  /// by its body.
  func flattened(_ statements: CodeBlockItemListSyntax) -> [CodeBlockItemSyntax] {
    var result: [CodeBlockItemSyntax] = []
    for item in statements {
      var expression: ExprSyntax?
      switch item.item {
      case .expr(let expr): expression = expr
      case .stmt(let statement):
        if let block = statement.as(DoStmtSyntax.self) {
          result += flattened(block.body.statements)
          continue
        }
        expression = statement.as(ExpressionStmtSyntax.self)?.expression
      case .decl: break
      }
      if let ifExpr = expression?.as(IfExprSyntax.self),
        ifExpr.conditions.allSatisfy({
          if case .expression = $0.condition { true } else { false }
        })
      {
        result += flattened(liveStatements(ifExpr))
        continue
      }
      result.append(item)
    }
    return result
  }

  // MARK: - Loops

  /// `for await q in chain { … }`: the chain's steps, then what the body does with each value.
  /// A body that starts a `Task` calling a service, after cancelling the task before it, is
  /// `flatMapLatest` (a request per value, the stale one cancelled); a service awaited in the
  /// body itself is `flatMap` (one at a time, as async's `flatMap`); the property the answer (or
  /// the value) is assigned to is bound to the chain.
  mutating func readLoop(_ loop: ForStmtSyntax, parameters: [String: ExprSyntax]) {
    var sequence = loop.sequence
    if let reference = sequence.as(DeclReferenceExprSyntax.self), let argument = parameters[reference.baseName.text] {
      sequence = argument
    }
    let variable = loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? "$0"
    let origin = file.cite(loop.forKeyword)
    let saved = current
    current = Draft.Chain(name: "", steps: [], origin: origin)
    var steps = self.steps(of: sequence)
    current.recognised.append("for await")
    // The body: a task it starts (and the task it cancels first), or its own statements.
    var work = flattened(loop.body.statements)
    var spawned: (target: String, origin: String)?
    var cancelled: Set<String> = []
    for item in work {
      guard case .expr(let expr) = item.item else { continue }
      if let call = expr.as(FunctionCallExprSyntax.self),
        let access = call.calledExpression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "cancel"
      {
        cancelled.insert((access.base?.trimmedDescription ?? "").replacingOccurrences(of: "?", with: ""))
      } else if let (member, value) = assignment(expr, anyTarget: true), let closure = Self.taskClosure(value) {
        spawned = (member, file.cite(value))
        work = flattened(closure.statements)
      }
    }
    let workNodes = work.map { Syntax($0) }
    let serviceCall = workNodes.lazy.flatMap { NodeCollector<FunctionCallExprSyntax>.all(in: $0) }.first {
      serviceCallShape($0)
    }
    var answer = variable
    if let serviceCall {
      constantsForTemplate = [variable]
      let template = self.serviceCall(serviceCall) ?? []
      constantsForTemplate = []
      let latest = spawned.map { cancelled.contains($0.target) || cancelled.contains("self.\($0.target)") } ?? false
      let key = latest ? "flatMapLatest" : "flatMap"
      current.recognised.append(spawned == nil ? "await" : "Task")
      var step = Draft.Step(key: key, origin: "\(spawned?.origin ?? origin) \(spawned == nil ? "await" : "Task")")
      step.template = template
      if spawned != nil, !latest {
        step.placeholder = "each value's task runs at once here, where async's flatMap waits for the one before"
      }
      steps.append(step)
      answer = resultName(of: serviceCall, in: work) ?? variable
    }
    // The assignment of the value (or the answer) to a property.
    var target: String?
    for item in work {
      guard case .expr(let expr) = item.item, let (member, value) = assignment(expr) else { continue }
      let reads = NodeCollector<DeclReferenceExprSyntax>.all(in: value).map(\.baseName.text)
      if value.as(DeclReferenceExprSyntax.self)?.baseName.text == answer {
        target = member
      } else if reads.contains(answer) {
        // `self.results = answer ?? []`: a map of the answer (or of the value).
        var translator = expressionTranslator()
        translator.names[answer] = "$0"
        if let text = translator.translate(value) {
          steps.append(Draft.Step(key: "map", value: quoted(text), origin: "\(file.cite(expr)) \(member) ="))
          target = member
        }
      }
      if target != nil {
        current.recognised.append("\(member) =")
        break
      }
    }
    if let target, let index = draft.states.firstIndex(where: { $0.name == "vm.\(target)" }) {
      var name = target
      if draft.chains.contains(where: { $0.name == name }) { name += "\(file.line(of: loop))" }
      current.name = name
      draft.states[index].boundTo = name
      markOutput(target)
    } else {
      current.name = "loop\(file.line(of: loop))"
      current.isOutput = true
      current.unrecognised.append("the body of the loop at \(origin)")
      diagnostics.append(
        file.diagnostic(
          .warning, "the draft cannot find the property this loop assigns: its output is left to fill in",
          at: loop.forKeyword))
    }
    current.steps = steps
    draft.chains.append(current)
    current = saved
  }

  /// The name a service's answer is bound to: `let answer = try await search(q)`, `if let user
  /// = try? await loginAPI(p)`.
  func resultName(of call: FunctionCallExprSyntax, in items: [CodeBlockItemSyntax]) -> String? {
    for item in items {
      for binding in NodeCollector<PatternBindingSyntax>.all(in: item) {
        guard let value = binding.initializer?.value, Self.encloses(value, call) else { continue }
        return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      }
      for binding in NodeCollector<OptionalBindingConditionSyntax>.all(in: item) {
        guard let value = binding.initializer?.value, Self.encloses(value, call) else { continue }
        return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      }
    }
    return nil
  }

  /// Whether `inner` lies within `outer`.
  static func encloses(_ outer: some SyntaxProtocol, _ inner: some SyntaxProtocol) -> Bool {
    outer.position <= inner.position && inner.endPosition <= outer.endPosition
  }

  /// `self?.x = v`, `self.x = v`, `x = v` to a member of the view model (or to any name, with
  /// `anyTarget`: a task kept in an `@ObservationIgnored` member): the member and `v`.
  func assignment(_ expr: ExprSyntax, anyTarget: Bool = false) -> (String, ExprSyntax)? {
    guard let sequence = expr.as(SequenceExprSyntax.self), sequence.elements.count >= 3,
      sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true,
      let target = sequence.elements.first, var value = sequence.elements.last
    else { return nil }
    if sequence.elements.count > 3 {
      // `x = a ?? b`: the value is the rest of the sequence (a copy, for reading only).
      value = ExprSyntax(SequenceExprSyntax(elements: ExprListSyntax(Array(sequence.elements.dropFirst(2)))))
    }
    var name: String?
    if let reference = target.as(DeclReferenceExprSyntax.self) {
      name = reference.baseName.text
    } else if let access = target.as(MemberAccessExprSyntax.self),
      ["self", "self?"].contains(access.base?.trimmedDescription ?? "")
    {
      name = access.declName.baseName.text
    }
    guard let name, anyTarget || decl.member(name) != nil else { return nil }
    return (name, value)
  }
}

/// Every node of one kind under a node, in source order.
final class NodeCollector<Node: SyntaxProtocol>: SyntaxAnyVisitor {
  var found: [Node] = []

  init() { super.init(viewMode: .sourceAccurate) }

  override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
    if let match = node.as(Node.self) { found.append(match) }
    return .visitChildren
  }

  static func all(in node: some SyntaxProtocol) -> [Node] {
    let collector = NodeCollector()
    collector.walk(node)
    return collector.found
  }
}
