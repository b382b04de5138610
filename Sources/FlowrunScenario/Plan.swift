import FlowrunCore
import FlowrunExpressions
import FlowrunMarbles
import FlowrunYAML

/// A signal compiled at load time: validated, names resolved, expressions compiled.
///
/// A plan is instantiated anew for every run (`GraphBuilder`), and for every value that makes a
/// template, with that value bound as `outer` / `input`.
indirect enum SignalPlan {
  case reference(Reference)
  /// The `index`-th hot marble of the scenario (shared; scheduled before frame 0).
  case hot(Int)
  case cold(MarbleInput)
  case just(Value)
  case of([Value])
  case empty
  case never
  case fail(Value)
  case timer(delay: Int, period: Int?, label: NodeLabel)
  case combineLatest([SignalPlan], keys: [String]?)
  case zip([SignalPlan], keys: [String]?)
  case merge([SignalPlan], concurrent: Int)
  case concat([SignalPlan])
  case apply(SignalPlan, OperatorPlan)
}

/// A declared or derived name a signal can subscribe to.
enum Reference: Hashable {
  case signal(String)
  case subject(String)
  case property(String)
}

/// One operator step.
enum OperatorPlan {
  case map(StepExpression)
  case mapTo(Value)
  case filter(StepExpression)
  case scan(StepExpression, seed: Value?)
  case distinctUntilChanged(StepExpression?)
  case skip(Int)
  case take(Int)
  case takeWhile(StepExpression, inclusive: Bool)
  case skipWhile(StepExpression)
  case takeUntil(SignalPlan, completesWithNotifier: Bool)
  case startWith([Value])
  /// `tap` and `name: label`: no change to the events; a label for traces.
  case label(NodeLabel)
  /// An operator of the wider catalogue (CatalogueCompiler.swift).
  case catalogue(CatalogueOperator)
}

/// A marble that becomes a source: its items, and how to resolve their tokens.
struct MarbleInput {
  var marble: ParsedMarble
  /// The step's own `values`, looked up before the file's legend.
  var localLegend: [(key: String, value: LegendValue)]
  var errorValue: Value
  var label: NodeLabel
}

/// A legend entry: a plain value, or a signal written as a marble (`!cold "--a|"`).
indirect enum LegendValue {
  case value(Value)
  case cold(MarbleInput)
  case hot(Int)
}

/// A compiled expression with the YAML scalar it came from, to place run-time errors.
struct StepExpression {
  var expression: CompiledExpression
  var node: YAMLNode
  /// `path:line:column` of the expression's start, for `{ expressionError, at }` values.
  var location: SourceLocation
}
