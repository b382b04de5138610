@testable import FlowrunCore

/// Builds `[Recorded]` from `(frame, value)` pairs; `nil` value means completed.
func events(_ pairs: [(Int, Int?)]) -> [Recorded] {
  pairs.map { frame, value in
    Recorded(frame: frame, event: value.map { .next(.int($0)) } ?? .completed)
  }
}

func next(_ frame: Int, _ value: Int) -> Recorded {
  Recorded(frame: frame, event: .next(.int(value)))
}

func completed(_ frame: Int) -> Recorded {
  Recorded(frame: frame, event: .completed)
}

/// Records every action's label as it runs.
final class Probe: ScheduledAction {
  let owner: NodeLabel
  var log: [String]

  init(_ name: String) {
    owner = NodeLabel(name)
    log = []
  }

  func perform(_ argument: Int) {
    log.append("\(owner.name)\(argument)")
  }
}

/// Collects `"<frame>:<label>"` lines from several observers in one list.
final class Journal {
  var lines: [String] = []
}

final class JournalObserver: Observer {
  let journal: Journal
  let name: String
  unowned let runtime: Runtime

  init(_ name: String, _ journal: Journal, _ runtime: Runtime) {
    self.name = name
    self.journal = journal
    self.runtime = runtime
  }

  func receive(_ event: Event) {
    let text: String
    switch event {
    case .next(let value): text = value.description
    case .error(let value): text = "#\(value)"
    case .completed: text = "|"
    }
    journal.lines.append("\(runtime.now):\(name):\(text)")
  }
}

extension Runtime {
  func runToEnd() -> VirtualTimeScheduler.Outcome {
    scheduler.run(timeLimit: 1_000_000, stepLimit: 10_000_000)
  }
}
