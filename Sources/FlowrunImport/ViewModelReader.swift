import Foundation
import SwiftSyntax

/// What a view model's declaration says, before its chains are read: stored state, inputs and
/// outputs, the services it calls, its initializer's parameters.
struct ViewModelDecl {
  /// A stored member of the view model.
  struct Member {
    enum Kind: Equatable {
      /// `@Published var` (Combine) or a stored `var` of an `@Observable` class.
      case published
      /// `PassthroughSubject`, `PublishSubject`, `PublishRelay`: values only.
      case passthrough(relay: Bool)
      /// `CurrentValueSubject(v)`, `BehaviorSubject(value:)`, `BehaviorRelay(value:)`: a current
      /// value.
      case currentValue(relay: Bool)
      /// `AsyncChannel<T>()`, `AsyncThrowingChannel<T, E>()`: each value to one consumer.
      case channel
      /// A stored publisher or observable (`let isValid: AnyPublisher<Bool, Never>`).
      case publisher
      /// A function or protocol-typed dependency (a service) or anything else.
      case other
    }

    var name: String
    var kind: Kind
    /// The value type as written (`String?`, `[Int]`), when the declaration says it.
    var type: String?
    var initial: ExprSyntax?
    /// Settable from outside (`var` without `private(set)` / `private`): an input.
    var settable: Bool
    var node: Syntax
    /// The statements of its `didSet` observer (`didSet { typed.yield(query) }`).
    var didSet: CodeBlockItemListSyntax? = nil
  }

  /// A computed property (`var isLoginEnabled: Bool { … }`): of an `@Observable` class, an
  /// output that Observation recomputes from the stored properties its getter reads.
  struct Computed {
    var name: String
    var type: String?
    var body: CodeBlockItemListSyntax
    var node: Syntax
  }

  struct Parameter {
    var label: String
    var name: String
    var type: String
    var defaultValue: ExprSyntax?
    var node: Syntax
  }

  var name: String
  /// The class is `public` or `open`: the test imports its module without `@testable`.
  var isPublic = false
  /// The class is `@Observable`: its stored `var`s are observed, its computed properties are
  /// outputs.
  var observable = false
  /// The global actor the class is isolated to (`MainActor` of `@MainActor`), if any: the
  /// drafted test runs on it too.
  var globalActor: String?
  var members: [Member] = []
  var computed: [Computed] = []
  var parameters: [Parameter] = []
  var initializer: InitializerDeclSyntax?
  var methods: [FunctionDeclSyntax] = []
  /// Static properties whose value is a literal (`static var pageSize: Int { 3 }`), by name.
  var statics: [String: ExprSyntax] = [:]
  var node: Syntax

  func member(_ name: String) -> Member? { members.first { $0.name == name } }
}

/// A `protocol` method or a function type the chains call: a service.
struct ServiceShape {
  var input: String?
  var response: String
  var failure: String?
  /// An `async` function: the response is its return value.
  var isAsync = false
}

/// Reads the declarations of a file: its imports (the library), classes, protocols and structs.
final class DeclarationReader: SyntaxVisitor {
  var imports: Set<String> = []
  var viewModels: [ViewModelDecl] = []
  /// `protocol P { func m(…) -> AnyPublisher<R, E> }`: `m` by name.
  var protocolMethods: [String: ServiceShape] = [:]
  /// The methods of each protocol, by protocol name: a protocol-typed service's stub in the test.
  var protocols: [String: [FunctionDeclSyntax]] = [:]
  /// Struct fields by struct name, for sample values of a service's response.
  var structs: [String: [(name: String, type: String)]] = [:]

  init() { super.init(viewMode: .sourceAccurate) }

