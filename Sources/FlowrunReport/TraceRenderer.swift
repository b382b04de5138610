import FlowrunCore
import FlowrunDiagnostics
import FlowrunMarbles
public import FlowrunScenario

/// Turns a run's trace into the teaching walkthrough of cli.md §trace: frame by frame, one line
/// per delivery at a node, indented by what caused it, with the steps of a signal's chain that
/// produced each value in parentheses.
///
/// The raw trace has an entry for every step of every chain; a line is shown for the events of
/// shared nodes (marbles, subjects, properties, command states, service calls), of named
/// signals (their last step), rejected executions, timeline actions, and the subscriptions and
/// disposals of named signals and of marbles, intervals and service calls. The steps in
/// between are folded into the line they led to; with `steps`, each step's delivery has a line
/// of its own (`query › debounce 300ms`), and so has each value a step dropped.
public struct TraceRenderer: Sendable {
  /// One line of the walkthrough.
  public struct Line: Sendable {
    /// The frame, or nil for the setup before any scheduled action.
    public var frame: Int?
    /// How many shown lines caused this one.
    public var depth: Int
    /// The node: a shared node, a named signal (`name#2` for its second subscription), …
    public var name: String
    /// What happened: `next "1"`, `set true`, `completed`, `subscribed`, `execute rejected`…
    public var what: String
    /// The chain of steps that produced it, when it went through steps: `combineLatest: [..] → map`.
    public var via: String?
    /// The lane (diagram row) the line belongs to, when it is an event of a drawn node.
    public var lane: String?
    /// The index of the trace entry the line shows.
    public var entry: Int
    /// The index of the shown line that caused this one.
    public var parent: Int?

    /// The line without indentation: name, what happened, and the chain in parentheses.
    public var text: String {
      var text = name.padded(to: max(0, 22 - 2 * depth)) + " " + what
      if let via { text = text.padded(to: max(0, 42 - 2 * depth)) + " (" + via + ")" }
      return text
    }

    /// The line as printed: indented by depth, an arrow before what something else caused.
    public var indentedText: String {
      (depth == 0 ? "" : String(repeating: "  ", count: depth - 1) + "→ ") + text
    }
  }

  public let scenario: Scenario
  public let lines: [Line]

  public init(_ run: TracedRun) {
    self.init(run, steps: false)
  }

  /// With `steps`, a line for every step's delivery and for every value a step dropped.
  public init(_ run: TracedRun, steps: Bool) {
    scenario = run.result.scenario
    if steps {
      let labels = StepLabels(scenario)
      lines = TraceRenderer.lines(run.entries, steps: labels, drops: StepDrop.find(in: run.entries, labels: labels))
    } else {
      lines = TraceRenderer.lines(run.entries)
    }
  }

  /// The whole walkthrough: the scenario's name, description, tick, then frame by frame.
  public func render() -> String {
    var out = scenario.name + "\n" + scenario.path + "  ·  tick " + scenario.tick.literal.text + "\n"
    if let description = scenario.description?.trimmingTrailingNewlines, !description.isEmpty {
      out +=
        "\n"
        + description.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") + "\n"
    }
    var current: Int?? = .none
    for line in lines {
      if current != .some(line.frame) {
        current = .some(line.frame)
        out += "\n" + header(line.frame) + "\n"
      }
      out += "  " + line.indentedText + "\n"
    }
    return out
  }

  /// `frame 3 (300 ms)`, or `setup` for the subscriptions made before frame 0.
  public func header(_ frame: Int?) -> String {
    guard let frame else { return "setup (before any scheduled action)" }
    return "frame \(frame) (\(scenario.tick.realTime(frames: frame)))"
  }

  // MARK: - Choosing lines

