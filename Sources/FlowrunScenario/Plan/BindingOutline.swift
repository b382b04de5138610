public import FlowrunCore

/// What a test of real code binds for a scenario (`flowrun init --swift`): the inputs to drive,
/// the expectations to answer, the services to call.
public struct BindingOutline: Sendable {
  /// An input to drive: its name, kind, and the values the scenario sends into it (to choose
  /// its Swift type), when the file says them.
  public struct Input: Sendable {
    public var name: String
    public var kind: BoundRun.Input
    public var values: [Value]
  }

  /// An expectation and what it reads.
  public struct Output: Sendable {
    public enum Kind: Sendable, Equatable {
      /// Events the code can answer.
      case events
      /// A service's call log, answered by the code's calls through the service.
      case calls(service: String)
      /// A subscription log of the declared graph, which the code does not answer.
      case subscriptions
    }

    public var target: String
    public var kind: Kind
    /// The values the expectation expects.
    public var values: [Value]
  }

  public var inputs: [Input] = []
  public var outputs: [Output] = []
  public var services: [String] = []
}

extension Scenario {
  /// The outline of a binding test: as inputs, each property bound to a `hot` signal or set by
  /// the timeline, each subject and command the timeline acts on, and each `hot` signal that no
  /// property takes, none of them expected (what effects set, send or execute is the code's
  /// own work); as outputs, every expectation.
  public var bindingOutline: BindingOutline {
    let plan = self.plan
    var outline = BindingOutline()
    let expected = Set(expectations.map(\.target))
    var hotTakenByProperty: Set<String> = []
    func hotValues(_ name: String) -> [Value]? {
      guard case .source(let source)? = plan.signals[name], case .hot(let index)? = source.subscriptions else {
        return nil
      }
      let tape = index < plan.resolvedHotEvents.count ? plan.resolvedHotEvents[index] : nil
      return tape?.events.compactMap { if case .next(let value) = $0.event { value } else { nil } } ?? []
    }
    for property in plan.properties where !expected.contains(property.name) {
      if let binding = property.binding {
        guard case .reference(.signal(let name)) = binding, let values = hotValues(name) else { continue }
        hotTakenByProperty.insert(name)
        outline.inputs.append(.init(name: property.name, kind: .property, values: values))
      } else if let values = timelineValues(property.name) {
        outline.inputs.append(.init(name: property.name, kind: .property, values: values))
      }
    }
    for subject in plan.subjects where !expected.contains(subject.name) {
      guard let values = timelineValues(subject.name) else { continue }
      outline.inputs.append(.init(name: subject.name, kind: .subject, values: values))
    }
    for command in plan.commands {
      guard let values = timelineValues(command.name) else { continue }
      outline.inputs.append(.init(name: command.name, kind: .command, values: values))
    }
    for name in plan.signalOrder where !hotTakenByProperty.contains(name) && !expected.contains(name) {
      guard let values = hotValues(name) else { continue }
      outline.inputs.append(.init(name: name, kind: .signal, values: values))
    }
    for expectation in expectations {
      var values: [Value] = []
      let kind: BindingOutline.Output.Kind
      switch (expectation.expected, expectation.source) {
      case (.events(let tape), .signal(.reference(.serviceCalls(let service)))):
        kind = .calls(service: service)
        values = tape.events.compactMap { if case .next(let value) = $0.event { value } else { nil } }
      case (.events(let tape), _):
        kind = .events
        values = tape.events.compactMap { if case .next(let value) = $0.event { value } else { nil } }
      case (.subscriptions, _):
        kind = .subscriptions
      }
      outline.outputs.append(.init(target: expectation.target, kind: kind, values: values))
    }
    outline.services = plan.services.map(\.name)
    return outline
  }

  /// The values the timeline sends, sets or executes with into `name` (`null` for a command
  /// executed without input); nil when the timeline never acts on it.
  private func timelineValues(_ name: String) -> [Value]? {
    var values: [Value] = []
    var acted = false
    for action in plan.timeline.flatMap(\.actions) {
      switch action {
      case .send(let subject, let value) where subject == name,
        .set(let subject, let value) where subject == name,
        .execute(let subject, let value) where subject == name:
        acted = true
        if let value { values.append(value) }
      case .complete(let subject) where subject == name, .fail(let subject, _) where subject == name:
        acted = true
      default: break
      }
    }
    return acted ? values : nil
  }
}