  override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
    if let first = node.path.first { imports.insert(first.name.text) }
    return .skipChildren
  }

  override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
    protocols[node.name.text] = node.memberBlock.members.compactMap { $0.decl.as(FunctionDeclSyntax.self) }
    for item in node.memberBlock.members {
      guard let function = item.decl.as(FunctionDeclSyntax.self) else { continue }
      let returned = function.signature.returnClause?.type.trimmedDescription ?? "Void"
      let input = function.signature.parameterClause.parameters.first?.type.trimmedDescription
      if function.signature.effectSpecifiers?.asyncSpecifier != nil {
        // `func search(_ query: String) async throws -> [String]`: the value itself.
        protocolMethods[function.name.text] = ServiceShape(
          input: input, response: returned, failure: nil, isAsync: true)
      } else {
        protocolMethods[function.name.text] = ServiceShape.of(returnType: returned, input: input)
      }
    }
    return .skipChildren
  }

  /// Enums whose cases carry no payload, by name: their cases (a case is its name as a string
  /// in the scenario: `.refresh` is `"refresh"`).
  var enums: [String: [String]] = [:]
  /// Every enum of the file (a case without payload of any is its name: `State.failed`).
  var enumNames: Set<String> = []

  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    let cases = node.memberBlock.members.compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }.flatMap(\.elements)
    enumNames.insert(node.name.text)
    if !cases.isEmpty, cases.allSatisfy({ $0.parameterClause == nil }) {
      enums[node.name.text] = cases.map(\.name.text)
    }
    return .skipChildren
  }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    var fields: [(name: String, type: String)] = []
    for item in node.memberBlock.members {
      guard let variable = item.decl.as(VariableDeclSyntax.self) else { continue }
      for binding in variable.bindings where binding.accessorBlock == nil {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
          let type = binding.typeAnnotation?.type.trimmedDescription
        else { continue }
        fields.append((name, type))
      }
    }
    structs[node.name.text] = fields
    return .visitChildren
  }

  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    let observable = node.attributes.contains {
      $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Observable"
    }
    var decl = ViewModelDecl(name: node.name.text, node: Syntax(node))
    decl.observable = observable
    decl.isPublic = node.modifiers.contains { ["public", "open"].contains($0.name.text) }
    decl.globalActor = node.attributes.lazy.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
      .first { $0 == "MainActor" }
    for item in node.memberBlock.members {
      if let variable = item.decl.as(VariableDeclSyntax.self) {
        decl.members += Self.members(of: variable, observable: observable)
        decl.computed += Self.computed(of: variable)
        decl.statics.merge(Self.staticLiterals(of: variable)) { first, _ in first }
      } else if let initializer = item.decl.as(InitializerDeclSyntax.self), decl.initializer == nil {
        decl.initializer = initializer
        decl.parameters = initializer.signature.parameterClause.parameters.map(Self.parameter)
      } else if let function = item.decl.as(FunctionDeclSyntax.self) {
        decl.methods.append(function)
      } else if let nested = item.decl.as(EnumDeclSyntax.self) {
        _ = visit(nested)  // `enum Action { case refresh }` inside the view model
      }
    }
    viewModels.append(decl)
    return .skipChildren
  }

  static func parameter(_ node: FunctionParameterSyntax) -> ViewModelDecl.Parameter {
    let label = node.firstName.text
    let name = node.secondName?.text ?? label
    var type = node.type.trimmedDescription
    if type.hasPrefix("@escaping ") { type.removeFirst("@escaping ".count) }
    return .init(label: label, name: name, type: type, defaultValue: node.defaultValue?.value, node: Syntax(node))
  }

  static func members(of variable: VariableDeclSyntax, observable: Bool) -> [ViewModelDecl.Member] {
    let attributes = variable.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
    let isVar = variable.bindingSpecifier.tokenKind == .keyword(.var)
    let modifiers = variable.modifiers.map { ($0.name.text, $0.detail?.detail.text) }
    let isPrivate = modifiers.contains { ($0.0 == "private" || $0.0 == "fileprivate") && $0.1 == nil }
    let privateSet = modifiers.contains { $0.1 == "set" }
    let isStatic = modifiers.contains { $0.0 == "static" || $0.0 == "class" }
    guard !isStatic else { return [] }
    // `@ObservationIgnored`: not observed state (a task, a continuation, a service), never a property.
    let ignored = attributes.contains("ObservationIgnored")
    var result: [ViewModelDecl.Member] = []
    for binding in variable.bindings where binding.accessorBlock == nil || observers(binding) != nil {
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
      let written = binding.typeAnnotation?.type.trimmedDescription
      let initial = binding.initializer?.value
      var kind = ViewModelDecl.Member.Kind.other
      var type = written
      if attributes.contains("Published") || (observable && isVar && !ignored) {
        kind = .published
        if type == nil, let initial { type = literalType(initial) }
      } else if let subject = subjectKind(written: written, initial: initial) {
        kind = subject.0
        type = subject.1
      } else if let written, isPublisherType(written) {
        kind = .publisher
        type = genericArguments(written).first
      }
      let settable = kind == .published ? isVar && !isPrivate && !privateSet : !isPrivate
      result.append(
        .init(
          name: name, kind: kind, type: type, initial: initial, settable: settable, node: Syntax(binding),
          didSet: observers(binding)?.first { $0.accessorSpecifier.tokenKind == .keyword(.didSet) }?.body?.statements))
    }
    return result
  }

  /// `static let pageSize = 3`, `static var pageSize: Int { 3 }`: the literal, by name.
  static func staticLiterals(of variable: VariableDeclSyntax) -> [String: ExprSyntax] {
    guard variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) else {
      return [:]
    }
    var found: [String: ExprSyntax] = [:]
    for binding in variable.bindings {
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
      var value = binding.initializer?.value
      if case .getter(let statements)? = binding.accessorBlock?.accessors, statements.count == 1,
        let only = statements.first
      {
        if case .expr(let expr) = only.item { value = expr }
        if case .stmt(let statement) = only.item { value = statement.as(ReturnStmtSyntax.self)?.expression }
      }
      if let value, ExpressionTranslator.literal(value) != nil { found[name] = value }
    }
    return found
  }

  /// The `willSet` / `didSet` observers of a stored property, or nil when the binding has none
  /// or is computed.
  static func observers(_ binding: PatternBindingSyntax) -> AccessorDeclListSyntax? {
    guard case .accessors(let list)? = binding.accessorBlock?.accessors,
      list.allSatisfy({ [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) })
    else { return nil }
    return list
  }

  /// The computed properties of an instance `var` (a getter body, or a `get` accessor).
  static func computed(of variable: VariableDeclSyntax) -> [ViewModelDecl.Computed] {
    guard !variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) else {
      return []
    }
    return variable.bindings.compactMap { binding in
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
        let block = binding.accessorBlock
      else { return nil }
      let body: CodeBlockItemListSyntax
      switch block.accessors {
      case .getter(let statements): body = statements
      case .accessors(let list):
        guard let getter = list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) }),
          let statements = getter.body?.statements
        else { return nil }
        body = statements
      }
      return .init(name: name, type: binding.typeAnnotation?.type.trimmedDescription, body: body, node: Syntax(binding))
    }
  }

  /// `PassthroughSubject<String, Never>()`, `BehaviorRelay<Bool>(value: false)` … as a kind and
  /// the element type.
  static func subjectKind(written: String?, initial: ExprSyntax?) -> (ViewModelDecl.Member.Kind, String?)? {
    let text = written ?? initial?.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription ?? ""
    let base = text.split(separator: "<").first.map(String.init) ?? text
    let element = genericArguments(text).first
    switch base {
    case "PassthroughSubject", "PublishSubject": return (.passthrough(relay: false), element)
    case "PublishRelay": return (.passthrough(relay: true), element)
    case "CurrentValueSubject", "BehaviorSubject": return (.currentValue(relay: false), element)
    case "BehaviorRelay": return (.currentValue(relay: true), element)
    case "AsyncChannel", "AsyncThrowingChannel": return (.channel, element)
    default: return nil
    }
  }

  static func isPublisherType(_ type: String) -> Bool {
    guard !type.hasSuffix(".Continuation") else { return false }
    let base = type.split(separator: "<").first.map(String.init) ?? type
    return [
      "AnyPublisher", "Published.Publisher", "Observable", "Driver", "Signal", "Single", "Maybe", "Infallible",
      "AsyncStream", "AsyncThrowingStream",
    ].contains(base)
  }

  /// `AnyPublisher<[String], Never>` → `["[String]", "Never"]` (top-level commas only).
  static func genericArguments(_ type: String) -> [String] {
    guard let open = type.firstIndex(of: "<"), type.hasSuffix(">") else { return [] }
    var depth = 0
    var current = ""
    var result: [String] = []
    for character in type[type.index(after: open)..<type.index(before: type.endIndex)] {
      switch character {
      case "<", "[", "(": depth += 1
      case ">", "]", ")": depth -= 1
      case "," where depth == 0:
        result.append(current.trimmingCharacters(in: .whitespaces))
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    result.append(current.trimmingCharacters(in: .whitespaces))
    return result
  }

  static func literalType(_ expr: ExprSyntax) -> String? {
    if expr.is(BooleanLiteralExprSyntax.self) { return "Bool" }
    if expr.is(IntegerLiteralExprSyntax.self) { return "Int" }
    if expr.is(FloatLiteralExprSyntax.self) { return "Double" }
    if expr.is(StringLiteralExprSyntax.self) { return "String" }
    return nil
  }
}

extension ServiceShape {
  /// The shape of a function returning `returnType`: `AnyPublisher<R, E>`, `Single<R>`,
  /// `Observable<R>`, or an `async` value `R`.
  static func of(returnType: String, input: String?) -> ServiceShape {
    let arguments = DeclarationReader.genericArguments(returnType)
    if let response = arguments.first {
      return ServiceShape(input: input, response: response, failure: arguments.count > 1 ? arguments[1] : nil)
    }
    return ServiceShape(input: input, response: returnType, failure: nil)
  }

  /// A function type `(String) -> AnyPublisher<User, any Error>`, `@Sendable (String) async
  /// throws -> [String]`, or nil for any other type.
  static func of(functionType written: String) -> ServiceShape? {
    var functionType = Substring(written)
    while functionType.hasPrefix("@"), let space = functionType.firstIndex(of: " ") {
      functionType = functionType[functionType.index(after: space)...]  // @escaping, @Sendable …
    }
    guard functionType.hasPrefix("(") else { return nil }
    var depth = 0
    var close: Substring.Index?
    for index in functionType.indices {
      if functionType[index] == "(" { depth += 1 }
      if functionType[index] == ")" {
        depth -= 1
        if depth == 0 {
          close = index
          break
        }
      }
    }
    guard let close else { return nil }
    let input = String(functionType[functionType.index(after: functionType.startIndex)..<close])
    var rest = functionType[functionType.index(after: close)...].drop { $0 == " " }
    var isAsync = false
    while !rest.hasPrefix("->") {
      guard let word = rest.split(separator: " ", maxSplits: 1).first,
        word == "async" || word.hasPrefix("throws") || word == "rethrows"
      else { return nil }
      if word == "async" { isAsync = true }
      rest = rest.dropFirst(word.count).drop { $0 == " " }
    }
    let result = rest.dropFirst(2).trimmingCharacters(in: .whitespaces)
    guard !result.isEmpty else { return nil }
    if isAsync {
      return ServiceShape(input: input.isEmpty ? nil : input, response: result, failure: nil, isAsync: true)
    }
    return of(returnType: result, input: input.isEmpty ? nil : input)
  }
}
