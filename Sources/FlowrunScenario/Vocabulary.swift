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

    public var isAlias: Bool { canonical != name }
  }

  /// The keys of a scenario's top level, in the order the reference lists them.
  public static let topLevelKeys: [String] = ScenarioCompiler.topLevelKeys

  /// Every step name and alias the loader accepts, sources first, in catalogue order (a name
  /// that is both a source and an operator, such as `merge`, appears once in each role).
  public static let steps: [Step] = {
    let definitions = StepTable.standard.definitions
    return [Role.source, .operator].flatMap { role in
      definitions.filter { ($0.role == .source) == (role == .source) }.flatMap { definition in
        definition.names.map { name in
          Step(
            name: name, role: role, canonical: definition.name, summary: definition.summary,
            extras: definition.extras.map(\.name))
        }
      }
    }
  }()

  /// The steps whose name is `name` (one per role).
  public static func steps(named name: String) -> [Step] {
    steps.filter { $0.name == name }
  }

  /// The names derived from a command: `<command>.executing` …
  public static let commandMembers: [String] = CommandState.allCases.map(\.rawValue)
  /// The name derived from a service: `<service>.calls`.
  public static let serviceMembers = ["calls"]
  /// The member that names a subscription log in `expect`: `<name>.subscriptions`.
  public static let subscriptionsMember = "subscriptions"

  /// The keys that take an expression (their value is a YAML string holding one).
  public static let expressionKeys: Set<String> = [
    "map", "filter", "scan", "reduce", "takeWhile", "skipWhile", "distinctUntilChanged", "first", "last",
    "when", "with",
  ]

}
