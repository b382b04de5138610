/// The words a scenario may write, for tools outside the loader: the language server's
/// completion and hover, and the reference's check that every step has an entry.
///
/// Everything here reads the loader's own lists (the step table, the compilers' key lists) so it
/// cannot drift from what the loader accepts.
public enum ScenarioVocabulary {
  /// Whether a step starts a signal or applies to the signal before it.
  public enum Role: String, Sendable {
    case source, `operator`
  }

  /// One step name (a name or an alias) in one role.
  public struct Step: Sendable, Equatable {
    public let name: String
    public let role: Role
    /// The step this name stands for: `name` itself, or the step it is an alias of.
    public let canonical: String
    /// One sentence about what the step does.
    public let summary: String
    /// The extra keys that may stand beside the step's own.
    public let extras: [String]
    /// The library whose definition this is (its meaning differs from the default, or the
    /// name is the library's own); nil for the default catalogue's.
    public let library: Library?
    /// A row of a library's table, not of the default catalogue.
    public var isLibraryRow: Bool { library != nil }
    /// The library an alias comes from (`ignoreValues` is RAC2's).
    public let aliasLibrary: Library?
    /// Whether the step's key or one of its extra keys holds an expression.
    public let takesExpression: Bool
    /// Whether the step's argument is a mapping of the library's labels (`{ for: d, latest: b }`).
    public let takesLabels: Bool

    public var isAlias: Bool { canonical != name }
  }

  /// The keys of a scenario's top level, in the order the reference lists them.
  public static let topLevelKeys: [String] = ScenarioCompiler.topLevelKeys

  /// Every step name and alias the loader accepts without `library:`, sources first, in
  /// catalogue order (a name that is both a source and an operator, such as `merge`, appears
  /// once in each role).
  public static var steps: [Step] { steps(library: nil) }

  /// The steps a scenario of `library` may write: the loader's table for that library
  /// (`StepTable.dialect`), so an editor shows the meaning the run will have.
  public static func steps(library: Library?) -> [Step] {
    switch library {
    case nil, .rxjs?: standardSteps
    case .rac2?: rac2Steps
    case .rxswift?: rxswiftSteps
    case .combine?: combineSteps
    case .async?: asyncSteps
    }
  }

  private static let standardSteps = vocabulary(.standard)
  private static let rac2Steps = vocabulary(.rac2)
  private static let rxswiftSteps = vocabulary(.rxswift)
  private static let combineSteps = vocabulary(.combine)
  private static let asyncSteps = vocabulary(.async)

  private static func vocabulary(_ table: StepTable) -> [Step] {
    [Role.source, .operator].flatMap { role in
      table.definitions.filter { ($0.role == .source) == (role == .source) }.flatMap { definition in
        definition.names.map { name in
          Step(
            name: name, role: role, canonical: definition.name, summary: definition.summary,
            extras: definition.extras.map(\.name), library: definition.library,
            aliasLibrary: definition.aliases.first { $0.name == name }?.library,
            takesExpression: definition.takesExpression, takesLabels: definition.argument == .labels)
        }
      }
    }
  }

  /// The steps whose name is `name` (one per role), without `library:`.
  public static func steps(named name: String) -> [Step] {
    steps.filter { $0.name == name }
  }

  /// The steps whose name is `name` (one per role) in a scenario of `library`.
  public static func steps(named name: String, library: Library?) -> [Step] {
    steps(library: library).filter { $0.name == name }
  }

  /// The names derived from a command: `<command>.executing` …
  public static let commandMembers: [String] = CommandState.allCases.map(\.rawValue)
  /// The name derived from a service: `<service>.calls`.
  public static let serviceMembers = ["calls"]
  /// The member that names a subscription log in `expect`: `<name>.subscriptions`.
  public static let subscriptionsMember = "subscriptions"

  /// The keys that take an expression (their value is a YAML string holding one): every step
  /// whose definition's argument is an expression, the extra keys that are, and `when`.
  public static var expressionKeys: Set<String> { expressionKeys(library: nil) }

  /// The keys that take an expression in a scenario of `library`.
  public static func expressionKeys(library: Library?) -> Set<String> {
    switch library {
    case nil, .rxjs?: standardExpressionKeys
    case .rac2?: rac2ExpressionKeys
    case .rxswift?: rxswiftExpressionKeys
    case .combine?: combineExpressionKeys
    case .async?: asyncExpressionKeys
    }
  }

  private static let standardExpressionKeys = expressionKeys(.standard)
  private static let rac2ExpressionKeys = expressionKeys(.rac2)
  private static let rxswiftExpressionKeys = expressionKeys(.rxswift)
  private static let combineExpressionKeys = expressionKeys(.combine)
  private static let asyncExpressionKeys = expressionKeys(.async)

  private static func expressionKeys(_ table: StepTable) -> Set<String> {
    var keys: Set<String> = ["when"]
    for definition in table.definitions {
      if definition.argument.isExpression { keys.formUnion(definition.names) }
      for extra in definition.extras where extra.argument.isExpression { keys.insert(extra.name) }
    }
    return keys
  }
}
