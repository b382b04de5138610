import FlowrunDiagnostics
import Foundation
import SwiftSyntax

/// Reads the publisher and observable chains of one view model into the draft's signals.
///
/// A chain is read from its root (`$account`, a subject, `Observable.combineLatest(…)`, a
/// service call) outwards, one member call at a time, each call matched by its name and
/// argument labels against the library's rows (`OperatorRows`). A call no row reads becomes a
/// placeholder step and a diagnostic; the reader keeps walking.
struct ChainReader {
  let file: SwiftFile
  let decl: ViewModelDecl
  let library: ImportedLibrary
  let declarations: DeclarationReader
  var draft: Draft
  var diagnostics: [Diagnostic] = []
  /// Local `let`s that hold a chain, by name (a named signal each).
  var locals: [String: String] = [:]
  /// Constants of the initializer: parameters with a literal default (`plantedBug = false`).
  var constants: [String: ExprSyntax] = [:]
  /// The chain being read: its recognised and unrecognised calls.
  var current = Draft.Chain(name: "", steps: [], origin: "")
  /// A `map { service($0) }` waiting for its `switchToLatest` (Combine's flatMapLatest).
  var pendingServiceMap: ([Draft.Step], String)?
  /// The chain's values are Optionals (its root is an optional property), until a `map`.
  var optionalElement = false
  /// The closure parameters of the template being read: `outer`.
  var constantsForTemplate: [String] = []
  /// The UI element a chain is bound to (`loginButton.isEnabled`), which names it.
  var uiOutput: String?
  /// Members that a chain assigns (outputs).
  var assignedMembers: Set<String> = []
  /// Local `let`s that hold a duration (`let interval = Duration.milliseconds(300)`), in ms.
  var localDurations: [String: Int] = [:]
  /// The method being read as a command.
  var currentMethod: FunctionDeclSyntax?
  /// What a template's closure parameter stands for: `outer` (flatMap), `input` (a command).
  var templateInput = "outer"
  /// Methods a task calls with a sequence (`run(_ queries:)`): read there, not as commands.
  var helperMethods: Set<String> = []
  /// The chain being read ends in a `sink` whose assignments are effects on it.
  var sinkEffectsRead = false
  /// Names given to chains being read (an inline input's, before its chain is appended).
  var reservedNames: Set<String> = []

  init(file: SwiftFile, decl: ViewModelDecl, library: ImportedLibrary, declarations: DeclarationReader) {
    self.file = file
    self.decl = decl
    self.library = library
    self.declarations = declarations
    draft = Draft(viewModel: decl.name, file: file.name, library: library.scenarioName)
    draft.observable = decl.observable
    for parameter in decl.parameters {
      if let value = parameter.defaultValue, ExpressionTranslator.literal(value) != nil {
        constants[parameter.name] = value
      }
    }
  }

  // MARK: - Statements

  /// Reads the initializer's statements, then each method's (a method that calls a service is
  /// a command).
  mutating func readAll() {
    readComputed()
    if let body = decl.initializer?.body { readStatements(body.statements, command: nil) }
    let helpers = commandHelpers()
    var read: Set<String> = []
    for method in decl.methods where !helpers.contains(method.name.text) {
      guard let body = method.body, forwardedSubject(method) == nil else { continue }
      currentMethod = method
      let before = draft.chains.count
      if !readAsyncCommand(method) { readStatements(body.statements, command: method) }
      if draft.chains.count > before { read.insert(method.name.text) }
      currentMethod = nil
    }
    listUnreadMethods(read: read)
    markEffectOutputs()
    observeOutputs()
  }

  mutating func readStatements(_ statements: CodeBlockItemListSyntax, command: FunctionDeclSyntax?) {
    for item in statements {
      switch item.item {
      case .decl(let declaration):
        guard let variable = declaration.as(VariableDeclSyntax.self) else { continue }
        readAsyncDeclaration(variable)
        for binding in variable.bindings {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let value = binding.initializer?.value, isChain(value)
          else { continue }
          let signal = decl.member(name) == nil && !isTaken(name) ? name : uniqueName("\(name)Chain")
          locals[name] = signal
          readChain(value, named: signal, output: false, node: binding)
        }
      case .expr(let expr) where readHelperCall(expr, command: command):
        continue
      case .expr(let expr) where command == nil && readTaskStatement(expr):
        continue
      case .expr(let expr) where command == nil && readActionStatement(expr):
        continue
      case .expr(let expr):
        if let sequence = expr.as(SequenceExprSyntax.self), sequence.elements.count == 3,
          sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true,
          let target = sequence.elements.first, let value = sequence.elements.last, isChain(value)
        {
          let name = memberName(target) ?? target.trimmedDescription
          if let command {
            readCommand(value, method: command)
          } else {
            readChain(value, named: "vm.\(name)", output: true, node: expr)
          }
        } else if isChain(expr) {
          if let command {
            readCommand(expr, method: command)
          } else {
            readChain(expr, named: "chain\(file.line(of: expr))", output: false, node: expr)
          }
        }
      case .stmt: continue
      }
    }
  }

