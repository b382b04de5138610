import FlowrunCore
import FlowrunScenario

/// The lanes of named signals, drawn from the subscriptions the scenario made: one per
/// subscription (from its ▲ to its ✕ when it began or ended during the run), a shared node once
/// with its subscribers, and with ``DiagramModel/Options/steps`` the lanes of each step and of
/// each inner subscription. Also the small lanes of command executions and subscription logs.
extension LaneBuilder {
  /// Steps whose output is shared by all their subscribers (`share` and its kin).
  static let sharing: Set<String> = ["share", "shareReplay", "replay", "replayLast", "replayLazily", "publish"]

  /// What the trace says about the output step of a named signal: each subscription's
  /// subscribe and dispose entries and the events it delivered.
  struct Subscriptions {
    var output: TraceStep?
    var subscribed: [Int: Int] = [:]
    var disposed: [Int: Int] = [:]
    var events: [Int: [Int]] = [:]
    var count: Int { subscribed.keys.max() ?? 0 }
  }

  func subscriptions(of name: String) -> Subscriptions {
    var found = Subscriptions()
    for index in byOwner[name] ?? [] {
      let entry = entries[index]
      guard let step = entry.step, TraceRenderer.isNamedOutput(step), let number = entry.subscription else { continue }
      switch entry.kind {
      case .subscribed:
        found.output = step
        found.subscribed[number] = index
      case .disposed: found.disposed[number] = index
      case .step: if entry.event != nil { found.events[number, default: []].append(index) }
      case .node, .rejected, .timeline: break
      }
    }
    return found
  }

  mutating func addSignal(_ node: ScenarioNode) {
    if node.isHot {
      return add(.signals, node.name, events: nodeEvents(node.name), state: nil, note: "hot")
    }
    let found = subscriptions(of: node.name)
    guard let output = found.output, found.count > 0 else {
      return add(.signals, node.name, events: [], state: nil, note: "not subscribed")
    }
    if found.count > 1, LaneBuilder.sharing.contains(output.name) {
      return addShared(node.name, found, output)
    }
    let count = found.count
    for number in 1...count {
      let name = count == 1 ? node.name : "\(node.name) #\(number)"
      let traceName = count == 1 ? node.name : "\(node.name)#\(number)"
      let stepped = options.steps && output.role == .operator
      if stepped { addSteps(of: output, subscription: number, name: name, traceName: traceName) }
      let label = stepped ? " › " + labels.label(output) : ""
      var lane = DiagramModel.Lane(
        group: .signals, name: name + label, role: nil, passed: nil,
        note: count == 1 ? nil : "subscription \(number) of \(count)",
        marks: marks(recorded(found.events[number] ?? [])), traceName: traceName + label)
      if stepped { lane.marks += droppedMarks(output, subscription: number) }
      span(&lane, subscribed: found.subscribed[number], disposed: found.disposed[number], always: false)
      lanes.append(lane)
      if options.steps { addInnerSubscriptions(of: output, subscription: number, count: count) }
    }
  }

  /// The events of `indices` (step or node entries) as recorded events.
  func recorded(_ indices: [Int]) -> [Recorded] {
    indices.compactMap { index in entries[index].event.map { Recorded(frame: entries[index].frame, event: $0) } }
  }

  /// Marks the lane as a subscription: ▲ where it began (when during the run, or `always`),
  /// ✕ where it was disposed.
  func span(_ lane: inout DiagramModel.Lane, subscribed: Int?, disposed: Int?, always: Bool) {
    if let subscribed, always || entries[subscribed].action > 0 {
      let frame = entries[subscribed].frame
      lane.start = frame
      lane.marks.insert(DiagramModel.Mark(frame: frame, kind: .started, token: "▲", label: "subscribed"), at: 0)
    }
    if let disposed {
      let frame = entries[disposed].frame
      lane.end = frame
      lane.marks.append(DiagramModel.Mark(frame: frame, kind: .disposed, token: "✕", label: "disposed (cancelled)"))
    } else if lane.depth > 0, let last = lane.marks.last, last.kind == .completed || last.kind == .error {
      // A small lane ends with its subscription. A completion in the frame of a value is
      // drawn as the end of the lane, not as a mark of its own, so the columns stay narrow.
      lane.end = last.frame
      let count = lane.marks.count
      if last.kind == .completed, count > 1, lane.marks[count - 2].frame == last.frame,
        lane.marks[count - 2].kind == .value
      {
        lane.marks.removeLast()
      }
    }
  }

