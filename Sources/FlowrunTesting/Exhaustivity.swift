import FlowrunAsyncRuntime
import FlowrunDiagnostics
import FlowrunScenario
import Foundation

/// Which work a bound run may leave pending at its end (docs/testing-real-code.md,
/// "Nothing left running"). By default none: a check fails for each sleep or timer still
/// armed, and each service call never answered, when the scenario's time ends — work left
/// running is usually a leak (TCA's `TestStore`, Turbine and kotlinx `runTest` fail the same
/// way).
public struct Exhaustivity: Sendable, Equatable {
  /// Whether pending work fails the check.
  public var isOn: Bool
  /// Names of work that may outlive the run (kotlinx's `backgroundScope`): a task's name
  /// (`Task(name:)`), a service's name, or a clock — `ContinuousClock`, `SuspendingClock`,
  /// `FrameClock` (`flow.clock`), `FlowScheduler` (`flow.scheduler`).
  public var outliving: Set<String>

  public init(isOn: Bool = true, outliving: Set<String> = []) {
    self.isOn = isOn
    self.outliving = outliving
  }

  /// Nothing may be left pending.
  public static let on = Exhaustivity()
  /// Pending work is not checked.
  public static let off = Exhaustivity(isOn: false)

  /// Everything but the work named may not be left pending.
  public static func allowing(_ names: String...) -> Exhaustivity {
    Exhaustivity(outliving: Set(names))
  }
}

/// What the code's run has started and not yet seen end: its `flow.scheduler` timers and its
/// service calls (the sleeps are the runtime's, ``AsyncRuntime/armedAtEnd``).
final class PendingWork {
  struct Item {
    /// The frame it was armed or made at.
    var since: Int
    /// The frame it is due at, for a timer.
    var due: Int?
    /// What it is, for the message.
    var what: String
    /// The name an ``Exhaustivity`` allows it by.
    var name: String
  }

  private var items: [Int: Item] = [:]
  private var next = 0

  func begin(_ item: Item) -> Int {
    defer { next += 1 }
    items[next] = item
    return next
  }

  func end(_ token: Int) {
    items[token] = nil
  }

  var pending: [Item] { items.keys.sorted().compactMap { items[$0] } }
}

extension ScenarioCheck {
  /// The failures of the work `flow` and `runtime` left pending when `scenario`'s run ended at
  /// `frame`: one for each, at the scenario's YAML line, naming the frame and the work.
  static func pendingFailures(
    _ flow: Flow?, _ runtime: AsyncRuntime, scenario: Scenario, endFrame: Int, exhaustivity: Exhaustivity,
    atYAML: (String, FlowrunDiagnostics.SourceLocation?, String?) -> Failure
  ) -> [Failure] {
    guard exhaustivity.isOn else { return [] }
    var items = flow?.pending.pending ?? []
    for sleep in runtime.armedAtEnd {
      let task = sleep.task.map { " in task '\($0)'" } ?? ""
      items.append(
        PendingWork.Item(
          since: sleep.since, due: sleep.frame, what: "a sleep on \(sleep.clock)\(task)",
          name: sleep.task ?? sleep.clock))
    }
    return items.filter { !exhaustivity.outliving.contains($0.name) && !exhaustivity.outliving.contains(clockName($0)) }
      .map { item in
        let location = scenario.location
        let due = item.due.map { ", due at frame \($0)" } ?? ""
        let text =
          "\(scenario.path):\(location.line):\(location.column): '\(scenario.name)' ended at frame \(endFrame)"
          + " with work still pending: \(item.what), since frame \(item.since)\(due)\n"
          + "  (work that may outlive the run: exhaustivity: .allowing(\"\(item.name)\"))"
        var failure = atYAML(text, location, item.name)
        failure.kind = .pending
        failure.scenario = scenario.name
        failure.frame = item.since
        failure.endFrame = endFrame
        return failure
      }
  }

  private static func clockName(_ item: PendingWork.Item) -> String {
    item.what.hasPrefix("a sleep on ")
      ? String(item.what.dropFirst("a sleep on ".count).prefix { $0 != " " }) : item.name
  }
}
