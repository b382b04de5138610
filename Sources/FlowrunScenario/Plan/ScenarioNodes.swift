public import FlowrunCore
import OrderedCollections

/// A node a scenario declares, for drawing it (`flowrun diagram`).
public struct ScenarioNode: Sendable {
  public enum Kind: String, Sendable, CaseIterable {
    case signal, subject, property, command, service
  }

  public var name: String
  public var kind: Kind
  /// A property's `initial` value; a behaviour subject's starting value.
  public var initial: Value?
  /// A signal whose first step is a `hot` marble (shared; its events happen unobserved too).
  public var isHot: Bool
}

extension Scenario {
  /// Every declared node, grouped by kind in the order the spec lists them, each group in file
  /// order.
  public var nodes: [ScenarioNode] {
    var nodes: [ScenarioNode] = []
    for name in plan.signalOrder {
      guard let signal = plan.signals[name] else { continue }
      var isHot = false
      if case .source(let source) = signal, case .hot? = source.subscriptions { isHot = true }
      nodes.append(ScenarioNode(name: name, kind: .signal, initial: nil, isHot: isHot))
    }
    for subject in plan.subjects {
      var initial: Value?
      if case .behavior(let value) = subject.kind { initial = value }
      nodes.append(ScenarioNode(name: subject.name, kind: .subject, initial: initial, isHot: true))
    }
    for property in plan.properties {
      nodes.append(ScenarioNode(name: property.name, kind: .property, initial: property.initial, isHot: true))
    }
    for command in plan.commands {
      nodes.append(ScenarioNode(name: command.name, kind: .command, initial: nil, isHot: true))
    }
    for service in plan.services {
      nodes.append(ScenarioNode(name: service.name, kind: .service, initial: nil, isHot: true))
    }
    return nodes
  }
}
