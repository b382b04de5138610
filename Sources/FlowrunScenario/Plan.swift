import FlowrunCore
import FlowrunDiagnostics
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
  case race([SignalPlan])
  /// `call: service` with the `with:` input (null when absent).
  case call(service: String, input: StepExpression?)
  case apply(SignalPlan, OperatorPlan)
}

/// A declared or derived name a signal can subscribe to.
enum Reference: Hashable {
  case signal(String)
  case subject(String)
  case property(String)
  case command(String, CommandState)
  /// `<service>.calls`.
  case serviceCalls(String)
}

/// The derived signals of a command.
enum CommandState: String, CaseIterable {
  case executing, enabled, executions, values, errors
}

/// A signal made anew for each value (or execution, call, error), with that value bound as
/// `outer`, `input` or `error`.
enum TemplatePlan {
  case signal(SignalPlan)
  /// The first case whose `when` holds (a last case may have none); none matching is a
  /// run-time error of the signal, placed at `location`.
  case cases([TemplateCase], node: YAMLNode)
}

struct TemplateCase {
  var when: StepExpression?
  var plan: SignalPlan
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
  /// `flatMap` (`concurrent: 1` for `concatMap`).
  case flatMap(TemplatePlan, concurrent: Int)
  case flatMapLatest(TemplatePlan)
  case exhaustMap(TemplatePlan)
  case mergeAll(concurrent: Int)
  case switchToLatest
  case catchError(TemplatePlan)
  case catchAndReturn(Value)
  /// `retry`: `count` nil is unbounded.
  case retry(count: Int?, delay: Int, label: NodeLabel)
  /// `tap` and `name: label`: no change to the events; a label for traces.
  case label(NodeLabel)
  /// An operator of the wider catalogue (CatalogueCompiler.swift).
  case catalogue(CatalogueOperator)
}

/// A marble that becomes a source: its items, and how to resolve their tokens.
struct MarbleInput: Sendable {
  var marble: ParsedMarble
  /// The step's own `values`, looked up before the file's legend.
  var localLegend: LegendTable
  var errorValue: Value
  var label: NodeLabel
  /// The events, when they were resolved while the marble was parsed (a hot marble whose
  /// legends hold no signal); `marble` then has no items.
  var events: EventTape? = nil
}

/// A legend entry: a plain value, or a signal written as a marble (`!cold "--a|"`).
///
/// Only the marble case is boxed: a legend of plain values (the common case, up to a million
/// entries in the benchmarks) holds them inline, without an allocation per entry.
enum LegendValue: Sendable {
  case value(Value)
  indirect case cold(MarbleInput)
  case hot(Int)
}

/// A compiled expression with the YAML scalar it came from, to place run-time errors.
struct StepExpression {
  var expression: CompiledExpression
  var node: YAMLNode
  /// Where the expression starts (run-time errors point at the failing sub-expression).
  var location: SourceLocation
}
