import FlowrunDiagnostics
import FlowrunScenario
import Foundation
import SwiftSyntax

/// What the chains do not say: methods that send to a subject (an input's way in), and methods
/// that call a service or set state without becoming a command. Each is either read (the
/// input is driven through the method) or listed as not read with its place, counted in the
/// draft's "N of M calls read": nothing is dropped silently.
extension ChainReader {
  /// After the chains and commands: the methods none of them read.
  mutating func listUnreadMethods(read: Set<String>) {
    let helpers = commandHelpers().union(helperMethods)
    for method in decl.methods {
      let name = method.name.text
      guard let body = method.body, !read.contains(name), !helpers.contains(name) else { continue }
      if let forwarded = forwardedSubject(method) {
        // `func emailChanged(_ email: String) { emailSubject.send(email) }`: the subject's input
        // is the method (a private subject is reachable only through it).
        if let index = draft.states.firstIndex(where: { $0.name == "vm.\(forwarded.member)" }) {
          draft.states[index].drivenBy = forwarded.call
          draft.readOutside.append("\(name) at \(file.cite(method.name))")
          continue
        }
      }
      guard let what = effect(of: body) else { continue }
      draft.unread.append("\(name) (\(what)) at \(file.cite(method.name))")
      diagnostics.append(file.diagnostic(.warning, Diagnostic.Message.unreadMethod(name, what).text, at: method.name))
    }
  }

  /// A method whose one statement sends its parameter (or `()`) to a subject or relay member:
  /// the member and the call that drives it in the binding test (`viewModel.emailChanged(value)`).
  func forwardedSubject(_ method: FunctionDeclSyntax) -> (member: String, call: String)? {
    guard let statements = method.body?.statements, statements.count == 1,
      case .expr(let expr)? = statements.first?.item, let call = expr.as(FunctionCallExprSyntax.self),
      let access = call.calledExpression.as(MemberAccessExprSyntax.self),
      ["send", "onNext", "accept"].contains(access.declName.baseName.text),
      let base = access.base, let member = memberName(base),
      let kind = decl.member(member)?.kind
    else { return nil }
    switch kind {
    case .passthrough, .currentValue: break
    default: return nil
    }
    let parameters = method.signature.parameterClause.parameters
    guard parameters.count <= 1 else { return nil }
    guard let parameter = parameters.first else { return (member, "viewModel.\(method.name.text)()") }
    let label = parameter.firstName.text == "_" ? "" : "\(parameter.firstName.text): "
    return (member, "viewModel.\(method.name.text)(\(label)value)")
  }

  /// What a method body does that a draft should say: the first service call, call on a member
  /// or assignment of a member, in words (`calls 'auth.signOut'`, `sets 'items'`); nil for none.
  func effect(of body: CodeBlockSyntax) -> String? {
    for call in NodeCollector<FunctionCallExprSyntax>.all(in: body) {
      if let access = call.calledExpression.as(MemberAccessExprSyntax.self), let base = access.base {
        let owner = base.trimmedDescription.replacingOccurrences(of: "self.", with: "")
          .replacingOccurrences(of: "self?.", with: "").replacingOccurrences(of: "?", with: "")
        if decl.member(owner) != nil || decl.parameters.contains(where: { $0.name == owner }) {
          return "calls '\(owner).\(access.declName.baseName.text)'"
        }
        if owner == "self" { return "calls '\(access.declName.baseName.text)'" }
      }
      if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
        let name = reference.baseName.text
        if serviceShape(name) != nil || decl.member(name) != nil
          || decl.methods.contains(where: { $0.name.text == name })
        {
          return "calls '\(name)'"
        }
      }
    }
    for sequence in NodeCollector<SequenceExprSyntax>.all(in: body) {
      let elements = Array(sequence.elements)
      guard elements.count >= 3, let target = elements.first else { continue }
      let isAssignment =
        elements[1].is(AssignmentExprSyntax.self)
        || (elements[1].as(BinaryOperatorExprSyntax.self).map { Self.compoundAssignments.contains($0.operator.text) }
          ?? false)
      guard isAssignment else { continue }
      let text = target.trimmedDescription.replacingOccurrences(of: "self.", with: "")
        .replacingOccurrences(of: "self?.", with: "")
      if decl.member(text) != nil { return "sets '\(text)'" }
    }
    return nil
  }

  static let compoundAssignments: Set<String> = ["+=", "-=", "*=", "/=", "%=", "&&=", "||="]

  /// A side effect of a chain (`handleEvents`, `do(onNext:)`) that the draft passes by: the step
  /// stays and the closure is listed as not read.
  mutating func unreadSideEffect(_ name: String, call: FunctionCallExprSyntax, token: TokenSyntax) {
    let closures =
      call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
      + [call.trailingClosure]
      .compactMap { $0 }
    guard !closures.isEmpty else { return }
    current.unrecognised.append("\(name) side effect at \(file.cite(token))")
    diagnostics.append(file.diagnostic(.warning, Diagnostic.Message.unreadSideEffect(name).text, at: token))
  }
}

