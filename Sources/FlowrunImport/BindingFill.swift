import FlowrunApp
import Foundation
import SwiftSyntax

/// What the binding test knows from the Swift source: how to make the view model (its
/// scheduler, its services as the scenario's stubs), how to drive each input and which
/// publisher answers each output. It fills `flowrun init --swift`'s skeleton.
struct BindingFill {
  let decl: ViewModelDecl
  let draft: Draft
  let library: ImportedLibrary
  let module: String?
  /// The file's protocols and their methods (`protocol SessionAPI { func login(…) }`).
  var protocols: [String: [FunctionDeclSyntax]] = [:]

  func fill() -> SwiftTestSkeleton.Fill {
    var fill = SwiftTestSkeleton.Fill()
    // An `internal` view model is visible to the test only through `@testable import`.
    if let module { fill.imports.append(decl.isPublic ? "import \(module)" : "@testable import \(module)") }
    fill.imports += library.testImports
    fill.construction = construction()
    if library.outputs == .observables, let construction = fill.construction {
      fill.imports += rxImports(for: construction)
    }
    fill.globalActor = decl.globalActor
    for service in draft.services {
      if !service.response.isEmpty { fill.serviceTypes[service.name] = Self.serviceType(service.response) }
      if library.servicesAreAsync { fill.asyncServices.insert(service.name) }
    }
    fill.outputLines = rxOutputs()
    for state in draft.states where state.isInput {
      if let driven = state.drivenBy {
        // Through the method that sends to it, or the test's subject given to `init`.
        let isVoid = state.swiftType.map(Self.isVoid) == true
        fill.inputs[state.name] = isVoid ? driven.replacingOccurrences(of: "(value)", with: "(())") : driven
        if let type = state.swiftType { fill.inputTypes[state.name] = type }
        continue
      }
      let member = String(state.name.dropFirst(3))
      // `Void` is not Decodable: such an input is driven without its value (`accept(())`).
      let value = state.swiftType.map(Self.isVoid) == true ? "()" : "value"
      switch state.kind {
      case .property:
        fill.inputs[state.name] =
          decl.member(member)?.kind == .currentValue(relay: true)
          ? "viewModel.\(member).accept(\(value))" : "viewModel.\(member) = \(value)"
      case .subject where decl.member(member)?.kind == .channel:
        // `send` suspends until a consumer takes the value: a task on the run's executor.
        fill.inputs[state.name] = "Task { await viewModel.\(member).send(\(value)) }"
      case .subject:
        let verb =
          switch decl.member(member)?.kind {
          case .passthrough(relay: true)?: "accept"
          case .currentValue(relay: false)? where library.subjectsSendWithOnNext: "onNext"
          case .passthrough(relay: false)? where library.subjectsSendWithOnNext: "onNext"
          default: "send"
          }
        fill.inputs[state.name] = "viewModel.\(member).\(verb)(\(value))"
      }
      if let type = state.swiftType { fill.inputTypes[state.name] = type }
    }
    for chain in draft.chains where chain.isCommand && chain.isAction {
      // RxSwift's Action: `execute(_:)` with the input, `()` for a CocoaAction.
      if let type = chain.inputType {
        fill.inputs[chain.name] = "_ = viewModel.\(chain.name).execute(value)"
        fill.inputTypes[chain.name] = type
      } else {
        fill.inputs[chain.name] = "_ = viewModel.\(chain.name).execute(())"
      }
    }
    for chain in draft.chains where chain.isCommand && !chain.isAction {
      guard let method = decl.methods.first(where: { $0.name.text == chain.name }) else { continue }
      let parameters = method.signature.parameterClause.parameters
      if let first = parameters.first {
        let label = first.firstName.text == "_" ? "" : "\(first.firstName.text): "
        fill.inputs[chain.name] = "viewModel.\(chain.name)(\(label)value)"
        fill.inputTypes[chain.name] = first.type.trimmedDescription
      } else {
        fill.inputs[chain.name] = "viewModel.\(chain.name)()"
      }
    }
    if decl.observable {
      // Observation: an `observed:` property of one stored property, and a computed property.
      for observed in draft.observed where observed.name.hasPrefix("observed.") {
        let member = observed.name.dropFirst("observed.".count)
        let target =
          observed.reads == ["vm.\(member)"] ? observed.name : "vm.\(member)"
        fill.outputs[target] = "of: viewModel, \\.\(member)"
      }
      return fill
    }
    if library.outputs == .asyncSequences {
      for chain in draft.chains where chain.isOutput && chain.name.hasPrefix("vm.") {
        fill.outputs[chain.name] = "viewModel.\(chain.name.dropFirst(3))"
      }
      return fill
    }
    guard library.outputs == .publishers else { return fill }
    for state in draft.states where state.isOutput {
      let member = state.name.dropFirst(3)
      // A subject is its own publisher; a `@Published` property's is `$name`.
      let isSubject = decl.member(String(member)).map { $0.kind != .published } ?? false
      fill.outputs[state.name] = isSubject ? "viewModel.\(member)" : "viewModel.$\(member)"
    }
    for chain in draft.chains where chain.isOutput && chain.name.hasPrefix("vm.") {
      fill.outputs[chain.name] = "viewModel.\(chain.name.dropFirst(3))"
    }
    return fill
  }

