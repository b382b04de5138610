import SwiftSyntax

/// Swift closures and expressions as flowrun expressions (spec expressions.md), where they are
/// simple: literals, string interpolation, the closure's parameters, comparisons, `&&` `||`
/// `??`, ternaries, `!`, `.count`, `.isEmpty` and the methods flowrun has, `let`s inlined.
/// flowrun's operator precedence is Swift's, so a flat Swift sequence reads the same.
struct ExpressionTranslator {
  /// What a name means in the closure being translated: `$0`, a literal, an inlined `let`.
  var names: [String: String] = [:]
  /// The view model's members that a scenario declares (`account` → `vm.account`).
  var members: [String: String] = [:]
  /// The view model's static literals (`Self.pageSize` → `3`) and the type's own names (`Self`,
  /// `PagingViewModel`) that reach them.
  var statics: [String: String] = [:]
  var typeNames: Set<String> = ["Self"]
  /// Names whose value is an Optional (for `x.map { … }` on an Optional).
  var optionals: Set<String> = []
  /// Why the last translation failed, and where.
  private(set) var failure: (reason: String, node: Syntax)?

  static let binaryOperators: Set<String> = [
    "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "??",
  ]
  static let members: Set<String> = ["count", "isEmpty", "first", "last", "keys", "values"]
  static let methods: Set<String> = [
    "contains", "hasPrefix", "hasSuffix", "uppercased", "lowercased", "split", "joined", "prefix", "suffix",
    "dropFirst", "dropLast", "reversed", "sorted",
  ]
  static let functions: Set<String> = ["min", "max", "abs", "String", "Int", "Double", "Bool"]

  /// The closure as one expression, its parameters bound to `$0`, `$1` … (or to `bound`).
  mutating func closure(_ closure: ClosureExprSyntax, bound: [String]? = nil) -> String? {
    let saved = names
    defer { names = saved }
    let parameters = Self.parameterNames(closure)
    for (index, name) in parameters.enumerated() where name != "_" {
      names[name] = bound.map { index < $0.count ? $0[index] : "$\(index)" } ?? "$\(index)"
    }
    if let bound, parameters.isEmpty {
      for (index, value) in bound.enumerated() { names["$\(index)"] = value }
    }
    return statements(closure.statements, node: closure)
  }

  /// Statements (`let`s, then one expression or `return`) as one expression: a closure's body
  /// or a computed property's getter.
  mutating func statements(_ statements: CodeBlockItemListSyntax, node: some SyntaxProtocol) -> String? {
    var result: String?
    for item in statements {
      switch item.item {
      case .decl(let decl):
        guard let variable = decl.as(VariableDeclSyntax.self), variable.bindings.count == 1,
          let binding = variable.bindings.first,
          let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
          let value = binding.initializer?.value, let text = translate(value)
        else { return fail("a declaration the draft cannot inline", item) }
        names[name] = "(\(text))"
      case .stmt(let statement):
        guard let returned = statement.as(ReturnStmtSyntax.self), let value = returned.expression else {
          return fail("a '\(statement.firstToken(viewMode: .sourceAccurate)?.text ?? "statement")' statement", item)
        }
        result = translate(value)
        if result == nil { return nil }
      case .expr(let expr):
        result = translate(expr)
        if result == nil { return nil }
      }
    }
    guard let result else { return fail("an empty closure", node) }
    return result
  }

  /// The parameter names of a closure (`{ a, b in … }`, `{ (a: T) in … }`), empty for `$0` style.
  static func parameterNames(_ closure: ClosureExprSyntax) -> [String] {
    switch closure.signature?.parameterClause {
    case .simpleInput(let list)?: list.map(\.name.text)
    case .parameterClause(let clause)?: clause.parameters.map { $0.secondName?.text ?? $0.firstName.text }
    case nil: []
    }
  }

