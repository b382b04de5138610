import FlowrunCore
import FlowrunDiagnostics
public import FlowrunScenario

/// `flowrun init --swift FILE`: the skeleton of a Swift test that checks real code against the
/// scenarios of a file with `FlowrunTesting` (docs/testing-real-code.md): one `drive` per input,
/// one `observe` per expectation, one `service` per service, with `<#placeholders#>` (which
/// Xcode steps through and the compiler refuses) where only the code's author knows the name.
public enum SwiftTestSkeleton {
  /// Why a file has no skeleton: its diagnostics, rendered.
  public struct Problems: Error {
    public let text: String
  }

  /// The test file for the scenario file at `path`, or its load diagnostics.
  public static func text(ofFileAt path: String) -> Result<String, Problems> {
    let loaded = ScenarioLoader.load(path: path)
    guard !loaded.hasErrors, !loaded.scenarios.isEmpty else {
      let text = loaded.diagnostics.map { $0.rendered + "\n" }.joined()
      return .failure(Problems(text: text.isEmpty ? "\(path): error: no scenario to bind\n" : text))
    }
    return .success(self.text(file: loaded, path: path))
  }

  /// What a caller knows of the code (`flowrun-import` read it): the lines that replace the
  /// placeholders. Each is optional; what is missing stays a placeholder.
  public struct Fill: Sendable {
    /// `let viewModel = LoginViewModel(…)`, written after the services.
    public var construction: String?
    /// The response type of each service (`[String]`).
    public var serviceTypes: [String: String] = [:]
    /// The statement that drives each input with `value` (`viewModel.account = value`; a
    /// subject's `viewModel.taps.send(value)`).
    public var inputs: [String: String] = [:]
    /// The Swift type of each input's value.
    public var inputTypes: [String: String] = [:]
    /// The services the view model awaits (`async` functions): `flow.asyncService`, not
    /// `flow.service`.
    public var asyncServices: Set<String> = []
    /// The publisher of each output (`viewModel.$isLoginEnabled`).
    public var outputs: [String: String] = [:]
    /// Outputs observed by statements of their own instead of one `flow.observe` (an RxSwift
    /// observable sending to a `flow.output`): the lines, indented as the test's body.
    public var outputLines: [String: [String]] = [:]
    /// Lines before the tests (imports of the code's modules).
    public var imports: [String] = []
    /// The global actor the view model is isolated to (`MainActor`): each test runs on it, so
    /// the binding closure may make the view model and touch its properties.
    public var globalActor: String?

    public init() {}
  }

  /// The test file for the scenarios of `file`, read from `path` as the test will name it.
  public static func text(file: LoadedFile, path: String, fill: Fill? = nil) -> String {
    // Written line by line: a source line that reads `import …` would count as an import of
    // this module (PackageManifestTests).
    var out =
      [
        "// Checks the code against \(path)",
        "// (made by `flowrun init --swift`): fill in the <#placeholders#>; delete an `observe` to",
        "// let the scenario's own model answer that expectation. The path is relative to the",
        "// package of this file (root: #filePath).",
        "import FlowrunTesting",
        "import Testing",
      ].joined(separator: "\n") + "\n"
    if let fill, !fill.imports.isEmpty { out += fill.imports.joined(separator: "\n") + "\n" }
    for scenario in file.scenarios {
      out += "\n" + test(scenario, path: path, named: file.scenarios.count > 1, fill: fill)
    }
    return out
  }