  /// RxSwift outputs, by expectation: a `flow.output` that the view model's observable sends
  /// to (`subscribe(onNext:)` through `asObservable()`, which relays, Drivers and Signals have).
  /// The skeleton writes them instead of a `flow.observe`, which expects a Publisher.
  func rxOutputs() -> [String: [String]] {
    guard library.outputs == .observables else { return [:] }
    var outputs: [(name: String, member: String, type: String?)] = []
    for state in draft.states where state.isOutput {
      let member = String(state.name.dropFirst(3))
      outputs.append((state.name, member, state.swiftType))
    }
    for chain in draft.chains where chain.isOutput && chain.name.hasPrefix("vm.") {
      let member = String(chain.name.dropFirst(3))
      guard decl.member(member) != nil else { continue }
      outputs.append((chain.name, member, decl.member(member)?.type))
    }
    var lines: [String: [String]] = [:]
    for output in outputs {
      let name = output.member + "Output"
      lines[output.name] = [
        "let \(name) = flow.output(\"\(output.name)\", as: \(output.type ?? "<#Type#>").self)",
        "_ = viewModel.\(output.member).asObservable().subscribe(onNext: { \(name).send($0) })",
      ]
    }
    return lines
  }

  /// `let viewModel = SearchViewModel(scheduler: flow.scheduler, search: { … })`.
  func construction() -> String {
    var arguments: [String] = []
    var declarations: [String] = []
    let services = Set(draft.services.map(\.name))
    for parameter in decl.parameters where parameter.defaultValue == nil || services.contains(parameter.name) {
      let label = parameter.label == "_" ? "" : "\(parameter.label): "
      if library.outputs == .observables, parameter.type.contains("Scheduler") || parameter.name == "scheduler" {
        // RxSwift's scheduler over flow.scheduler: testing-real-code.md, "Binding RxSwift code".
        arguments.append(label + (makesDrivers ? "scheduler" : "FlowRxScheduler(flow: flow.scheduler)"))
      } else if library.outputs == .observables, let provider = moyaProvider(for: parameter) {
        declarations += provider
        arguments.append(label + parameter.name)
      } else if parameter.type.contains("Scheduler") || parameter.name == "scheduler"
        || genericParameters(conformingTo: "Scheduler").contains(parameter.type)
      {
        arguments.append(label + "flow.scheduler")
      } else if parameter.type.contains("Clock") || parameter.name == "clock"
        || genericParameters(conformingTo: "Clock").contains(parameter.type)
      {
        arguments.append(label + "flow.clock")
      } else if let input = publisherInput(parameter) {
        declarations.append(input.declaration)
        arguments.append(label + input.argument)
      } else if let stub = protocolStub(for: parameter) {
        declarations += stub.declaration
        arguments.append(label + stub.value)
      } else if let service = draft.services.first(where: { $0.name == parameter.name }),
        let shape = ServiceShape.of(functionType: parameter.type)
      {
        arguments.append(
          label
            + (shape.isAsync
              ? asyncStub(service.name, shape: shape) : stub(service.name, shape: shape, type: parameter.type)))
      } else if let shape = ServiceShape.of(functionType: parameter.type), Self.isVoid(shape.response),
        !shape.isAsync, shape.failure == nil
      {
        // A callback the view model calls (`log: (String) -> Void`): one that does nothing.
        let count = shape.input.map { DeclarationReader.genericArguments("T<\($0)>").count } ?? 0
        arguments.append(
          label + (count == 0 ? "{}" : "{ \(Array(repeating: "_", count: count).joined(separator: ", ")) in }"))
      } else if ["String", "Int", "Bool", "Double"].contains(parameter.type) {
        arguments.append(label + fallback(parameter.type))  // a plain value: any will do
      } else {
        arguments.append(label + "<#\(parameter.name)#>")
      }
    }
    let made = "\(decl.name)(\(arguments.joined(separator: ", ")))"
    guard library.outputs == .observables, makesDrivers else {
      return (declarations + ["let viewModel = \(made)"]).joined(separator: "\n    ")
    }
    return (declarations + sharingScheduler(making: made)).joined(separator: "\n    ")
  }

