import FlowrunCore
import FlowrunDiagnostics
import FlowrunYAML

/// What the libraries' step definitions (Rac2Steps.swift, RxSwiftSteps.swift,
/// CombineSteps.swift) share: a library name that means a default step, an argument written as
/// a mapping of the library's labels, and the docs row a meaning follows.
extension StepDefinition {
  /// A library's name for a default step with the same meaning (`mapReplace` is `mapTo`): it
  /// compiles as `target` does, and is traced under its own name.
  static func equivalent(
    _ name: String, _ argument: ArgumentShape, of target: String, library: Library, extras: [ExtraKey] = [],
    row: String? = nil, summary: String
  ) -> StepDefinition {
    .operator(name, argument, extras: extras, summary: summary, library: library, nearest: target) { c in
      if let row { c.uses(row) }
      return c.compile(as: target)
    }
  }
}

extension StepDefinition {
  /// A library step that only changes types or prints (`eraseToAnyPublisher`, `setFailureType`,
  /// `print`, `debug`, `asObservable`): accepted with any argument, it passes every event on
  /// unchanged and is traced under its own name.
  static func passThrough(_ name: String, library: Library, summary: String) -> StepDefinition {
    .operator(name, .labels, summary: summary, library: library, nearest: "tap") { c in
      c.apply(c.shape.passedOn) { _, upstream, _ in upstream }
    }
  }

  /// A library operator that cannot mean anything in virtual time (a breakpoint, a real
  /// thread): a load error that says `why`.
  static func rejected(_ name: String, library: Library, why: String) -> StepDefinition {
    .operator(name, .labels, summary: "\(library.title) \(name): not accepted, \(why).", library: library) { c in
      c.error(.cannotRun(c.step.name, why: why), at: c.step.nameNode)
      return nil
    }
  }
}

extension StepCompilation {
  /// Records that the scenario uses the meaning of docs row `id` (docs/libraries.md).
  func uses(_ id: String) {
    compiler.usesRow(id)
  }
}

extension OperatorCompilation {
  /// Compiles the step as the default catalogue's step `name` does.
  func compile(as name: String) -> (SignalPlan, ValueShape)? {
    guard let other = StepTable.standard.operator(named: name), case .operator(let compile) = other.compile else {
      return nil
    }
    var compilation = self
    compilation.meaning = other
    return compile(compilation)
  }

  /// Compiles the step with the default catalogue's meaning of its own name (a library that
  /// redefines only one form of a key, such as Combine's `throttle: { for, latest }`).
  func compileAsDefault() -> (SignalPlan, ValueShape)? {
    compile(as: definition.name)
  }

  /// The argument's pairs when it is written as a mapping of labels (`{ for: 5, latest: true }`),
  /// checked against `labels`; nil when it is not a mapping.
  func labelled(_ labels: [String]) -> YAMLNode? {
    guard let argument, let pairs = argument.mappingPairs else { return nil }
    compiler.context.checkKeys(pairs, allowed: labels, in: quotedName)
    return argument
  }

  /// The label `key` of a labelled argument, or "needs 'key'".
  func required(_ key: String, of node: YAMLNode) -> YAMLNode? {
    if let value = node[key] { return value }
    error(.needsLabel(step.name, key), at: node)
    return nil
  }

  /// A time operator whose duration is `node` (≥ 0 frames), its timers charged to the step.
  func timed(_ node: YAMLNode, _ what: String, _ make: @escaping (_ upstream: any Source, Timing) -> any Source)
    -> (SignalPlan, ValueShape)?
  {
    guard let duration = frames(node, what, minimum: 0) else { return nil }
    let owner = nodeLabel
    return apply(shape.passedOn) { graph, upstream, _ in
      make(upstream, Timing(duration, owner: owner, runtime: graph.runtime))
    }
  }

  /// The node a `retry` step's timers and depth are charged to.
  var retryLabel: NodeLabel { NodeLabel(compiler.currentName ?? step.name, at: step.nameNode.start) }

  /// A `retry` step whose count is read by `rule` (nil: unbounded; a count of attempts may mean
  /// "do not subscribe at all", `.never`).
  func retry(resubscribesAsAction: Bool = false, _ rule: (Int?) -> RetryCount) -> (SignalPlan, ValueShape)? {
    var written: Int?
    var delay = 0
    if let argument, !argument.isNull {
      if let pairs = argument.mappingPairs {
        compiler.context.checkKeys(pairs, allowed: ["count", "delay"], in: quotedName)
        if let node = argument["count"] {
          guard let value = count(node, "'count'") else { return nil }
          written = value
        }
        delay = argument["delay"].flatMap { frames($0, "'delay'", minimum: 0) } ?? 0
      } else {
        guard let limit = count(argument, quotedName) else { return nil }
        written = limit
      }
    }
    let label = retryLabel
    switch rule(written) {
    case .never:
      return apply(shape.passedOn) { _, _, _ in ImmediateSource(events: [.completed]) }
    case .times(let count):
      return apply(shape.passedOn) { graph, upstream, _ in
        upstream.retry(
          count: count, delay: Timing(delay, owner: label, runtime: graph.runtime),
          resubscribesAsAction: resubscribesAsAction)
      }
    }
  }
}

/// How many times a library's `retry` re-subscribes.
enum RetryCount {
  /// At most n re-subscriptions (nil: without limit).
  case times(Int?)
  /// None, and the source is not subscribed at all: it completes at once (RxSwift `retry(0)`).
  case never
}

extension Diagnostic.Message {
  /// Scheduler step `step` (Combine's `receive`, RxSwift's `observe`, …) written without its scheduler.
  static func takesOnScheduler(_ step: String) -> Self { "'\(step)' takes { on: scheduler }" }
  /// Step `step` is written without its label `key`.
  static func needsLabel(_ step: String, _ key: String) -> Self { "'\(step)' needs '\(key)'" }
  fileprivate static func cannotRun(_ step: String, why: String) -> Self {
    "'\(step)' cannot run in a scenario: \(why)"
  }
}
