import FlowrunDiagnostics
import Foundation
import SwiftSyntax

extension ChainReader {
  /// Reads the call `name(…)` applied to `steps`: appends its step(s), or a placeholder.
  mutating func apply(
    _ name: String, call: FunctionCallExprSyntax, name token: TokenSyntax, to steps: inout [Draft.Step]
  ) {
    let origin = file.cite(token)
    let labels = call.arguments.map { $0.label?.text ?? "_" }
    let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self)
    warnAboutSchedulers(call)
    func step(_ key: String, _ value: String? = nil, extras: [(key: String, value: String)] = []) {
      current.recognised.append(name)
      steps.append(Draft.Step(key: key, value: value, extras: extras, origin: "\(origin) \(name)"))
    }
    if let passing = OperatorRows.passThrough(name, library: library) {
      current.recognised.append(name)
      if let key = passing, library.acceptsPassThrough(key) {
        steps.append(Draft.Step(key: key, value: nil, origin: "\(origin) \(name)"))
      }
      return
    }
    switch (name, library) {
    case ("map", _)
    where call.arguments.first?.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "self":
      // Moya's `map(User.self)`: decoding; the stub answers with the model.
      current.recognised.append(name)
      let model = call.arguments.first?.expression.as(MemberAccessExprSyntax.self)?.base?.trimmedDescription
      if let model, let index = draft.services.indices.last, draft.services[index].response.isEmpty {
        draft.services[index].response = model
      }
    case ("map", _), ("compactMap", _), ("filter", _):
      if let path = keyPath(call.arguments.first?.expression) {
        // `map(\.count)`, `filter(\.isEnabled)`: the value's field.
        step(name, quoted(path))
        if name == "map" { optionalElement = false }
        return
      }
      guard let closure else { return unrecognised(name, call, token, &steps) }
      if name == "map", let signal = signalOfClosure(closure) {
        // `map { _ in form }` then `switchToLatest`: the latest value of another signal.
        current.recognised.append(name)
        pendingServiceMap = ([Draft.Step(key: "from", value: signal, origin: "\(origin) map")], origin)
        return
      }
      if let template = serviceTemplate(closure) ?? sourceTemplate(closure), name == "map" || name == "compactMap" {
        current.recognised.append(name)
        pendingServiceMap = (template, origin)
        return
      }
      expression(name, closure: closure, origin: origin, to: &steps)
    case ("catch", .combine):
      // `catch { _ in Just(.failed) }`: the template of the closure's publisher.
      guard let closure, let template = sourceTemplate(closure) else { return unrecognised(name, call, token, &steps) }
      current.recognised.append(name)
      steps.append(Draft.Step(key: "catch", origin: "\(origin) \(name)", template: template))
    case ("scan", _):
      // `scan(0) { total, value in total + value }`: `$0` the accumulator, `$1` the value.
      guard let seed = call.arguments.first.flatMap({ literalValue($0.expression) }), let closure else {
        return unrecognised(name, call, token, &steps)
      }
      var translator = expressionTranslator()
      guard let text = translator.closure(closure) else {
        let reason = translator.failure?.reason ?? "the closure"
        current.unrecognised.append("scan closure at \(origin)")
        diagnostics.append(
          file.diagnostic(
            .warning, "the draft cannot write this closure as an expression (\(reason)): left to fill in",
            at: translator.failure?.node ?? Syntax(closure)))
        return
      }
      step("scan", quoted(text), extras: [("seed", seed)])
    case ("tryMap", .combine):
      guard let closure else { return unrecognised(name, call, token, &steps) }
      expression(name, closure: closure, origin: origin, to: &steps)
    case ("switchToLatest", _), ("switchLatest", .rxswift):
      if let pending = pendingServiceMap {
        let (template, mapOrigin) = pending
        pendingServiceMap = nil
        current.recognised.append(name)
        steps.append(
          Draft.Step(key: "flatMapLatest", origin: "\(mapOrigin) map + \(origin) \(name)", template: template))
      } else {
        step(name)
      }
    case ("flatMap", _), ("flatMapLatest", .rxswift), ("flatMapFirst", .rxswift), ("concatMap", .rxswift):
      guard let closure, let template = serviceTemplate(closure) else { return unrecognised(name, call, token, &steps) }
      current.recognised.append(name)
      steps.append(Draft.Step(key: name, origin: "\(origin) \(name)", template: template))
    case ("removeDuplicates", .combine) where call.arguments.isEmpty && closure == nil,
      ("removeDuplicates", .async) where call.arguments.isEmpty && closure == nil:
      step("removeDuplicates")
    case ("distinctUntilChanged", .rxswift) where call.arguments.isEmpty && closure == nil: step("distinctUntilChanged")
    case ("dropFirst", .combine), ("dropFirst", .async): step("dropFirst", count(call) ?? "1")
    case ("skip", .rxswift) where labels == ["_"]: step("skip", count(call) ?? "1")
    case ("prefix", .combine) where labels == ["_"], ("prefix", .async) where labels == ["_"]:
      step("prefix", count(call) ?? "1")
    case ("take", .rxswift) where labels == ["_"]: step("take", count(call) ?? "1")
    case ("debounce", _), ("delay", _):
      guard let duration = durationArgument(call) else { return unrecognised(name, call, token, &steps) }
      step(name, duration)
    case ("throttle", .combine), ("_throttle", .async):
      guard let duration = durationArgument(call) else { return unrecognised(name, call, token, &steps) }
      let latest =
        call.arguments.first { $0.label?.text == "latest" }.map { $0.expression.trimmedDescription } ?? "true"
      step("throttle", "{ for: \(duration), latest: \(latest) }")
    case ("throttle", .rxswift):
      guard let duration = durationArgument(call) else { return unrecognised(name, call, token, &steps) }
      let latest = call.arguments.first { $0.label?.text == "latest" }.map { $0.expression.trimmedDescription }
      var extras: [(key: String, value: String)] = []
      if let latest { extras.append((key: "latest", value: latest)) }
      step("throttle", duration, extras: extras)
    case ("receive", .combine) where labels.first == "on", ("subscribe", .combine) where labels.first == "on":
      step(name, "{ on: \(schedulerName(call.arguments.first?.expression, or: "scheduler")) }")
    case ("observe", .rxswift) where labels.first == "on", ("subscribe", .rxswift) where labels.first == "on":
      step(name, "{ on: \(schedulerName(call.arguments.first?.expression, or: "scheduler")) }")
    case ("observeOn", .rxswift):
      step("observe", "{ on: \(schedulerName(call.arguments.first?.expression, or: "main")) }")
    case ("combineLatest", _), ("zip", _), ("withLatestFrom", .rxswift):
      let others = call.arguments.filter { !$0.expression.is(ClosureExprSyntax.self) }.map(\.expression)
      let names = others.map { signalName(of: $0) }
      step(name, names.count == 1 ? names[0] : "[\(names.joined(separator: ", "))]")
      if let closure {
        expression("map", closure: closure, origin: origin, to: &steps)
      } else if name == "withLatestFrom" {
        // RxSwift's withLatestFrom(x) sends x's value.
        steps.append(Draft.Step(key: "map", value: "'$1'", origin: "\(origin) withLatestFrom"))
      }
    case ("merge", .combine) where labels == ["with"]:
      guard let other = call.arguments.first?.expression else { return unrecognised(name, call, token, &steps) }
      step("merge", "{ with: \(signalName(of: other)) }")
    case ("startWith", .rxswift), ("prepend", .combine), ("append", .combine), ("replaceError", .combine),
      ("catchAndReturn", .rxswift), ("replaceNil", .combine), ("replaceEmpty", .combine):
      guard let value = call.arguments.first.flatMap({ literalValue($0.expression) }) else {
        return unrecognised(name, call, token, &steps)
      }
      step(name, value)
    case ("asDriver", .rxswift), ("asSignal", .rxswift):
      guard let argument = call.arguments.first, argument.label?.text == "onErrorJustReturn",
        let value = literalValue(argument.expression)
      else { return unrecognised(name, call, token, &steps) }
      step(name, "{ onErrorJustReturn: \(value) }")
    case ("share", _) where call.arguments.isEmpty: step("share")
    case ("share", .rxswift):
      step(
        "share",
        "{ replay: \(call.arguments.first { $0.label?.text == "replay" }?.expression.trimmedDescription ?? "0") }")
    case ("assign", .combine):
      guard let target = assignTarget(call) else { return unrecognised(name, call, token, &steps) }
      if assignedMembers.contains(target) { return setByEffect(target, name: name, origin: origin) }
      step("assign", "vm.\(target)")
      markOutput(target)
    case ("bind", .rxswift), ("drive", .rxswift):
      guard let argument = call.arguments.first?.expression else { return unrecognised(name, call, token, &steps) }
      if let target = memberName(argument) {
        if assignedMembers.contains(target) { return setByEffect(target, name: name, origin: origin) }
        step("bind", "{ to: vm.\(target) }")
        markOutput(target)
      } else {
        // A binding to the UI (`loginButton.rx.isEnabled`): the chain is an output.
        current.recognised.append(name)
        current.isOutput = true
        uiOutput = argument.trimmedDescription.replacingOccurrences(of: ".rx.", with: ".")
      }
    case ("sink", _), ("subscribe", .rxswift):
      if current.isCommand {
        // A command's effects: what the code does with each answer, as the scenario's `effects:`.
        sinkEffects(name, call: call, token: token)
      } else if let closure, let target = simpleAssignment(closure) {
        current.recognised.append(name)
        let key = library.bindingStep
        steps.append(
          Draft.Step(
            key: key, value: key == "bind" ? "{ to: vm.\(target) }" : "vm.\(target)", origin: "\(origin) \(name)"))
        markOutput(target)
      } else if let count = signalSinkEffects(call, on: current.name, origin: "\(origin) \(name)") {
        current.recognised.append(name)
        sinkEffectsRead = true
        // One subscription for all the effects, as the code's one `sink` is.
        if count > 1 { steps.append(Draft.Step(key: "share", origin: "\(origin) \(name)")) }
      } else {
        current.unrecognised.append("\(name) at \(origin)")
        diagnostics.append(
          file.diagnostic(.warning, "the draft cannot read the closure of '\(name)': left to fill in", at: token))
        current.isOutput = true
      }
    case ("handleEvents", .combine), ("do", .rxswift):
      if !sideEffects(name, call: call, origin: "\(origin) \(name)", steps: &steps) {
        step(name)
        unreadSideEffect(name, call: call, token: token)
      }
    default:
      if let drafted = dialectStep(name, call: call, origin: origin) {
        current.recognised.append(name)
        steps.append(drafted)
      } else {
        unrecognised(name, call, token, &steps)
      }
    }
  }

  /// `\.count`, `\.user.name`: the field path of `$0` (`$0.user.name`), or nil.
  func keyPath(_ expr: ExprSyntax?) -> String? {
    guard let keyPath = expr?.as(KeyPathExprSyntax.self), keyPath.root == nil, !keyPath.components.isEmpty else {
      return nil
    }
    var path = "$0"
    for component in keyPath.components {
      guard let property = component.component.as(KeyPathPropertyComponentSyntax.self) else { return nil }
      path += "." + property.declName.baseName.text
    }
    return path
  }

  /// A scheduler argument as a plain YAML word (`DispatchQueue.main`, `scheduler`), or
  /// `fallback` for anything else (`.init(…)`, a call): the step's `on:` only names it.
  func schedulerName(_ expr: ExprSyntax?, or fallback: String) -> String {
    guard let text = expr?.trimmedDescription, let first = text.first, first.isLetter,
      text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
    else { return fallback }
    return text
  }

  /// A call no row reads: a diagnostic, counted, and no step (the chain stays loadable).
  mutating func unrecognised(
    _ name: String, _ call: FunctionCallExprSyntax, _ token: TokenSyntax, _ steps: inout [Draft.Step]
  ) {
    current.unrecognised.append("\(name) at \(file.cite(token))")
    diagnostics.append(file.diagnostic(.warning, "the draft cannot read '\(name)': left to fill in", at: token))
    if let last = steps.indices.last {
      let note = "'\(call.trimmedDescription.prefix(50))' after this step"
      steps[last].placeholder = steps[last].placeholder.map { $0 + "; " + note } ?? note
    }
  }

  /// `Observable.combineLatest(a, b) { … }`, `Just(v)`, `Publishers.Merge(a, b)` …: sources.
  mutating func source(_ name: String, call: FunctionCallExprSyntax, name token: TokenSyntax) -> [Draft.Step] {
    let origin = file.cite(token)
    let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self)
    let inputs = call.arguments.filter { !$0.expression.is(ClosureExprSyntax.self) }.map(\.expression)
    var steps: [Draft.Step] = []
    switch name {
    case "combineLatest", "CombineLatest", "CombineLatest3", "zip", "Zip", "merge", "Merge":
      let key = name.prefix(1).lowercased() + name.dropFirst().filter { !$0.isNumber }
      current.recognised.append(name)
      let names = inputs.map { signalName(of: $0) }
      steps.append(Draft.Step(key: key, value: "[\(names.joined(separator: ", "))]", origin: "\(origin) \(name)"))
      if let closure { expression("map", closure: closure, origin: origin, to: &steps) }
    case "Just", "just":
      guard let value = inputs.first.flatMap({ literalValue($0) }) else { return [placeholderSource(call)] }
      current.recognised.append(name)
      steps.append(Draft.Step(key: library.justStep, value: value, origin: "\(origin) \(name)"))
    case "Empty" where library.hasEmptyPublisher && call.arguments.isEmpty:
      current.recognised.append(name)
      steps.append(Draft.Step(key: "Empty", value: "true", origin: "\(origin) \(name)"))
    default:
      return [placeholderSource(call)]
    }
    return steps
  }

  /// A map/filter step from a closure, or a placeholder that passes values on.
  mutating func expression(_ key: String, closure: ClosureExprSyntax, origin: String, to steps: inout [Draft.Step]) {
    var translator = expressionTranslator()
    if optionalElement, let first = ExpressionTranslator.parameterNames(closure).first {
      translator.optionals.insert(first)
    }
    if optionalElement, ExpressionTranslator.parameterNames(closure).isEmpty { translator.optionals.insert("$0") }
    if let text = translator.closure(closure) {
      current.recognised.append(key)
      steps.append(Draft.Step(key: key, value: quoted(text), origin: "\(origin) \(key)"))
    } else {
      let reason = translator.failure.map { "\($0.reason) at \(file.cite($0.node))" } ?? "the closure"
      current.unrecognised.append("\(key) closure at \(origin)")
      diagnostics.append(
        file.diagnostic(
          .warning,
          "the draft cannot write this closure as an expression (\(translator.failure?.reason ?? "")): left to fill in",
          at: translator.failure?.node ?? Syntax(closure)))
      let identity = key == "filter" ? "'true'" : "'$0'"
      steps.append(
        Draft.Step(key: key, value: identity, origin: "\(origin) \(key)", placeholder: "the closure: \(reason)"))
    }
    if key == "map" { optionalElement = false }
  }

  /// `{ search($0) }`, `{ [unowned self] q in self.api.search(q).asObservable() }`: a template
  /// that calls the service with `outer`.
  mutating func serviceTemplate(_ closure: ClosureExprSyntax) -> [Draft.Step]? {
    guard closure.statements.count == 1, let item = closure.statements.first else { return nil }
    var body: ExprSyntax
    switch item.item {
    case .expr(let expr): body = expr
    case .stmt(let statement):
      guard let value = statement.as(ReturnStmtSyntax.self)?.expression else { return nil }
      body = value
    case .decl: return nil
    }
    // Find the service call at the root of the body.
    var root = body
    while let call = root.as(FunctionCallExprSyntax.self), serviceCallShape(call) == false,
      let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
    {
      root = base
    }
    guard let call = root.as(FunctionCallExprSyntax.self), serviceCallShape(call) else { return nil }
    let parameters = ExpressionTranslator.parameterNames(closure)
    constantsForTemplate = parameters.isEmpty ? ["$0"] : parameters
    defer { constantsForTemplate = [] }
    return self.steps(of: body)
  }

  /// `{ _ in Empty<Bool, Never>().delay(for: d, scheduler: s).append(false).prepend(true) }`,
  /// `{ _ in Just(.failed) }`: a template whose source is `Empty` or `Just`, every call read
  /// (the minimum-display-time pattern); nil otherwise.
  mutating func sourceTemplate(_ closure: ClosureExprSyntax) -> [Draft.Step]? {
    guard closure.statements.count == 1, case .expr(let body)? = closure.statements.first?.item else { return nil }
    var root = body
    while let call = root.as(FunctionCallExprSyntax.self),
      let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
    {
      root = base
    }
    guard let call = root.as(FunctionCallExprSyntax.self),
      ["Empty", "Just", "just"].contains(Self.calleeName(call.calledExpression))
    else { return nil }
    let saved = (current.recognised, current.unrecognised, diagnostics.count)
    let steps = self.steps(of: body)
    guard current.unrecognised.count == saved.1.count, !steps.contains(where: { $0.placeholder != nil }) else {
      (current.recognised, current.unrecognised) = (saved.0, saved.1)
      diagnostics.removeLast(diagnostics.count - saved.2)
      return nil
    }
    return steps
  }

  /// `Empty` of `Empty<Bool, Never>`, `Just` of `Just`: a called type's name.
  static func calleeName(_ expr: ExprSyntax) -> String? {
    if let reference = expr.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
    if let generic = expr.as(GenericSpecializationExprSyntax.self) { return calleeName(generic.expression) }
    return nil
  }

  /// Whether `call` calls a service the view model depends on.
  func serviceCallShape(_ call: FunctionCallExprSyntax) -> Bool {
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      return serviceShape(reference.baseName.text) != nil
    }
    guard let access = call.calledExpression.as(MemberAccessExprSyntax.self), let base = access.base else {
      return false
    }
    let owner = base.trimmedDescription.replacingOccurrences(of: "self.", with: "")
    if access.declName.baseName.text == "request", owner.hasSuffix(".rx") { return true }
    if let member = decl.member(owner), member.kind == .other { return true }
    return
      (decl.parameters.contains { $0.name == owner }
      && declarations.protocolMethods[access.declName.baseName.text] != nil) || serviceOwner(of: call) != nil
  }

  /// The name of a signal given as an argument: a root's name, or an auxiliary signal.
  mutating func signalName(of expr: ExprSyntax) -> String {
    if let reference = expr.as(DeclReferenceExprSyntax.self), let root = rootKind(reference.baseName.text) {
      return root
    }
    if let access = expr.as(MemberAccessExprSyntax.self), access.base?.trimmedDescription == "self",
      let root = rootKind(access.declName.baseName.text)
    {
      return root
    }
    let saved = current
    let name = uniqueName("\(saved.name.replacingOccurrences(of: ".", with: "_"))Input")
    readChain(expr, named: name, output: false, node: expr)
    current = saved
    return name
  }

  /// A literal argument as YAML (`false`, `[]`, `""`), or nil.
  func literalValue(_ expr: ExprSyntax) -> String? {
    if let literal = ExpressionTranslator.literal(expr) { return literal == "nil" ? "~" : literal }
    if let string = expr.as(StringLiteralExprSyntax.self), string.segments.count <= 1,
      string.segments.allSatisfy({ if case .stringSegment = $0 { true } else { false } })
    {
      return "\"\(string.segments.trimmedDescription)\""
    }
    if let array = expr.as(ArrayExprSyntax.self), array.elements.isEmpty { return "[]" }
    if let access = expr.as(MemberAccessExprSyntax.self),
      access.base == nil
        || access.base?.as(DeclReferenceExprSyntax.self).map({ declarations.enumNames.contains($0.baseName.text) })
          == true
    {
      return "\"\(access.declName.baseName.text)\""  // an enum case (`.loading`, `State.failed`): its name
    }
    return nil
  }

  /// `n` of `dropFirst(n)`, `skip(n)`.
  func count(_ call: FunctionCallExprSyntax) -> String? {
    call.arguments.first.flatMap { ExpressionTranslator.literal($0.expression) }
  }

  /// The duration argument (`for:` or the first), in the scenario's words (`300ms`).
  mutating func durationArgument(_ call: FunctionCallExprSyntax) -> String? {
    let argument = call.arguments.first { $0.label?.text == "for" || $0.label == nil }
    guard let argument,
      let milliseconds = OperatorRows.milliseconds(argument.expression)
        ?? argument.expression.as(DeclReferenceExprSyntax.self).flatMap({ reference in
          // A local `let`, or an `init` parameter's default (`debounce: Stride = .milliseconds(400)`).
          localDurations[reference.baseName.text]
            ?? decl.parameters.first { $0.name == reference.baseName.text }?.defaultValue
            .flatMap(OperatorRows.milliseconds)
        })
    else { return nil }
    draft.durations.append(milliseconds)
    return "\(milliseconds)ms"
  }

  /// `&$enabled`, `\.enabled` (with `on: self`): the assigned member.
  func assignTarget(_ call: FunctionCallExprSyntax) -> String? {
    guard let argument = call.arguments.first?.expression else { return nil }
    if let inOut = argument.as(InOutExprSyntax.self),
      let reference = inOut.expression.as(DeclReferenceExprSyntax.self), reference.baseName.text.hasPrefix("$")
    {
      return String(reference.baseName.text.dropFirst())
    }
    if let keyPath = argument.as(KeyPathExprSyntax.self), keyPath.components.count == 1,
      let component = keyPath.components.first?.component.as(KeyPathPropertyComponentSyntax.self)
    {
      return component.declName.baseName.text
    }
    return nil
  }

  /// `{ self.x = $0 }`, `{ [weak self] v in self?.x = v }`, `{ self?.x.accept($0) }`: the
  /// member `x`.
  func simpleAssignment(_ closure: ClosureExprSyntax) -> String? {
    guard closure.statements.count == 1, case .expr(let expr)? = closure.statements.first?.item else { return nil }
    let parameters = ExpressionTranslator.parameterNames(closure)
    if let call = expr.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
      let access = call.calledExpression.as(MemberAccessExprSyntax.self),
      ["accept", "send", "onNext"].contains(access.declName.baseName.text),
      let target = access.base?.as(MemberAccessExprSyntax.self),
      ["self", "self?"].contains(target.base?.trimmedDescription ?? ""),
      let value = call.arguments.first?.expression.as(DeclReferenceExprSyntax.self),
      value.baseName.text == "$0" || parameters.first == value.baseName.text
    {
      return decl.member(target.declName.baseName.text) != nil ? target.declName.baseName.text : nil
    }
    guard let sequence = expr.as(SequenceExprSyntax.self), sequence.elements.count == 3,
      let target = sequence.elements.first?.as(MemberAccessExprSyntax.self),
      ["self", "self?"].contains(target.base?.trimmedDescription ?? ""),
      let value = sequence.elements.last?.as(DeclReferenceExprSyntax.self)
    else { return nil }
    guard value.baseName.text == "$0" || parameters.first == value.baseName.text else { return nil }
    return decl.member(target.declName.baseName.text) != nil ? target.declName.baseName.text : nil
  }

  mutating func markOutput(_ member: String) {
    if let index = draft.states.firstIndex(where: { $0.name == "vm.\(member)" }) { draft.states[index].isOutput = true }
    assignedMembers.insert(member)
  }

  /// Hard-coded real-time schedulers and clocks in the call's arguments.
  mutating func warnAboutSchedulers(_ call: FunctionCallExprSyntax) {
    for argument in call.arguments {
      guard let found = OperatorRows.realTimeScheduler(argument.expression) else { continue }
      diagnostics.append(
        file.diagnostic(
          .warning, "'\(found.name)' runs on real time, which stops virtual time: \(found.advice)",
          at: argument.expression))
    }
  }
}

extension ImportedLibrary {
  func acceptsPassThrough(_ key: String) -> Bool {
    switch self {
    case .combine: ["eraseToAnyPublisher", "setFailureType", "print"].contains(key)
    case .rxswift: ["asObservable", "debug"].contains(key)
    case .async: false
    }
  }
}