  /// Whether a signal, command, state or service of the draft already has `name`.
  func isTaken(_ name: String) -> Bool {
    draft.chains.contains { $0.name == name } || draft.states.contains { $0.name == name }
      || draft.services.contains { $0.name == name } || draft.observed.contains { $0.name == name }
      || reservedNames.contains(name)
  }

  /// `base1`, `base2` …: the first that no name of the draft has (generated names never clash:
  /// two chains of the same target or two inline inputs of one chain).
  mutating func uniqueName(_ base: String) -> String {
    var number = 1
    while isTaken("\(base)\(number)") { number += 1 }
    reservedNames.insert("\(base)\(number)")
    return "\(base)\(number)"
  }

  /// `name` of `self.name` or `name`, when it is a member.
  func memberName(_ expr: ExprSyntax) -> String? {
    if let reference = expr.as(DeclReferenceExprSyntax.self), decl.member(reference.baseName.text) != nil {
      return reference.baseName.text
    }
    if let access = expr.as(MemberAccessExprSyntax.self), access.base?.trimmedDescription == "self" {
      return access.declName.baseName.text
    }
    return nil
  }

  /// Whether `expr` is a reactive chain: its root is a reactive source the reader knows.
  func isChain(_ expr: ExprSyntax) -> Bool {
    var node = expr
    while true {
      if let call = node.as(FunctionCallExprSyntax.self) {
        if let access = call.calledExpression.as(MemberAccessExprSyntax.self), let base = access.base {
          if OperatorRows.sourceTypes.contains(base.trimmedDescription) { return true }
          if node.id != expr.id, serviceOwner(of: call) != nil { return true }
          node = base
          continue
        }
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
          let name = reference.baseName.text
          return ["Just", "combineLatest", "merge", "zip"].contains(name)
            || (serviceShape(name) != nil && call.parent?.is(MemberAccessExprSyntax.self) == true)
        }
        return false
      }
      if let access = node.as(MemberAccessExprSyntax.self), access.base?.trimmedDescription == "self" {
        return rootKind(access.declName.baseName.text) != nil
      }
      if let access = node.as(MemberAccessExprSyntax.self), actionSignal(access) != nil { return true }
      if let reference = node.as(DeclReferenceExprSyntax.self) {
        return rootKind(reference.baseName.text) != nil && node.id != expr.id
      }
      if let sequence = node.as(SequenceExprSyntax.self), let branches = ternary(sequence) {
        return isChain(branches.whenTrue) || isChain(branches.whenFalse)
      }
      if let tuple = node.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
        node = inner.expression
        continue
      }
      return false
    }
  }

  /// What a bare name at the root of a chain reads: `from: vm.x`, or a local chain.
  func rootKind(_ name: String) -> String? {
    if let local = locals[name] { return local }
    if name.hasPrefix("$"), decl.member(String(name.dropFirst()))?.kind == .published {
      return "vm." + name.dropFirst()
    }
    guard let member = decl.member(name) else {
      // A publisher, observable or `Driver` parameter of `init`: an input subject.
      return draft.states.contains { $0.name == "init.\(name)" } ? "init.\(name)" : nil
    }
    switch member.kind {
    case .passthrough, .currentValue, .publisher, .channel: return "vm.\(name)"
    case .published, .other: return nil
    }
  }

  // MARK: - Chains

  mutating func readChain(_ expr: ExprSyntax, named name: String, output: Bool, node: some SyntaxProtocol) {
    let saved = current
    let named = draft.chains.contains { $0.name == name } ? uniqueName(name) : name
    current = Draft.Chain(name: named, steps: [], origin: file.cite(node))
    current.isOutput = output
    uiOutput = nil
    sinkEffectsRead = false
    var steps = self.steps(of: expr)
    if let pending = pendingServiceMap {
      // Combine's `map { service($0) }` with no `switchToLatest`: every request's answer.
      steps.append(Draft.Step(key: "flatMap", origin: "\(pending.1) map", template: pending.0))
      pendingServiceMap = nil
    }
    if name.hasPrefix("chain"), let target = steps.last(where: { ["assign", "bind"].contains($0.key) })?.value {
      // A chain that feeds a property is named after it.
      current.name = target.replacingOccurrences(of: "{ to: ", with: "").replacingOccurrences(of: " }", with: "")
        .replacingOccurrences(of: "vm.", with: "")
      if isTaken(current.name) { current.name = uniqueName(current.name + "\(file.line(of: node))") }
    }
    if let ui = uiOutput {
      let named = ui.hasPrefix("self.") ? String(ui.dropFirst(5)) : ui
      current.name = isTaken(named) ? uniqueName(named) : named
    }
    // A chain that ends in `assign`/`bind` feeds the property; one that ends in a UI binding is
    // an output of its own.
    if steps.contains(where: { ["assign", "bind"].contains($0.key) }) || sinkEffectsRead {
      current.isOutput = false
    } else if !output, steps.last?.key != nil, !name.hasPrefix("chain") {
      current.isOutput = false
    } else if name.hasPrefix("chain") {
      current.isOutput = true
    }
    if steps.isEmpty { steps = [placeholderSource(expr)] }
    current.steps = steps
    draft.chains.append(current)
    current = saved
  }

  /// A method that calls a service: a command whose work is the chain before its `sink`.
  mutating func readCommand(_ expr: ExprSyntax, method: FunctionDeclSyntax) {
    let saved = current
    current = Draft.Chain(name: method.name.text, steps: [], origin: file.cite(method.name))
    current.isCommand = true
    let savedNames = constantsForCommand
    if let parameter = method.signature.parameterClause.parameters.first {
      constantsForCommand[parameter.secondName?.text ?? parameter.firstName.text] = "input"
      current.inputType = parameter.type.trimmedDescription
      current.inputName = parameter.secondName?.text ?? parameter.firstName.text
    }
    current.steps = steps(of: expr)
    constantsForCommand = savedNames
    guardPlaceholder(method)
    draft.chains.append(current)
    current = saved
  }

  /// What the names of the method being read as a command stand for: its parameter (`input`),
  /// the parameters of a helper it calls (`page` → `vm.currentPage + 1`).
  var constantsForCommand: [String: String] = [:]

  /// The steps of `expr`: the root's, then one per call.
  mutating func steps(of expr: ExprSyntax) -> [Draft.Step] {
    if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
      return steps(of: inner.expression)
    }
    if let sequence = expr.as(SequenceExprSyntax.self), let branches = ternary(sequence) {
      switch decide(branches.condition) {
      case true?: return steps(of: branches.whenTrue)
      case false?: return steps(of: branches.whenFalse)
      case nil:
        diagnostics.append(
          file.diagnostic(.warning, "the draft follows the first branch of a condition it cannot decide", at: expr))
        return steps(of: branches.whenTrue)
      }
    }
    if let reference = expr.as(DeclReferenceExprSyntax.self), let root = rootKind(reference.baseName.text) {
      return [rootStep(root, name: reference.baseName.text, at: expr)]
    }
    if let access = expr.as(MemberAccessExprSyntax.self) {
      if access.base?.trimmedDescription == "self", let root = rootKind(access.declName.baseName.text) {
        return [rootStep(root, name: access.declName.baseName.text, at: expr)]
      }
      if let signal = actionSignal(access) {
        current.recognised.append(access.declName.baseName.text)
        return [Draft.Step(key: "from", value: signal, origin: "\(file.cite(expr)) \(access.trimmedDescription)")]
      }
    }
    guard let call = expr.as(FunctionCallExprSyntax.self) else { return [placeholderSource(expr)] }
    if let access = call.calledExpression.as(MemberAccessExprSyntax.self), let base = access.base {
      if OperatorRows.sourceTypes.contains(base.trimmedDescription) {
        return source(access.declName.baseName.text, call: call, name: access.declName.baseName)
      }
      if let service = serviceCall(call) { return service }
      var upstream = steps(of: base)
      apply(access.declName.baseName.text, call: call, name: access.declName.baseName, to: &upstream)
      return upstream
    }
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      if let service = serviceCall(call) { return service }
      return source(reference.baseName.text, call: call, name: reference.baseName)
    }
    if let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self),
      let reference = generic.expression.as(DeclReferenceExprSyntax.self)
    {
      return source(reference.baseName.text, call: call, name: reference.baseName)  // `Empty<Bool, Never>()`
    }
    return [placeholderSource(expr)]
  }

  mutating func rootStep(_ root: String, name: String, at expr: some SyntaxProtocol) -> Draft.Step {
    let member = decl.member(name.hasPrefix("$") ? String(name.dropFirst()) : name)
    optionalElement = member?.type?.hasSuffix("?") == true
    return Draft.Step(key: "from", value: root, origin: "\(file.cite(expr)) \(name)")
  }

  mutating func placeholderSource(_ expr: some SyntaxProtocol) -> Draft.Step {
    current.unrecognised.append("'\(expr.trimmedDescription.prefix(30))' at \(file.cite(expr))")
    diagnostics.append(file.diagnostic(.warning, "the draft cannot read the source of this chain", at: expr))
    return Draft.Step(
      key: "never", value: "true", origin: file.cite(expr),
      placeholder: "the source: \(expr.trimmedDescription.prefix(40))")
  }

  /// `cond ? a : b` of an unfolded sequence.
  func ternary(_ sequence: SequenceExprSyntax) -> (
    condition: [ExprSyntax], whenTrue: ExprSyntax, whenFalse: ExprSyntax
  )? {
    let elements = Array(sequence.elements)
    guard let index = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
      let marker = elements[index].as(UnresolvedTernaryExprSyntax.self), index + 2 == elements.count
    else { return nil }
    return (Array(elements[..<index]), marker.thenExpression, elements[index + 1])
  }

  /// The value of a condition made of constants: `plantedBug`, `plantedBug == .x`, `!flag`.
  func decide(_ condition: [ExprSyntax]) -> Bool? {
    func value(_ expr: ExprSyntax) -> String? {
      if let literal = ExpressionTranslator.literal(expr) { return literal }
      if let reference = expr.as(DeclReferenceExprSyntax.self), let constant = constants[reference.baseName.text] {
        return ExpressionTranslator.literal(constant)
      }
      if let access = expr.as(MemberAccessExprSyntax.self), access.base == nil {
        return "." + access.declName.baseName.text
      }
      if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!",
        let inner = value(prefix.expression)
      {
        return inner == "true" ? "false" : inner == "false" ? "true" : nil
      }
      return nil
    }
    if condition.count == 1, let single = value(condition[0]) {
      return single == "true" ? true : single == "false" ? false : nil
    }
    guard condition.count == 3, let op = condition[1].as(BinaryOperatorExprSyntax.self)?.operator.text,
      let lhs = value(condition[0]), let rhs = value(condition[2])
    else { return nil }
    switch op {
    case "==": return lhs == rhs
    case "!=": return lhs != rhs
    default: return nil
    }
  }

  // MARK: - Services

  /// The shape of the service named `name`: an initializer parameter or member of function
  /// type, or a protocol method.
  func serviceShape(_ name: String) -> ServiceShape? {
    if let parameter = decl.parameters.first(where: { $0.name == name }),
      let shape = ServiceShape.of(functionType: parameter.type)
    {
      return shape
    }
    if let member = decl.member(name), let type = member.type, let shape = ServiceShape.of(functionType: type) {
      return shape
    }
    return nil
  }

  /// `search($0)`, `api.search(query)`, `self.api.search(q)`, Moya's
  /// `provider.rx.request(.login(a, b))`: a `call:` of a service, with its input.
  mutating func serviceCall(_ call: FunctionCallExprSyntax) -> [Draft.Step]? {
    var name: String
    var arguments = Array(call.arguments.map(\.expression))
    var shape: ServiceShape?
    var moyaCase: (name: String, arity: Int)?
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      name = reference.baseName.text
      guard let found = serviceShape(name) else { return nil }
      shape = found
    } else if let access = call.calledExpression.as(MemberAccessExprSyntax.self), let base = access.base {
      let method = access.declName.baseName.text
      let owner = base.trimmedDescription.replacingOccurrences(of: "self.", with: "")
      if method == "request", owner.hasSuffix(".rx"), let target = arguments.first?.as(FunctionCallExprSyntax.self),
        let endpoint = target.calledExpression.as(MemberAccessExprSyntax.self), endpoint.base == nil
      {
        // Moya: provider.rx.request(.login(account, password)).
        name = String(owner.dropLast(3)) + "." + endpoint.declName.baseName.text
        arguments = target.arguments.map(\.expression)
        moyaCase = (endpoint.declName.baseName.text, arguments.count)
      } else if let member = decl.member(owner), member.kind == .other,
        let found = declarations.protocolMethods[method]
      {
        name = "\(owner).\(method)"
        shape = found
      } else if decl.parameters.contains(where: { $0.name == owner }), let found = declarations.protocolMethods[method]
      {
        name = "\(owner).\(method)"
        shape = found
      } else if serviceOwner(of: call) != nil {
        // A protocol of another module (`auth: AuthServicing`): drafted from the method's name
        // and the call's arguments; its answer is left to fill in.
        name = "\(owner).\(method)"
        shape = declarations.protocolMethods[method]
      } else {
        return nil
      }
    } else {
      return nil
    }
    if name.hasPrefix("self.") { name.removeFirst(5) }
    current.recognised.append(name)
    if !draft.services.contains(where: { $0.name == name }) {
      draft.services.append(
        Draft.Service(
          name: name, response: shape?.response ?? "", shape: shape, origin: file.cite(call), moyaCase: moyaCase))
    }
    var step = Draft.Step(key: "call", value: name, origin: file.cite(call) + " \(name)(…)")
    if !arguments.isEmpty {
      var translator = expressionTranslator()
      let inputs = arguments.map { translator.translate($0) }
      if inputs.allSatisfy({ $0 != nil }) {
        let joined = inputs.compactMap { $0 }
        step.extras.append(("with", quoted(joined.count == 1 ? joined[0] : "[\(joined.joined(separator: ", "))]")))
      } else {
        // What stands for the value here: a template's `outer`, a command's `input`.
        if !constantsForTemplate.isEmpty || current.isCommand {
          step.extras.append(("with", constantsForTemplate.isEmpty ? "input" : templateInput))
        }
        step.placeholder = "the input of '\(name)': \(translator.failure?.reason ?? "not read")"
      }
    }
    return [step]
  }

  /// The member or `init` parameter a call is made on (`auth` of `auth.signIn(…)`,
  /// `self.auth.signIn(…)`) when its type reads as a service: a protocol or class name (`any
  /// AuthServicing`, `PricingService`), not a value, a collection or a lifetime (`Int`,
  /// `[String]`, `Set<AnyCancellable>`, `DisposeBag`, `Task<…>`).
  func serviceOwner(of call: FunctionCallExprSyntax) -> String? {
    guard let access = call.calledExpression.as(MemberAccessExprSyntax.self), let base = access.base else {
      return nil
    }
    let owner = base.trimmedDescription.replacingOccurrences(of: "self.", with: "")
    let type =
      decl.member(owner).flatMap { $0.kind == .other ? $0.type : nil }
      ?? decl.parameters.first { $0.name == owner }?.type
    guard var type else { return nil }
    for prefix in ["any ", "some "] where type.hasPrefix(prefix) { type.removeFirst(prefix.count) }
    guard let first = type.first, first.isUppercase,
      type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
      !Self.valueTypes.contains(type), declarations.structs[type] == nil
    else { return nil }
    return owner
  }

  static let valueTypes: Set<String> = [
    "Int", "String", "Bool", "Double", "Float", "Date", "URL", "UUID", "Data", "DisposeBag", "AnyCancellable",
    "Duration", "TimeInterval", "CGFloat", "NotificationCenter", "UserDefaults", "DispatchQueue", "RunLoop",
    "OperationQueue", "Timer",
  ]

  /// The translator with this view model's names in scope.
  func expressionTranslator() -> ExpressionTranslator {
    var translator = ExpressionTranslator()
    for member in decl.members where member.kind != .other {
      translator.members[member.name] = "vm.\(member.name)"
    }
    for (name, value) in constants {
      if let literal = ExpressionTranslator.literal(value) { translator.names[name] = literal }
    }
    for (name, value) in constantsForCommand { translator.names[name] = value }
    translator.typeNames.insert(decl.name)
    for (name, value) in decl.statics {
      if let literal = ExpressionTranslator.literal(value) { translator.statics[name] = literal }
    }
    for name in constantsForTemplate { translator.names[name] = templateInput }
    for member in decl.members where member.type?.hasSuffix("?") == true { translator.optionals.insert(member.name) }
    return translator
  }

  /// A YAML single-quoted scalar.
  func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
