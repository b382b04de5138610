import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunMarbles
import FlowrunYAML

/// A signal compiled at load time: validated, names resolved, expressions compiled.
///
/// A plan is instantiated anew for every run (`Graph`), and for every value that makes a
/// template, with that value bound as `outer` / `input`.
indirect enum SignalPlan {
  case reference(Reference)
  /// A source step (StepTable.swift).
  case source(SourcePlan)
  /// An operator step applied to the signal before it.
  case apply(SignalPlan, OperatorPlan)

  /// Stands for a signal that did not compile, so that the steps after it are still checked.
  static var placeholder: SignalPlan {
    .source(SourcePlan(label: "", subscriptions: nil, traceRole: .source) { _, _ in ImmediateSource.never })
  }
}

/// A compiled source step: what it makes in each run.
struct SourcePlan {
  /// The step's name in traces.
  var label: String
  /// Whose subscription log `<signal>.subscriptions` reads, for `hot` and `cold`.
  var subscriptions: SubscriptionTarget?
  /// What the step is in traces.
  var traceRole: TraceStep.Role
  /// Makes the step's source, with the template names of the scope bound.
  var make: (Graph, TemplateScope) -> any Source
  /// The signals a step over several signals combines (`combineLatest`, `merge` …).
  var inputs: [SignalPlan] = []
}

/// A compiled operator step: what it makes over its upstream in each run.
struct OperatorPlan {
  /// The step's name in traces.
  var label: String
  /// Makes the step's source over `upstream`, with the template names of the scope bound.
  var make: (Graph, _ upstream: any Source, TemplateScope) -> any Source
  /// How the step drops values (its definition's `drops`), for the trace.
  var drops: TraceStep.Drops? = nil
  /// `library: async`: how the step keeps values while its consumer is busy (`buffer(policy:)`,
  /// `debounce`), for an expectation's `consumer:`.
  var keeps: Subject.BufferingPolicy? = nil
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
  /// Whether its values may come from a property, which is nil until set: a read of nil then
  /// hints at `($0 ?? "").count`.
  var inputReadsProperty = false
}