  /// A shared node once: the events its source sent, noted with its subscribers, then a small
  /// lane per subscriber from its ▲ to its ✕ with what only that subscriber got (a replay, its
  /// terminal event).
  mutating func addShared(_ name: String, _ found: Subscriptions, _ output: TraceStep) {
    var shared: [Int] = []
    var seenParents: Set<Int> = []
    var own: [Int: [Int]] = [:]
    for number in 1...found.count {
      for index in found.events[number] ?? [] {
        // What the source sent reaches every subscriber in one delivery: drawn once. A replay
        // or a terminal event is the subscriber's own too.
        let parent = entries[index].parent
        let fromSource = parent.map { isUpstream(entries[$0], of: output) } ?? false
        if fromSource, let parent, seenParents.insert(parent).inserted { shared.append(index) }
        if !fromSource || entries[index].event?.isTerminal == true { own[number, default: []].append(index) }
      }
    }
    var subscribers: [DiagramModel.Lane] = []
    for number in 1...found.count {
      let subscriber = subscriberName(found.subscribed[number], of: name) ?? "subscriber \(number)"
      let stepped = options.steps && output.role == .operator ? " › " + labels.label(output) : ""
      var lane = DiagramModel.Lane(
        group: .signals, name: "↳ " + subscriber, role: nil, passed: nil, note: nil,
        marks: marks(recorded(own[number] ?? [])), traceName: "\(name)#\(number)" + stepped, depth: 1)
      span(&lane, subscribed: found.subscribed[number], disposed: found.disposed[number], always: true)
      subscribers.append(lane)
    }
    let label = options.steps && output.role == .operator ? name + " › " + labels.label(output) : name
    if options.steps { addSteps(of: output, subscription: 1, name: name, traceName: name + "#1") }
    lanes.append(
      DiagramModel.Lane(
        group: .signals, name: label, role: nil, passed: nil, note: "shared by \(found.count) subscribers",
        marks: marks(recorded(shared)), traceName: label))
    lanes += subscribers
  }

  /// Whether `entry` is a delivery of the step before `output` in its chain.
  func isUpstream(_ entry: TraceEntry, of output: TraceStep) -> Bool {
    guard case .step(let step, _) = entry.kind else { return false }
    return step.owner == output.owner && step.instance == output.instance && step != output
  }

  /// Who made the subscription at entry `index` to the named signal `name`: the owner of the
  /// step that refers to it, subscribed just before.
  func subscriberName(_ index: Int?, of name: String) -> String? {
    guard let index else { return nil }
    var cursor = index - 1
    while cursor >= 0, cursor >= index - 4, case .subscribed(let step, _) = entries[cursor].kind {
      if case .reference(let target) = step.role, target == name { return step.owner }
      cursor -= 1
    }
    return nil
  }

  // MARK: - Steps

  /// A lane for each step of `output`'s chain before it (references to other nodes excepted:
  /// those are drawn on their own lanes), in chain order, for the `subscription`-th subscription.
  mutating func addSteps(of output: TraceStep, subscription: Int, name: String, traceName: String) {
    guard let owner = output.owner else { return }
    var steps: [TraceStep] = []
    var events: [TraceStep: [Int]] = [:]
    for index in byOwner[owner] ?? [] {
      let entry = entries[index]
      guard let step = entry.step, step.instance == output.instance, !step.isOutput, !step.isTemplate,
        entry.subscription == subscription
      else { continue }
      if case .reference = step.role { continue }
      if !steps.contains(step) { steps.append(step) }
      if case .step = entry.kind, entry.event != nil { events[step, default: []].append(index) }
    }
    for step in steps.sorted(by: { $0.index < $1.index }) {
      let label = labels.label(step)
      var lane = DiagramModel.Lane(
        group: .signals, name: name + " › " + label, role: nil, passed: nil, note: nil,
        marks: marks(recorded(events[step] ?? [])), traceName: traceName + " › " + label)
      lane.marks += droppedMarks(step, subscription: subscription)
      lanes.append(lane)
    }
  }

  /// Faint marks for the values `step` dropped on its `subscription`-th subscription.
  mutating func droppedMarks(_ step: TraceStep, subscription: Int) -> [DiagramModel.Mark] {
    drops.filter { $0.step == step && $0.subscription == subscription }.map { drop in
      DiagramModel.Mark(
        frame: drop.frame, kind: .dropped, token: token(drop.value),
        label: "dropped \(TraceRenderer.describe(drop.value)) (\(drop.reason))")
    }
  }

