import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunYAML

extension Graph {
  /// Performs one effect or timeline action; `value` is the event's value for bare targets.
  func perform(_ action: ActionPlan, value: Value, at location: SourceLocation) {
    switch action {
    case .send(let subject, let literal):
      subjects[subject]?.receive(.next(literal ?? value))
    case .set(let property, let literal):
      properties[property]?.set(literal ?? value)
    case .complete(let subject):
      subjects[subject]?.receive(.completed)
    case .fail(let subject, let error):
      subjects[subject]?.receive(.error(error))
    case .execute(let command, let input):
      commands[command]?.execute(input ?? value)
      if !executeHandlers.isEmpty, let handlers = executeHandlers[command] {
        for handler in handlers { handler(input ?? value) }
      }
    }
  }
}

extension Graph {
  /// Calls `handler` with the input of every execute of `command` (the bound code's drive).
  func onExecute(_ command: String, _ handler: @escaping (Value) -> Void) {
    executeHandlers[command, default: []].append(handler)
  }
}

/// An effect's subscription: for each value, its actions in the order written.
final class EffectObserver: Observer, Disposable {
  private let effect: EffectPlan
  // Unowned: the graph owns its effects and outlives the run in which they are called.
  private unowned let graph: Graph
  private let link = UpstreamLink()

  init(effect: EffectPlan, graph: Graph) {
    self.effect = effect
    self.graph = graph
  }

  func start() {
    link.attach(graph.source(for: effect.on).subscribe(self))
  }

  func dispose() {
    link.dispose()
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      if let when = effect.when {
        do throws(EvaluationError) {
          guard try when.expression.evaluateCondition(graph.context(value, 0, .none), role: "when") else {
            return
          }
        } catch {
          link.dispose()
          let location = graph.scenario.file.location(ofScalarOffset: error.offset, in: when.node)
          graph.runtime.fail(.effectWhenFailed(error.message), at: location)
          return
        }
      }
      for action in effect.actions { graph.perform(action, value: value, at: effect.location) }
    case .error(let error):
      link.finish()
      if let actions = effect.onError {
        for action in actions { graph.perform(action, value: error, at: effect.location) }
      } else {
        graph.runtime.warn(.unhandledErrorInEffect(error), at: effect.location)
      }
    case .completed:
      link.finish()
      for action in effect.onCompleted ?? [] { graph.perform(action, value: .null, at: effect.location) }
    }
  }
}

extension Diagnostic.Message {
  fileprivate static func effectWhenFailed(_ message: String) -> Self { "effect 'when' failed: \(message)" }
  fileprivate static func unhandledErrorInEffect(_ error: Value) -> Self {
    "unhandled error \(error) reached an effect, which stops"
  }
}
