import FlowrunApp
public import FlowrunDiagnostics
import FlowrunScenario
import Foundation
import SwiftSyntax

/// `flowrun-import`: a view model's Swift source drafted as a scenario and its binding test
/// (docs/import.md).
public enum SwiftImporter {
  /// What an import made.
  public struct Result: Sendable {
    /// The scenario YAML.
    public var scenario: String
    /// The Swift Testing file that checks the code against the scenario, when the draft loads.
    public var test: String?
    /// The parser's errors, the calls the draft cannot read, the schedulers that stop virtual
    /// time, and the draft's own load diagnostics, in that order.
    public var diagnostics: [Diagnostic]
    /// One line per chain: its name, where it is, and how many of its calls were read.
    public var summary: [String]
    /// Calls read and calls in all, over every chain.
    public var recognised: Int
    public var total: Int
  }

  /// Drafts the first view model of the Swift file at `path` (text `source`), as the scenario
  /// file `scenarioPath` that the test names relative to its package (`testPath`). `neighbours`
  /// are the sources of the module's other files: their structs give sample values of the
  /// models the services answer (`User` of another file), their protocols the services' stubs.
  public static func draft(
    path: String, source: String, scenarioPath: String, testPath: String? = nil, module: String? = nil,
    neighbours: [String] = []
  ) -> Result {
    let file = SwiftFile(path: path, source: source)
    var diagnostics = file.parseErrors()
    let declarations = DeclarationReader()
    declarations.walk(file.tree)
    for neighbour in neighbours {
      let other = DeclarationReader()
      other.walk(SwiftFile(path: "", source: neighbour).tree)
      declarations.structs.merge(other.structs) { own, _ in own }
      // A service's protocol declared in another file of the folder: its stub in the test.
      declarations.protocols.merge(other.protocols) { own, _ in own }
      declarations.protocolMethods.merge(other.protocolMethods) { own, _ in own }
      declarations.enums.merge(other.enums) { own, _ in own }
      declarations.enumNames.formUnion(other.enumNames)
    }
    let library = ImportedLibrary.of(imports: declarations.imports)
    let candidates = declarations.viewModels.filter { model in
      model.members.contains { $0.kind != .other } || model.name.hasSuffix("ViewModel")
    }
    guard let decl = candidates.first else {
      let message = "no view model in this file (a class with @Published properties, subjects or relays)"
      diagnostics.append(Diagnostic(path: path, location: nil, message: message))
      return Result(scenario: "", test: nil, diagnostics: diagnostics, summary: [], recognised: 0, total: 0)
    }
    var reader = ChainReader(file: file, decl: decl, library: library, declarations: declarations)
    reader.draft.states = states(of: decl, file: file) + parameterInputs(of: decl, file: file, library: library)
    reader.readAll()
    for member in reader.assignedMembers {
      if let index = reader.draft.states.firstIndex(where: { $0.name == "vm.\(member)" }),
        case .subject(let value) = reader.draft.states[index].kind,
        decl.member(member)?.kind == .currentValue(relay: false),
        value.hasPrefix("{ behavior: ")
      {
        // A CurrentValueSubject a chain sends to (`sink { self?.project.send($0) }`): a
        // property with its current value, which the chain assigns.
        let initial = String(value.dropFirst("{ behavior: ".count).dropLast(2))
        reader.draft.states[index].kind = .property(initial: initial)
      }
      if let index = reader.draft.states.firstIndex(where: { $0.name == "vm.\(member)" }) {
        // A property the view sets and only an effect resets (a text field cleared after a
        // send) stays an input; one a chain binds is the chain's.
        let bound = reader.draft.chains.contains { chain in
          chain.steps.contains { ["assign", "bind"].contains($0.key) && $0.value?.contains("vm.\(member)") == true }
        }
        let reset = reader.draft.effects.contains { $0.action.hasPrefix("set: { vm.\(member): ") }
        let settable = decl.member(member)?.settable == true && !decl.observable && library.viewSetsRelays && reset
        // An input is not expected: the binding test drives it (an expected property is the
        // code's to answer).
        reader.draft.states[index].isInput = settable && !bound && reader.draft.states[index].isInput
        reader.draft.states[index].isOutput = !reader.draft.states[index].isInput
      }
    }
    // An input nobody reads is still an input; a subject a chain feeds is not.
    var draft = reader.draft
    var writer = DraftWriter(draft: draft, structs: declarations.structs, enums: declarations.enums)
    var scenario = writer.text()
    var loaded = ScenarioLoader.load(path: scenarioPath, bytes: Array(scenario.utf8))
    // The last resort: a chain whose steps do not load is written as a placeholder that does
    // (its calls listed as not read), one chain at a time, until the draft loads.
    var degraded: Set<String> = []
    while loaded.hasErrors, let index = failingChain(in: draft, text: scenario, loaded: loaded),
      !degraded.contains(draft.chains[index].name)
    {
      let message = loaded.diagnostics.first { $0.severity == .error }?.message ?? ""
      degraded.insert(draft.chains[index].name)
      draft.chains[index].placeholder(because: message)
      let line = draft.chains[index].origin.split(separator: " ").first?.split(separator: ":").last.flatMap { Int($0) }
      reader.diagnostics.append(
        Diagnostic(
          severity: .warning, path: path, location: line.map { SourceLocation(line: $0, column: 1, offset: 0) },
          message: Diagnostic.Message.placeholderChain(draft.chains[index].name, message).text))
      writer = DraftWriter(draft: draft, structs: declarations.structs, enums: declarations.enums)
      scenario = writer.text()
      loaded = ScenarioLoader.load(path: scenarioPath, bytes: Array(scenario.utf8))
    }
    diagnostics += reader.diagnostics
    diagnostics += concreteSchedulers(of: decl, file: file)
    var summary = draft.chains.map { chain in
      "\(chain.isCommand ? "command" : "signal") \(chain.name): " + writer.summary(chain)
    }
    summary += writer.outsideSummary()
    let recognised = draft.chains.reduce(0) { $0 + $1.recognised.count } + draft.readOutside.count
    let total =
      draft.chains.reduce(0) { $0 + $1.recognised.count + $1.unrecognised.count } + draft.readOutside.count
      + draft.unread.count
    diagnostics += loaded.diagnostics
    var test: String?
    if !loaded.hasErrors, !loaded.scenarios.isEmpty {
      let fill = BindingFill(
        decl: decl, draft: draft, library: library, module: module, protocols: declarations.protocols
      ).fill()
      test = SwiftTestSkeleton.text(file: loaded, path: testPath ?? scenarioPath, fill: fill)
    }
    return Result(
      scenario: scenario, test: test, diagnostics: diagnostics, summary: summary, recognised: recognised, total: total)
  }