  /// A small lane per inner subscription a step of `output`'s chain made (each `flatMap` inner,
  /// each request of a `flatMapLatest`), from its ▲ to its end or its ✕, named by the value it
  /// was made for.
  mutating func addInnerSubscriptions(of output: TraceStep, subscription: Int, count: Int) {
    guard let owner = output.owner else { return }
    var order: [Int] = []
    var byInstance: [Int: (root: TraceStep, subscribed: Int?, disposed: Int?, events: [Int])] = [:]
    for index in byOwner[owner] ?? [] {
      let entry = entries[index]
      guard let step = entry.step, step.isTemplate else { continue }
      if byInstance[step.instance] == nil {
        order.append(step.instance)
        byInstance[step.instance] = (step, nil, nil, [])
      }
      switch entry.kind {
      case .subscribed: byInstance[step.instance]?.subscribed = index
      case .disposed: byInstance[step.instance]?.disposed = index
      case .step: if entry.event != nil { byInstance[step.instance]?.events.append(index) }
      case .node, .rejected, .timeline: break
      }
    }
    for instance in order {
      guard let inner = byInstance[instance], let subscribed = inner.subscribed else { continue }
      let outer = outerDelivery(of: subscribed, in: output)
      guard count == 1 || outer?.subscription == subscription else { continue }
      // `↳ call searchAPI "swift"`: a request by what it asks for; another inner by its value.
      let value = outer.flatMap { entries[$0.entry].event }.map(TraceRenderer.describe)
      let what = inner.root.name.hasPrefix("call ") ? inner.root.name : "inner"
      var lane = DiagramModel.Lane(
        group: .signals, name: "↳ " + what + (value.map { (what == "inner" ? " for " : " ") + $0 } ?? ""), role: nil,
        passed: nil, note: nil,
        marks: marks(recorded(inner.events)), traceName: "\(owner) › \(inner.root.name)", depth: 1)
      span(&lane, subscribed: subscribed, disposed: inner.disposed, always: true)
      lanes.append(lane)
    }
  }

  /// The delivery of `output`'s chain that caused the entry at `index` (the outer value an
  /// inner subscription was made for), with its subscription number.
  func outerDelivery(of index: Int, in output: TraceStep) -> (entry: Int, subscription: Int)? {
    var cursor = entries[index].parent
    while let at = cursor {
      if case .step(let step, let number) = entries[at].kind, step.owner == output.owner,
        step.instance == output.instance
      {
        return (at, number)
      }
      cursor = entries[at].parent
    }
    return nil
  }

  // MARK: - Inner signals and subscription logs

  /// A small lane under each execution of `command` (`entries`: its `executions` events): the
  /// inner signal, from the frame it was emitted, with the events of the execution's work.
  mutating func addInnerSignals(command: String, entries executions: [Int]) {
    let owned = byOwner[command] ?? []
    for index in executions {
      guard case .next(let value)? = entries[index].event, case .signal(let signal) = value, signal.events == nil else {
        continue
      }
      let action = entries[index].action
      guard
        let start = owned.first(where: { $0 > index && entries[$0].action == action && isRootSubscription(entries[$0]) }
        ),
        let root = entries[start].step
      else { continue }
      var events: [Int] = []
      var disposed: Int?
      for at in owned where at > start {
        guard let step = entries[at].step, step == root else { continue }
        if case .disposed = entries[at].kind { disposed = at }
        if case .step = entries[at].kind, entries[at].event != nil { events.append(at) }
      }
      let token = token(value)
      drawnInner.insert(token)
      var lane = DiagramModel.Lane(
        group: .commands, name: "↳ " + token, role: nil, passed: nil, note: nil, marks: marks(recorded(events)),
        traceName: "\(command).executions ↳ \(token)", depth: 1)
      span(&lane, subscribed: start, disposed: disposed, always: true)
      lanes.append(lane)
    }
  }

  func isRootSubscription(_ entry: TraceEntry) -> Bool {
    if case .subscribed(let step, _) = entry.kind { return step.isTemplate }
    return false
  }

  /// A small lane per subscription of a subscription log, pairing each `^` with its own `!`.
  mutating func addSubscriptionPairs(_ log: [SubscriptionLog.Entry]) {
    let parent = lanes[lanes.count - 1]
    for (offset, entry) in log.enumerated() {
      var marks = [DiagramModel.Mark(frame: entry.subscribed, kind: .subscribed, token: "^", label: "subscribed")]
      if let end = entry.unsubscribed {
        marks.append(DiagramModel.Mark(frame: end, kind: .unsubscribed, token: "!", label: "unsubscribed"))
      }
      lanes.append(
        DiagramModel.Lane(
          group: parent.group, name: "↳ subscription \(offset + 1)", role: nil, passed: nil, note: nil, marks: marks,
          traceName: "\(parent.traceName) ↳ \(offset + 1)", depth: 1, start: entry.subscribed, end: entry.unsubscribed))
    }
  }
}