  /// One Swift expression as a flowrun expression, or nil (with `failure` set).
  mutating func translate(_ expr: ExprSyntax) -> String? {
    if let literal = Self.literal(expr) { return literal }
    if let string = expr.as(StringLiteralExprSyntax.self) { return stringLiteral(string) }
    if let reference = expr.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if let bound = names[name] { return bound }
      if name.hasPrefix("$"), name.dropFirst().allSatisfy(\.isNumber) { return name }
      if let member = members[name] { return member }
      return fail("'\(name)', which the scenario does not declare", expr)
    }
    if let sequence = expr.as(SequenceExprSyntax.self) { return self.sequence(sequence) }
    if let prefix = expr.as(PrefixOperatorExprSyntax.self) {
      let op = prefix.operator.text
      guard op == "!" || op == "-", let operand = translate(prefix.expression) else {
        return failure == nil ? fail("the operator '\(op)'", expr) : nil
      }
      return op + operand
    }
    if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
      return translate(inner.expression).map { "(\($0))" }
    }
    if let unwrap = expr.as(ForceUnwrapExprSyntax.self) { return translate(unwrap.expression) }
    if let ternary = expr.as(TernaryExprSyntax.self) {
      guard let c = translate(ternary.condition), let a = translate(ternary.thenExpression),
        let b = translate(ternary.elseExpression)
      else { return nil }
      return "\(c) ? \(a) : \(b)"
    }
    if let array = expr.as(ArrayExprSyntax.self) {
      var items: [String] = []
      for element in array.elements {
        guard let item = translate(element.expression) else { return nil }
        items.append(item)
      }
      return "[\(items.joined(separator: ", "))]"
    }
    if let access = expr.as(MemberAccessExprSyntax.self) { return member(access) }
    if let call = expr.as(FunctionCallExprSyntax.self) { return self.call(call) }
    return fail("this Swift expression", expr)
  }

  private mutating func sequence(_ sequence: SequenceExprSyntax) -> String? {
    var parts: [String] = []
    for element in sequence.elements {
      if let op = element.as(BinaryOperatorExprSyntax.self) {
        let text = op.operator.text
        guard Self.binaryOperators.contains(text) else { return fail("the operator '\(text)'", element) }
        parts.append(text)
      } else if let ternary = element.as(UnresolvedTernaryExprSyntax.self) {
        guard let then = translate(ternary.thenExpression) else { return nil }
        parts.append("? \(then) :")
      } else {
        guard let operand = translate(element) else { return nil }
        parts.append(operand)
      }
    }
    return parts.joined(separator: " ")
  }

  private mutating func member(_ access: MemberAccessExprSyntax) -> String? {
    let name = access.declName.baseName.text
    // An enum case without a payload (`.refresh`, `.done`): the scenario's value of it is its
    // name as a string (docs/import.md).
    guard let base = access.base else { return "\"\(name)\"" }
    if base.as(DeclReferenceExprSyntax.self)?.baseName.text == "self", let member = members[name] { return member }
    if let type = base.as(DeclReferenceExprSyntax.self)?.baseName.text, typeNames.contains(type),
      let value = statics[name]
    {
      return value
    }
    if let tupleIndex = Int(name) {
      // `pair.0` of a combineLatest tuple is `$0`.
      if let reference = base.as(DeclReferenceExprSyntax.self), names[reference.baseName.text] == "$0" {
        return "$\(tupleIndex)"
      }
      return fail("the tuple element '.\(name)'", access)
    }
    guard let translated = translate(base) else { return nil }
    // `self.items.value` of a relay or subject with a current value: the property itself.
    if name == "value", translated.hasPrefix("vm."), !translated.dropFirst(3).contains(".") { return translated }
    return "\(translated).\(name)"
  }

  private mutating func call(_ call: FunctionCallExprSyntax) -> String? {
    var arguments: [String] = []
    for argument in call.arguments {
      guard let text = translate(argument.expression) else { return nil }
      arguments.append(text)
    }
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if name == "Optional", arguments.count == 1 { return arguments[0] }
      guard Self.functions.contains(name), call.trailingClosure == nil else {
        return fail("the function '\(name)'", call)
      }
      return "\(name)(\(arguments.joined(separator: ", ")))"
    }
    guard let access = call.calledExpression.as(MemberAccessExprSyntax.self), let base = access.base else {
      return fail("this call", call)
    }
    let name = access.declName.baseName.text
    if name == "map" || name == "filter", let closure = call.trailingClosure ?? closureArgument(call) {
      return mapCall(name, base: base, closure: closure)
    }
    if name == "trimmingCharacters", call.trailingClosure == nil {
      return translate(base).map { "\($0).trimmed()" }
    }
    guard Self.methods.contains(name), call.trailingClosure == nil else { return fail("the method '\(name)'", call) }
    guard let receiver = translate(base) else { return nil }
    return "\(receiver).\(name)(\(arguments.joined(separator: ", ")))"
  }

  /// `x.map { … }`: on an Optional, `x == nil ? nil : …`; on a list, flowrun's `.map(…)`.
  private mutating func mapCall(_ name: String, base: ExprSyntax, closure: ClosureExprSyntax) -> String? {
    guard let receiver = translate(base) else { return nil }
    let optional = base.as(DeclReferenceExprSyntax.self).map { optionals.contains($0.baseName.text) } ?? false
    if optional, name == "map" {
      guard let body = self.closure(closure, bound: ["(\(receiver))"]) else { return nil }
      return "(\(receiver) == nil ? nil : \(body))"
    }
    guard let body = self.closure(closure) else { return nil }
    return "\(receiver).\(name)(\(body))"
  }

  private func closureArgument(_ call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
    call.arguments.count == 1 ? call.arguments.first?.expression.as(ClosureExprSyntax.self) : nil
  }

  private mutating func stringLiteral(_ string: StringLiteralExprSyntax) -> String? {
    guard string.openingQuote.text == "\"" else { return fail("a multi-line string", string) }
    var text = "\""
    for segment in string.segments {
      switch segment {
      case .stringSegment(let part): text += part.content.text
      case .expressionSegment(let part):
        guard part.expressions.count == 1, let inner = part.expressions.first, inner.label == nil,
          let translated = translate(inner.expression)
        else { return failure == nil ? fail("this interpolation", part) : nil }
        text += "\\(\(translated))"
      }
    }
    return text + "\""
  }

  /// A literal as flowrun writes it (`nil`, `true`, `3`, `1.5`), or nil.
  static func literal(_ expr: ExprSyntax) -> String? {
    if expr.is(NilLiteralExprSyntax.self) { return "nil" }
    if let bool = expr.as(BooleanLiteralExprSyntax.self) { return bool.literal.text }
    if let int = expr.as(IntegerLiteralExprSyntax.self) {
      let digits = int.literal.text.filter { $0 != "_" }
      return Int(digits).map(String.init)
    }
    if let float = expr.as(FloatLiteralExprSyntax.self) {
      let digits = float.literal.text.filter { $0 != "_" }
      return Double(digits) != nil ? digits : nil
    }
    return nil
  }

  private mutating func fail(_ reason: String, _ node: some SyntaxProtocol) -> String? {
    if failure == nil { failure = (reason, Syntax(node)) }
    return nil
  }

  mutating func resetFailure() { failure = nil }
}