  /// The chain (signal or command) whose lines hold the draft's first load error, if any.
  static func failingChain(in draft: Draft, text: String, loaded: LoadedFile) -> Int? {
    guard let line = loaded.diagnostics.first(where: { $0.severity == .error })?.location?.line else { return nil }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var number = min(line, lines.count) - 1
    while number >= 0 {
      let text = lines[number]
      if text.hasPrefix("  "), let third = text.dropFirst(2).first, third != " ", third != "-",
        let colon = text.firstIndex(of: ":")
      {
        let name = String(text[text.index(text.startIndex, offsetBy: 2)..<colon])
        return draft.chains.firstIndex { $0.name == name }
      }
      if let first = text.first, first != " ", first != "#" { return nil }
      number -= 1
    }
    return nil
  }

  /// The placeholders of a scenario file: `<#…#>` in its text (in comments, where the draft put
  /// them), each a warning at its place for `flowrun check`.
  static func states(of decl: ViewModelDecl, file: SwiftFile) -> [Draft.State] {
    decl.members.compactMap { member -> Draft.State? in
      let origin = file.cite(member.node)
      let initial = member.initial.flatMap(yamlLiteral) ?? "~"
      switch member.kind {
      case .published:
        return Draft.State(
          name: "vm.\(member.name)", kind: .property(initial: initial), swiftType: member.type,
          isInput: member.settable, isOutput: false, origin: origin + (decl.observable ? " @Observable" : " @Published")
        )
      case .passthrough(let relay):
        return Draft.State(
          name: "vm.\(member.name)", kind: .subject(relay ? "{ relay: publish }" : "{}"), swiftType: member.type,
          isInput: true, isOutput: false, origin: origin)
      case .currentValue(let relay):
        let value =
          member.initial?.as(FunctionCallExprSyntax.self)?.arguments.first.flatMap { yamlLiteral($0.expression) } ?? "~"
        if relay {
          return Draft.State(
            name: "vm.\(member.name)", kind: .property(initial: value), swiftType: member.type, isInput: true,
            isOutput: false, origin: origin + " BehaviorRelay")
        }
        return Draft.State(
          name: "vm.\(member.name)", kind: .subject("{ behavior: \(value) }"), swiftType: member.type, isInput: true,
          isOutput: false, origin: origin)
      case .channel:
        return Draft.State(
          name: "vm.\(member.name)", kind: .subject("{ channel: true }"), swiftType: member.type, isInput: true,
          isOutput: false, origin: origin + " AsyncChannel")
      case .publisher, .other:
        return nil
      }
    }
  }

