import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML

/// What a step's `compile` works with: the step as written, its definition, and the compiler
/// (its diagnostics, expressions, nested signals and templates).
protocol StepCompilation {
  var compiler: ScenarioCompiler { get }
  var step: StepNode { get }
  var definition: StepDefinition { get }
}

extension StepCompilation {
  /// The step's name as written, quoted for messages (`'switchMap'`).
  var quotedName: String { "'\(step.name)'" }

  /// A label for the nodes the step makes, as written (budget and time-limit diagnostics name
  /// it).
  var nodeLabel: NodeLabel { NodeLabel(step.name, at: step.nameNode.start) }

  /// The node of extra key `key`, when written.
  func extra(_ key: ExtraKey) -> YAMLNode? {
    step.extra(key.name)
  }

  func error(_ message: Diagnostic.Message, at node: YAMLNode) {
    compiler.context.error(message, at: node)
  }

  func value(_ node: YAMLNode) -> Value {
    compiler.context.value(node)
  }

  func count(_ node: YAMLNode, _ what: String, minimum: Int = 0) -> Int? {
    compiler.context.count(node, what, minimum: minimum)
  }

  func bool(_ node: YAMLNode, _ what: String) -> Bool? {
    compiler.context.bool(node, what)
  }

  func string(_ node: YAMLNode, _ what: String) -> String? {
    compiler.context.string(node, what)
  }

  func frames(_ node: YAMLNode, _ what: String, minimum: Int) -> Int? {
    compiler.frames(node, what, minimum: minimum)
  }

  func signal(_ node: YAMLNode, _ what: String) -> (SignalPlan, ValueShape)? {
    compiler.compileSignal(node, what)
  }

  func signals(_ node: YAMLNode, _ what: String) -> [SignalPlan]? {
    compiler.compileSignalList(node, what)
  }

  /// The source of a source step: `make` makes it in each run, with the template names of
  /// `scope` bound.
  func source(
    label: String? = nil, subscriptions: SubscriptionTarget? = nil, traceRole: TraceStep.Role = .source,
    _ make: @escaping (Graph, TemplateScope) -> any Source
  ) -> SignalPlan {
    .source(
      SourcePlan(
        label: label ?? definition.traceLabel, subscriptions: subscriptions, traceRole: traceRole, make: make))
  }
}

/// A source step being compiled: its argument is there (the compiler reported its absence).
struct SourceCompilation: StepCompilation {
  let compiler: ScenarioCompiler
  let step: StepNode
  let definition: StepDefinition
  let argument: YAMLNode
}

/// An operator step being compiled, with the plan and value shape of the signal it applies to.
struct OperatorCompilation: StepCompilation {
  let compiler: ScenarioCompiler
  let step: StepNode
  let definition: StepDefinition
  let input: SignalPlan
  /// The shape of the values the step receives (what `$0`, `$1` and key names mean).
  let shape: ValueShape
  /// The definition whose meaning the step compiles with, when it is another's
  /// (`compile(as:)`): its `drops` describe the step's source.
  var meaning: StepDefinition? = nil

  /// The argument as written (a YAML null counts); nil when the step is bare.
  var argument: YAMLNode? { step.argument }

  /// The argument unless the step is bare or its argument null.
  var nonNullArgument: YAMLNode? {
    step.argument.flatMap { $0.resolvedScalar == .null ? nil : $0 }
  }

  /// `argument`, or nil and "needs an argument".
  func requiredArgument() -> YAMLNode? {
    needed(argument)
  }

  /// `nonNullArgument`, or nil and "needs an argument".
  func requiredNonNullArgument() -> YAMLNode? {
    needed(nonNullArgument)
  }

  private func needed(_ node: YAMLNode?) -> YAMLNode? {
    if node == nil { error(.needsArgument(step.name), at: step.nameNode) }
    return node
  }

  /// False, with "takes no argument", when a bare step carries something other than `true`.
  func checkBare() -> Bool {
    guard let argument = nonNullArgument, argument.resolvedScalar != .bool(true) else { return true }
    error(.takesNoArgument(step.name), at: argument)
    return false
  }

  /// An expression whose `$0`, `$1` … read the input's values (`accumulator`: `$0` is the
  /// running value, the value's items follow).
  func expression(_ node: YAMLNode, accumulator: Bool = false) -> StepExpression? {
    compiler.expression(
      node, shape: shape, accumulator: accumulator,
      knownValues: accumulator ? nil : compiler.values(of: compiler.knownKinds.stepInput))
  }

  func template(_ node: YAMLNode, binding names: ExpressionScope.TemplateNames) -> TemplatePlan? {
    compiler.compileTemplate(node, quotedName, binding: names)
  }

  /// The step applied to the input: `make` makes its source over the input's in each run;
  /// the result's values have `shape`.
  func apply(
    _ shape: ValueShape, label: String? = nil, _ make: @escaping (Graph, any Source, TemplateScope) -> any Source
  ) -> (SignalPlan, ValueShape) {
    let drops = (meaning ?? definition).drops
    return (.apply(input, OperatorPlan(label: label ?? definition.traceLabel, make: make, drops: drops)), shape)
  }
}

extension Diagnostic.Message {
  /// Step `step` is written without the argument it needs.
  static func needsArgument(_ step: String) -> Self { "'\(step)' needs an argument" }
  fileprivate static func takesNoArgument(_ step: String) -> Self { "'\(step)' takes no argument" }
}