extension Diagnostic.Message {
  static func unreadMethod(_ name: String, _ what: String) -> Self {
    "the draft does not read the method '\(name)' (it \(what)): left to fill in as a command or effect"
  }

  static func unreadSideEffect(_ name: String) -> Self {
    "the draft passes values through '\(name)' but does not read its side effect: left to fill in as 'effects:'"
  }
}

/// A call no row of the importer reads, drafted from the library's own step table (the loader's
/// `ScenarioVocabulary`): a step of that name the dialect has is a step the draft can write.
extension ChainReader {
  /// The call as a step of the dialect (`adjacentPairs()`, `reductions(0) { $0 + $1 }`,
  /// `collect(2)`), checked by loading it; nil when the dialect has no such operator or the
  /// arguments do not make a step that loads.
  mutating func dialectStep(_ name: String, call: FunctionCallExprSyntax, origin: String) -> Draft.Step? {
    let steps = ScenarioVocabulary.steps(named: name, library: library.library).filter { $0.role == .operator }
    guard let definition = steps.first else { return nil }
    let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self)
    let plain = call.arguments.filter { !$0.expression.is(ClosureExprSyntax.self) }
    var value: String?
    var extras: [(key: String, value: String)] = []
    if let closure {
      guard definition.takesExpression else { return nil }
      var translator = expressionTranslator()
      guard let text = translator.closure(closure) else { return nil }
      value = quoted(text)
      if let seed = plain.first.flatMap({ literalValue($0.expression) }), definition.extras.contains("seed") {
        extras.append(("seed", seed))
      } else if !plain.isEmpty {
        return nil
      }
    } else if plain.count == 1, let only = plain.first, only.label == nil {
      guard let written = literalValue(only.expression) ?? OperatorRows.milliseconds(only.expression).map({ "\($0)ms" })
      else { return nil }
      value = written
    } else if !plain.isEmpty {
      var pairs: [String] = []
      for argument in plain {
        guard let label = argument.label?.text,
          let written = literalValue(argument.expression)
            ?? OperatorRows.milliseconds(argument.expression).map({ "\($0)ms" })
        else { return nil }
        pairs.append("\(label): \(written)")
      }
      value = "{ \(pairs.joined(separator: ", ")) }"
    }
    let step = Draft.Step(key: name, value: value, extras: extras, origin: "\(origin) \(name)")
    return Self.loads(step, library: library) ? step : nil
  }

  /// Whether a scenario of the library with only this step after a source loads.
  static func loads(_ step: Draft.Step, library: ImportedLibrary) -> Bool {
    var lines = ["flowrun: 1", "name: probe"]
    if let name = library.scenarioName { lines.append("library: \(name)") }
    lines += ["signals:", "  src: { hot: \"-a|\" }", "  probe:", "    - from: src"]
    lines.append(
      "    - \(step.value.map { "\(step.key): \($0)" } ?? (step.extras.isEmpty ? step.key : "\(step.key): true"))")
    lines += step.extras.map { "      \($0.key): \($0.value)" }
    lines += ["expect:", "  probe: \"-\""]
    let loaded = ScenarioLoader.load(path: "probe.yaml", bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
    return !loaded.hasErrors
  }
}