  /// `init` parameters typed by a concrete real-time scheduler (`AnySchedulerOf<DispatchQueue>`,
  /// `DispatchQueue`, `RunLoop`, `OperationQueue`): the test's virtual-time `flow.scheduler` is
  /// none of these, so the drafted test cannot pass it as it stands; a warning at the parameter
  /// says the change (the initializer generic over `S: Scheduler`).
  static func concreteSchedulers(of decl: ViewModelDecl, file: SwiftFile) -> [Diagnostic] {
    decl.parameters.compactMap { parameter in
      let type = parameter.type.replacingOccurrences(of: " ", with: "")
      let concrete =
        ["DispatchQueue", "RunLoop", "OperationQueue"].contains(type)
        || (type.hasPrefix("AnySchedulerOf<")
          && ["DispatchQueue>", "RunLoop>", "OperationQueue>"].contains { type.hasSuffix($0) })
      guard concrete else { return nil }
      return file.diagnostic(
        .warning, Diagnostic.Message.concreteScheduler(parameter.name, parameter.type).text, at: parameter.node)
    }
  }

  /// The publisher, observable and `Driver` parameters of `init` (`init(username:
  /// Driver<String>)`): inputs of the scenario (`init.username`, a subject), which the binding
  /// test gives `init` as its own subject and drives.
  static func parameterInputs(of decl: ViewModelDecl, file: SwiftFile, library: ImportedLibrary) -> [Draft.State] {
    guard library.initPublishersAreInputs else { return [] }
    return decl.parameters.compactMap { parameter in
      guard DeclarationReader.isPublisherType(parameter.type) else { return nil }
      let verb = library.testSubjectVerb
      var state = Draft.State(
        name: "init.\(parameter.name)", kind: .subject("{}"),
        swiftType: DeclarationReader.genericArguments(parameter.type).first, isInput: true, isOutput: false,
        origin: file.cite(parameter.node) + " init parameter")
      state.drivenBy = "\(parameter.name).\(verb)(value)"
      return state
    }
  }

  static func yamlLiteral(_ expr: ExprSyntax) -> String? {
    if let literal = ExpressionTranslator.literal(expr) { return literal == "nil" ? "~" : literal }
    if let string = expr.as(StringLiteralExprSyntax.self), string.segments.count <= 1 {
      return "\"\(string.segments.trimmedDescription)\""
    }
    if let array = expr.as(ArrayExprSyntax.self), array.elements.isEmpty { return "[]" }
    if let access = expr.as(MemberAccessExprSyntax.self), access.base == nil {
      return "\"\(access.declName.baseName.text)\""  // an enum case (`.all`): its name
    }
    return nil
  }
}

extension Diagnostic.Message {
  static func concreteScheduler(_ name: String, _ type: String) -> Self {
    Self(
      "'\(name): \(type)' is a real-time scheduler type, and the test passes the virtual-time "
        + "flow.scheduler: make the initializer generic ('<S: Scheduler>(…, \(name): S)') so that the drafted "
        + "test compiles")
  }

  static func placeholderChain(_ name: String, _ reason: String) -> Self {
    Self("the steps drafted for '\(name)' did not load (\(reason)): written as a placeholder to fill in")
  }
}