  static func test(_ scenario: Scenario, path: String, named: Bool, fill: Fill? = nil) -> String {
    let outline = scenario.bindingOutline
    var lines: [String] = []
    let isolation = fill?.globalActor.map { "@\($0) " } ?? ""
    lines.append("\(isolation)@Test func \(functionName(scenario.name))() throws {")
    if named {
      lines.append("  try ScenarioCheck.run(")
      lines.append("    \(Value.quoted(path)), root: #filePath,")
      lines.append("    scenario: \(Value.quoted(scenario.name))")
      lines.append("  ) { flow in")
    } else {
      lines.append("  try ScenarioCheck.run(\(Value.quoted(path)), root: #filePath) { flow in")
    }
    if fill?.construction == nil { lines.append("    let viewModel = <#ViewModel#>(scheduler: flow.scheduler)") }
    for service in outline.services {
      let type = fill?.serviceTypes[service] ?? "<#Response#>"
      let function = fill?.asyncServices.contains(service) == true ? "asyncService" : "service"
      lines.append(
        "    let \(identifier(service)) = flow.\(function)(\(Value.quoted(service)), returning: \(type).self)"
          + (fill?.construction == nil ? "  // pass to the view model" : ""))
    }
    if let construction = fill?.construction { lines.append("    " + construction) }
    for input in outline.inputs {
      let member = memberName(input.name)
      let type = fill?.inputTypes[input.name] ?? swiftType(input.values)
      let name = Value.quoted(input.name)
      if let statement = fill?.inputs[input.name] {
        let parameter = statement.contains("value") ? "(value: \(type)) in " : ""
        lines.append("    flow.drive(\(name)) { \(parameter)\(statement) }")
        continue
      }
      switch input.kind {
      case .command:
        if input.values.isEmpty {
          lines.append("    flow.drive(\(name)) { viewModel.<#\(member)#>() }")
        } else {
          lines.append("    flow.drive(\(name)) { (input: \(type)) in viewModel.<#\(member)#>(input) }")
        }
      case .subject:
        // A subject of the code is sent into (a `PassthroughSubject`, a relay's `accept`).
        lines.append("    flow.drive(\(name)) { (value: \(type)) in viewModel.<#\(member)#>.send(value) }")
      case .property, .signal:
        lines.append("    flow.drive(\(name)) { (value: \(type)) in viewModel.<#\(member)#> = value }")
      }
    }
    for output in outline.outputs {
      let member = memberName(output.target)
      switch output.kind {
      case .events:
        if let statements = fill?.outputLines[output.target] {
          lines += statements.map { "    " + $0 }
          continue
        }
        if let publisher = fill?.outputs[output.target] {
          lines.append("    flow.observe(\(Value.quoted(output.target)), \(publisher))")
          continue
        }
        let type = swiftType(output.values)
        lines.append(
          "    flow.observe(\(Value.quoted(output.target)), viewModel.<#$\(member)#>)  // a Publisher of \(type)")
      case .calls(let service):
        lines.append("    // \(output.target): the requests the code makes through `\(identifier(service))`")
      case .subscriptions:
        lines.append("    // \(output.target): a subscription log of the declared graph; the model answers it")
      }
    }
    lines.append("  }")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The Swift type of the values a scenario sends: `String`, `Int`, `Double`, `Bool`, an
  /// array of one of them, optional when one is nil; a placeholder for a map (a model of the
  /// code's) or when the file does not say.
  static func swiftType(_ values: [Value]) -> String {
    let present = values.filter { !$0.isNull }
    let optional = present.count < values.count
    let base: String
    if present.isEmpty {
      base = "<#Type#>"
    } else if present.allSatisfy({ if case .string = $0 { true } else { false } }) {
      base = "String"
    } else if present.allSatisfy({ if case .bool = $0 { true } else { false } }) {
      base = "Bool"
    } else if present.allSatisfy({ if case .int = $0 { true } else { false } }) {
      base = "Int"
    } else if present.allSatisfy({
      switch $0 {
      case .int, .double: true
      default: false
      }
    }) {
      base = "Double"
    } else if present.allSatisfy({ if case .list = $0 { true } else { false } }) {
      let items = present.flatMap { value -> [Value] in
        guard case .list(let items) = value else { return [] }
        return items
      }
      base = "[\(swiftType(items))]"
    } else {
      base = "<#Model#>"
    }
    return optional && !present.isEmpty ? base + "?" : base
  }

  /// `Login button enables once both fields have text` → `loginButtonEnablesOnceBothFieldsHaveText`
  /// (the first eight words).
  static func functionName(_ name: String) -> String {
    let words = name.split { !($0.isLetter || $0.isNumber) }.prefix(8).map(String.init)
    guard let first = words.first else { return "scenario" }
    var result = first.prefix(1).lowercased() + first.dropFirst()
    for word in words.dropFirst() { result += word.prefix(1).uppercased() + word.dropFirst() }
    if result.first?.isNumber == true { result = "scenario" + result }
    return identifier(result)
  }

  /// The view model's member for a scenario name: `loginButton.enabled` → `loginButtonEnabled`,
  /// `vm.account` → `account` (a leading `vm` or `viewModel` is the view model itself).
  static func memberName(_ name: String) -> String {
    var parts = name.split(separator: ".").map(String.init)
    if parts.count > 1, ["vm", "viewModel", "viewmodel"].contains(parts[0]) { parts.removeFirst() }
    guard let first = parts.first else { return "value" }
    return identifier(first + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
  }

  /// A Swift identifier made of the letters and digits of `name`.
  static func identifier(_ name: String) -> String {
    let kept = String(
      name.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" })
    guard let first = kept.first else { return "value" }
    return first.isNumber ? "_" + kept : kept
  }
}
