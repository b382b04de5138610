import FlowrunCore
import FlowrunYAML

/// Operators of the wider catalogue (scenario-format.md §Operators), compiled from their steps
/// and instantiated per run.
enum CatalogueOperator {
  /// The step names handled here.
  static let names: [String] = []

  /// The extra keys a step accepts beside its own.
  static func extras(of step: String) -> [String] {
    []
  }
}

extension ScenarioCompiler {
  /// Compiles a catalogue operator step applied to `input`, whose values have `shape`.
  func compileCatalogueOperator(_ step: StepNode, input: SignalPlan, shape: ValueShape) -> (SignalPlan, ValueShape)? {
    context.error("'\(step.name)' is not supported yet", at: step.nameNode)
    return nil
  }
}

extension Graph {
  /// The source of a catalogue operator applied to `upstream`.
  func instantiate(_ op: CatalogueOperator, upstream: any Source, scope: TemplateScope) -> any Source {
    switch op {}
  }
}