  /// The generic parameters of the view model that are schedulers (`<S: Scheduler>`) or clocks
  /// (`<C: Clock>`).
  func genericParameters(conformingTo protocolName: String) -> Set<String> {
    guard let clause = decl.node.as(ClassDeclSyntax.self)?.genericParameterClause else { return [] }
    return Set(
      clause.parameters.filter { $0.inheritedType?.trimmedDescription.contains(protocolName) == true }.map(\.name.text))
  }

  /// The scenario's service as the view model's `async` function: `{ try await search($0) }`
  /// (`flow.asyncService`).
  func asyncStub(_ name: String, shape: ServiceShape) -> String {
    shape.input == nil ? "{ try await \(name)() }" : "{ try await \(name)($0) }"
  }

  /// The scenario's stub as the view model's function: `{ search($0).replaceError(with: []) … }`;
  /// RxSwift's `{ send($0).asObservable().asSingle() }` (`asObservable()` of the test's RxSwift
  /// helpers, then the function's trait).
  func stub(_ name: String, shape: ServiceShape, type: String = "") -> String {
    let call = shape.input == nil ? "\(name)()" : "\(name)($0)"
    if library.outputs == .observables {
      let returned = type.components(separatedBy: "->").last?.trimmingCharacters(in: .whitespaces) ?? ""
      let trait =
        returned.hasPrefix("Single<") ? ".asSingle()" : returned.hasPrefix("Maybe<") ? ".asMaybe()" : ""
      let void = Self.isVoid(shape.response) ? ".map { _ in }" : ""
      return "{ \(call).asObservable()\(void)\(trait) }"
    }
    return "{ " + publisher(call, shape: shape) + " }"
  }

  /// The scenario's publisher `call` as the code's: `search($0).replaceError(with: []) …`.
  func publisher(_ call: String, shape: ServiceShape) -> String {
    // A `Void` answer: the service's `FlowVoid` mapped to `()`.
    let call = Self.isVoid(shape.response) ? call + ".map { _ in }" : call
    switch shape.failure?.replacingOccurrences(of: " ", with: "") {
    case "Never"?:
      return "\(call).replaceError(with: \(fallback(shape.response))).eraseToAnyPublisher()"
    case "anyError"?, "Error"?:
      return "\(call).mapError { $0 as any Error }.eraseToAnyPublisher()"
    default:
      return "\(call).mapError { _ in <#\(shape.failure ?? "Failure")#> }.eraseToAnyPublisher()"
    }
  }

  /// A value of `type` for a `Never`-failing stub to answer a failure with.
  func fallback(_ type: String) -> String {
    if type.hasPrefix("[") { return type.contains(":") ? "[:]" : "[]" }
    if type.hasSuffix("?") { return "nil" }
    switch type {
    case "String": return "\"\""
    case "Int", "Double": return "0"
    case "Bool": return "false"
    case "Void", "()": return "()"
    default: return "<#\(type)#>"
    }
  }
}
