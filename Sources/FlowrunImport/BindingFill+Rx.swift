import SwiftSyntax

/// The parts of an RxSwift binding test that RxSwift's own types ask for: a Moya provider
/// answered by the scenario's services, Drivers made on the run's scheduler, and `Void`
/// answers and inputs (testing-real-code.md, "Binding RxSwift code").
extension BindingFill {
  /// `Void` or `()`: a type without a value, which is not `Decodable`.
  static func isVoid(_ type: String) -> Bool {
    ["Void", "()"].contains(type.filter { $0 != " " })
  }

  /// The Swift type the test takes a service's answers as: `FlowVoid` for `Void`.
  static func serviceType(_ response: String) -> String {
    isVoid(response) ? "FlowVoid" : response
  }

  /// Whether the view model makes Drivers or Signals: RxCocoa makes them observe on
  /// `SharingScheduler.make()`, the main queue unless a test mocks it, so the test makes the
  /// view model with the run's scheduler as the sharing scheduler.
  var makesDrivers: Bool {
    let members = decl.members.compactMap(\.type)
    if members.contains(where: { $0.hasPrefix("Driver<") || $0.hasPrefix("Signal<") }) { return true }
    let text = decl.node.description
    return text.contains(".asDriver(") || text.contains(".asSignal(")
  }

  /// `let scheduler = FlowRxScheduler(…)` and the view model made under
  /// `SharingScheduler.mock(scheduler:)` (`withSharingScheduler`, of the test's RxSwift helpers).
  func sharingScheduler(making made: String) -> [String] {
    [
      "// Drivers observe on the sharing scheduler taken when they are made: the run's, not the main queue.",
      "let scheduler = FlowRxScheduler(flow: flow.scheduler)",
      "let viewModel = withSharingScheduler(scheduler) { \(made) }",
    ]
  }

  /// A `MoyaProvider<Target>` parameter whose requests are services of the draft
  /// (`provider.login` for `provider.rx.request(.login(password))`): a provider answered by
  /// them (`MoyaProvider.answered`, of the test's RxSwift helpers). Nil for another parameter,
  /// or when the chains request nothing through it.
  func moyaProvider(for parameter: ViewModelDecl.Parameter) -> [String]? {
    guard parameter.type.hasPrefix("MoyaProvider<") else { return nil }
    let services = draft.services.filter { $0.name.hasPrefix(parameter.name + ".") && $0.moyaCase != nil }
    guard !services.isEmpty else { return nil }
    var lines = [
      "// Each request waits for its service in virtual time; Moya's immediate stub answers with it.",
      "let \(parameter.name) = \(parameter.type).answered { target in",
    ]
    for service in services {
      guard let (name, arity) = service.moyaCase else { continue }
      let values = (0..<arity).map { $0 == 0 ? "value" : "value\($0 + 1)" }
      let pattern = values.isEmpty ? "" : "(" + values.map { "let " + $0 }.joined(separator: ", ") + ")"
      let request =
        switch values.count {
        case 0: ""
        case 1: values[0]
        default: "[" + values.joined(separator: ", ") + "]"
        }
      lines.append(
        "  if case .\(name)\(pattern) = target { return \(Self.identifier(service.name))(\(request)).json() }")
    }
    lines += ["  return nil", "}"]
    return lines
  }

  /// The imports the test's RxSwift construction needs beside the view model's module: RxSwift
  /// for its helpers (a protocol stub's `Single`, the sharing scheduler), Moya for the provider.
  func rxImports(for construction: String) -> [String] {
    var modules: [String] = []
    if ["asObservable()", "withSharingScheduler", ".answered"].contains(where: construction.contains) {
      modules.append("import RxSwift")
    }
    if construction.contains(".answered") { modules.append("import Moya") }
    return modules
  }
}

extension BindingFill {
  /// A publisher, observable or `Driver` parameter of `init` (an input of the scenario,
  /// `init.name`): the test's own subject, and what `init` is given of it
  /// (`username.asDriver(onErrorJustReturn: "")`, `unreadCount.eraseToAnyPublisher()`).
  func publisherInput(_ parameter: ViewModelDecl.Parameter) -> (declaration: String, argument: String)? {
    guard draft.states.contains(where: { $0.name == "init.\(parameter.name)" }) else { return nil }
    let base = parameter.type.split(separator: "<").first.map(String.init) ?? parameter.type
    let element = DeclarationReader.genericArguments(parameter.type).first ?? "<#Element#>"
    let name = parameter.name
    switch library {
    case .rxswift:
      let declaration = "let \(name) = PublishRelay<\(element)>()"
      switch base {
      case "Driver": return (declaration, "\(name).asDriver(onErrorJustReturn: \(fallback(element)))")
      case "Signal": return (declaration, "\(name).asSignal(onErrorJustReturn: \(fallback(element)))")
      default: return (declaration, "\(name).asObservable()")
      }
    case .combine:
      let failure = DeclarationReader.genericArguments(parameter.type).dropFirst().first ?? "Never"
      return ("let \(name) = PassthroughSubject<\(element), \(failure)>()", "\(name).eraseToAnyPublisher()")
    case .async:
      return nil
    }
  }
}