  static func lines(_ entries: [TraceEntry], steps labels: StepLabels? = nil, drops: [StepDrop] = []) -> [Line] {
    var subscriptions: [String: Int] = [:]
    for entry in entries {
      guard case .subscribed(let step, let number) = entry.kind, isNamedOutput(step), let owner = step.owner else {
        continue
      }
      subscriptions[owner] = max(subscriptions[owner] ?? 0, number)
    }
    func nodeName(_ index: Int) -> String {
      let entry = entries[index]
      if case .node = entry.kind, index + 1 < entries.count, entries[index + 1].parent == index,
        case .step(let step, _) = entries[index + 1].kind, step.role == .scheduling, let owner = step.owner,
        !isNamedOutput(step)
      {
        // A marble or timer inside a template: name it by the signal or command it serves.
        return "\(owner) › \(step.name)"
      }
      guard let step = entry.step else { return entry.node }
      if case .reference(let name) = step.role { return name }
      return stepName(step, subscription: entry.subscription)
    }
    func stepName(_ step: TraceStep, subscription: Int?) -> String {
      guard let owner = step.owner else { return "inline" }
      let numbered = subscription.flatMap { (subscriptions[owner] ?? 0) > 1 ? "\(owner)#\($0)" : nil } ?? owner
      guard isNamedOutput(step) else {
        guard let labels else { return "\(owner) › \(step.name)" }
        return (step.isTemplate ? owner : numbered) + " › " + labels.label(step)
      }
      // With steps, a chain's last operator is named like the steps before it (its lane's name).
      guard let labels, step.role == .operator else { return numbered }
      return numbered + " › " + labels.label(step)
    }
    var dropsAt: [Int: [StepDrop]] = [:]
    for drop in drops { dropsAt[drop.entry, default: []].append(drop) }

    var shownLine: [Int: Int] = [:]
    var lines: [Line] = []
    func nearestShown(_ index: Int?) -> Int? {
      var cursor = index
      while let at = cursor, shownLine[at] == nil { cursor = entries[at].parent }
      return cursor.flatMap { shownLine[$0] }
    }
    for (index, entry) in entries.enumerated() {
      defer {
        for drop in dropsAt[index] ?? [] {
          let parentLine = nearestShown(index)
          let name = stepName(drop.step, subscription: drop.subscription)
          lines.append(
            Line(
              frame: entry.action == 0 ? nil : entry.frame, depth: parentLine.map { lines[$0].depth + 1 } ?? 0,
              name: name,
              what: "dropped \(describe(drop.value)) (\(drop.reason))", via: nil, lane: name, entry: index,
              parent: parentLine))
        }
      }
      guard isShown(entry, in: entries, steps: labels != nil) else { continue }
      // The nearest shown ancestor and the hidden steps on the way to it.
      var hidden: [TraceEntry] = []
      var cursor = entry.parent
      while let at = cursor, shownLine[at] == nil {
        if case .step(let step, _) = entries[at].kind, case .reference = step.role {
        } else if case .step = entries[at].kind {
          hidden.append(entries[at])
        }
        cursor = entries[at].parent
      }
      let parentLine = cursor.flatMap { shownLine[$0] }
      let depth = parentLine.map { lines[$0].depth + 1 } ?? 0
      var line = Line(
        frame: entry.action == 0 ? nil : entry.frame, depth: depth, name: nodeName(index), what: what(entry),
        via: nil, lane: nil, entry: index, parent: parentLine)
      switch entry.kind {
      // With steps every step has its own line: nothing is folded into another.
      case .step, .node: line.via = labels == nil ? via(hidden.reversed(), entry) : nil
      case .rejected, .subscribed, .disposed, .timeline: break
      }
      switch entry.kind {
      case .node, .step: line.lane = line.name
      case .rejected, .subscribed, .disposed, .timeline: break
      }
      shownLine[index] = lines.count
      lines.append(line)
    }
    return lines
  }

  /// Whether `step`'s events are those of a named signal.
  static func isNamedOutput(_ step: TraceStep) -> Bool {
    step.isOutput && step.owner != nil && !step.isTemplate
  }

  static func isShown(_ entry: TraceEntry, in entries: [TraceEntry], steps: Bool = false) -> Bool {
    switch entry.kind {
    case .node, .rejected, .timeline:
      return true
    case .step(let step, _):
      if case .reference = step.role { return entry.parent == nil }
      if steps, step.owner != nil, !isNamedOutput(step) { return step.role != .scheduling }
      guard isNamedOutput(step) else { return false }
      // A named `hot`/`cold` signal repeats its marble's own line.
      if let parent = entry.parent, case .node = entries[parent].kind, entries[parent].node == step.owner,
        entries[parent].event == entry.event
      {
        return false
      }
      return true
    case .subscribed(let step, _), .disposed(let step, _):
      if isNamedOutput(step) { return true }
      return step.role == .scheduling || step.role == .call
    }
  }

  // MARK: - Wording

  static func describe(_ event: Event?) -> String {
    switch event {
    case .next(let value)?: describe(value)
    case .error(let value)?: "error " + describe(value)
    case .completed?: "completed"
    case nil: ""
    }
  }

  static func describe(_ value: Value) -> String {
    if case .signal = value { return "a signal" }
    return value.description
  }

  static func what(_ entry: TraceEntry) -> String {
    switch entry.kind {
    case .node:
      if entry.note == "set", case .next(let value)? = entry.event { return "set " + describe(value) }
      if case .next(let value)? = entry.event { return "next " + describe(value) }
      return describe(entry.event)
    case .step(let step, _):
      if case .reference = step.role, case .next(let value)? = entry.event {
        return "current " + describe(value) + " (sent on subscribe" + (step.owner.map { " to " + $0 } ?? "") + ")"
      }
      if case .next(let value)? = entry.event { return "next " + describe(value) }
      return describe(entry.event)
    case .rejected:
      let input =
        entry.event.map { if case .next(let value) = $0, value != .null { " " + describe(value) } else { "" } } ?? ""
      return "execute\(input) rejected (disabled)"
    case .subscribed:
      return "subscribed"
    case .disposed:
      return "disposed"
    case .timeline:
      return entry.note ?? ""
    }
  }

  /// The chain of hidden steps that led to `entry`: `combineLatest: ["1", "123"] → map`; a
  /// step's value is shown when the next step changed it.
  static func via(_ hidden: [TraceEntry], _ entry: TraceEntry) -> String? {
    var chain = hidden
    if case .step(let step, _) = entry.kind, isNamedOutput(step) {
      if case .reference = step.role {} else { chain.append(entry) }
    }
    var parts: [String] = []
    for (offset, item) in chain.enumerated() {
      guard let step = item.step, step.role != .scheduling else { continue }
      if offset + 1 < chain.count, let event = item.event, event != chain[offset + 1].event {
        parts.append(step.name + ": " + describe(event))
      } else {
        parts.append(step.name)
      }
    }
    return parts.isEmpty ? nil : parts.joined(separator: " → ")
  }
}

extension String {
  func padded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  var trimmingTrailingNewlines: String {
    var text = self
    while text.last == "\n" { text.removeLast() }
    return text
  }
}
