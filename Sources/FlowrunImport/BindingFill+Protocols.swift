import SwiftSyntax

extension BindingFill {
  /// A protocol-typed service (`init(api: SessionAPI)`) whose methods the chains all call
  /// (`api.login`, `api.logout`): a conforming struct of the test that answers each method with
  /// the scenario's service, and the value to pass (`StubSessionAPI(apilogin: apilogin, …)`).
  /// Nil when the type is no protocol of the file, or a method of it is no service of the draft
  /// (the parameter stays a placeholder).
  func protocolStub(for parameter: ViewModelDecl.Parameter) -> (declaration: [String], value: String)? {
    var type = parameter.type
    for prefix in ["any ", "some "] where type.hasPrefix(prefix) { type.removeFirst(prefix.count) }
    guard let methods = protocols[type], !methods.isEmpty else { return nil }
    var fields: [String] = []
    var bodies: [String] = []
    for method in methods {
      let name = "\(parameter.name).\(method.name.text)"
      guard let service = draft.services.first(where: { $0.name == name }),
        let body = stubBody(method, service: Self.identifier(name), shape: service.shape)
      else { return nil }
      let field = Self.identifier(name)
      let kind = library.servicesAreAsync ? "AsyncFlowService" : "FlowService"
      fields.append("  let \(field): \(kind)<\(Self.serviceType(service.response))>")
      bodies += ["  \(signature(of: method)) {"] + body.map { "    " + $0 } + ["  }"]
    }
    let stubName = "Stub" + type
    let declaration = ["struct \(stubName): \(type) {"] + fields + bodies + ["}"]
    let arguments = fields.map { $0.split(separator: " ")[1].dropLast() }.map { "\($0): \($0)" }
    return (declaration, "\(stubName)(\(arguments.joined(separator: ", ")))")
  }

  /// `func login(_ password: String) -> Single<String>`, each parameter named (`_: String` is
  /// `_ value: String`).
  func signature(of method: FunctionDeclSyntax) -> String {
    let parameters = method.signature.parameterClause.parameters.enumerated().map { index, parameter in
      let inner = parameter.secondName?.text ?? parameter.firstName.text
      let name = inner == "_" ? "value\(index == 0 ? "" : "\(index + 1)")" : inner
      let outer = parameter.secondName == nil && inner != "_" ? "" : parameter.firstName.text + " "
      return "\(outer)\(name): \(parameter.type.trimmedDescription)"
    }
    let effects = method.signature.effectSpecifiers.map { " " + $0.trimmedDescription } ?? ""
    let returned = method.signature.returnClause.map { " " + $0.trimmedDescription } ?? ""
    return "func \(method.name.text)(\(parameters.joined(separator: ", ")))\(effects)\(returned)"
  }

  /// The statements of a stub method: the scenario's service called with the method's
  /// parameters (one as the request, several as a list), its answer in the method's type.
  func stubBody(_ method: FunctionDeclSyntax, service: String, shape: ServiceShape?) -> [String]? {
    guard let shape else { return nil }
    let names = method.signature.parameterClause.parameters.enumerated().map { index, parameter in
      let inner = parameter.secondName?.text ?? parameter.firstName.text
      return inner == "_" ? "value\(index == 0 ? "" : "\(index + 1)")" : inner
    }
    let request =
      switch names.count {
      case 0: ""
      case 1: names[0]
      default: "[" + names.joined(separator: ", ") + "]"
      }
    let call = "\(service)(\(request))"
    let returned = method.signature.returnClause?.type.trimmedDescription ?? "Void"
    switch library {
    case .async:
      guard shape.isAsync else { return nil }
      let throwing = method.signature.effectSpecifiers?.throwsClause != nil
      if Self.isVoid(returned) { return [throwing ? "_ = try await \(call)" : "_ = try? await \(call)"] }
      if throwing { return ["try await \(call)"] }
      return ["(try? await \(call)) ?? \(fallback(returned))"]
    case .combine:
      guard returned.hasPrefix("AnyPublisher<") else { return nil }
      return [publisher(call, shape: shape)]
    case .rxswift:
      // The scenario's publisher as an observable (`asObservable()`, of the test's RxSwift
      // helpers), then the method's trait.
      let trait =
        if returned.hasPrefix("Single<") {
          ".asSingle()"
        } else if returned.hasPrefix("Maybe<") {
          ".asMaybe()"
        } else if returned.hasPrefix("Observable<") {
          ""
        } else {
          String?.none
        }
      guard let trait else { return nil }
      // A `Void` answer: the service's `FlowVoid` mapped to `()`.
      let void = Self.isVoid(shape.response) ? ".map { _ in }" : ""
      return ["\(call).asObservable()\(void)\(trait)"]
    }
  }

  /// The test's name of a service (`api.login` → `apilogin`), as the skeleton names it.
  static func identifier(_ name: String) -> String {
    String(name.filter { $0.isLetter || $0.isNumber || $0 == "_" })
  }
}
