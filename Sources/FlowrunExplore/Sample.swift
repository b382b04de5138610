import FlowrunCore
import FlowrunDiagnostics
import FlowrunScenario

/// The inputs of one generated run, as choices within an `explore:` spec: frames, indices into
/// the value pools, delays. Shrinking works on these choices; `variant(of:)` turns them into
/// the run's marbles, answers and timeline actions.
struct Sample: Hashable, Sendable {
  /// An event (a marble value, or a timeline action) at a frame, carrying `values[value]`.
  struct Event: Hashable, Sendable {
    var frame: Int
    var value: Int
  }

  /// A service's answer to one call: `value` indexes the values, then the errors, of the pool.
  struct Answer: Hashable, Sendable {
    var delay: Int
    var value: Int
  }

  /// How a hot marble or subject ends.
  struct End: Hashable, Sendable {
    var frame: Int
    var kind: ExploreSpec.End
  }

  /// What was drawn for one input of the spec (events for a marble or timeline input, answers
  /// for a service).
  struct Input: Hashable, Sendable {
    var events: [Event] = []
    var end: End?
    var answers: [Answer] = []
  }

  /// One per input of the spec, in its order.
  var inputs: [Input]
  /// The frame the run ends at.
  var until: Int

  /// How many answers are drawn for each service (a later call gets the last one again).
  static let answersPerService = 8

  /// Draws a run's inputs.
  init(spec: ExploreSpec, random: inout RandomSource) {
    until = spec.frames
    inputs = spec.inputs.map { input in
      var drawn = Input()
      switch input.kind {
      case .service:
        let pool = input.values.count + input.errors.count
        for _ in 0..<Self.answersPerService {
          drawn.answers.append(Answer(delay: random.number(in: input.delay), value: random.below(pool)))
        }
      case .hot, .command, .subject, .property:
        let count = random.number(in: input.events)
        for _ in 0..<count {
          drawn.events.append(Event(frame: random.below(spec.frames), value: random.below(input.values.count)))
        }
        drawn.events.sortByFrame()
        if !input.ends.isEmpty {
          let pick = random.below(input.ends.count + 1)
          if pick > 0 {
            let earliest = drawn.events.last?.frame ?? 0
            drawn.end = End(
              frame: random.number(in: earliest...max(earliest, spec.frames - 1)), kind: input.ends[pick - 1])
          }
        }
      }
      return drawn
    }
  }

  /// The number of events, ends and answers: what shrinking makes smaller first.
  var size: Int {
    inputs.reduce(0) { $0 + $1.events.count + ($1.end == nil ? 0 : 1) + $1.answers.count }
  }

  /// The marbles, answers and timeline actions of this sample.
  func variant(of spec: ExploreSpec) -> ScenarioVariant {
    var variant = ScenarioVariant()
    variant.until = until
    for (input, drawn) in zip(spec.inputs, inputs) {
      switch input.kind {
      case .hot(let index):
        variant.hotEvents[index] = EventTape(Self.events(drawn, of: input))
      case .service:
        variant.answers[input.name] = drawn.answers.map { Self.answer($0, of: input) }
      case .command, .subject, .property:
        variant.replacedTargets.insert(input.name)
        for event in drawn.events {
          let kind: ScenarioVariant.Action.Kind =
            input.kind == .command ? .execute : input.kind == .subject ? .send : .set
          variant.actions.append(
            .init(
              frame: event.frame, kind: kind, target: input.name, value: input.values[event.value],
              location: input.location))
        }
        if let end = drawn.end {
          variant.actions.append(
            .init(
              frame: end.frame, kind: end.kind == .completed ? .complete : .fail, target: input.name,
              value: input.errorValue, location: input.location))
        }
      }
    }
    // Timeline actions of one frame run in the order listed: by frame, then input order.
    variant.actions = variant.actions.enumerated().sorted {
      ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset)
    }.map(\.element)
    return variant
  }

  /// A marble input's events (with its end), at absolute frames.
  static func events(_ drawn: Input, of input: ExploreSpec.Input) -> [Recorded] {
    var events = drawn.events.map { Recorded(frame: $0.frame, event: .next(input.values[$0.value])) }
    if let end = drawn.end {
      events.append(Recorded(frame: end.frame, event: end.kind == .completed ? .completed : .error(input.errorValue)))
    }
    return events
  }

  /// An answer's events, counted from the call.
  static func answer(_ answer: Answer, of input: ExploreSpec.Input) -> [Recorded] {
    if answer.value < input.values.count {
      return [
        Recorded(frame: answer.delay, event: .next(input.values[answer.value])),
        Recorded(frame: answer.delay, event: .completed),
      ]
    }
    return [Recorded(frame: answer.delay, event: .error(input.errors[answer.value - input.values.count]))]
  }
}

extension [Sample.Event] {
  /// Sorts by frame, keeping the order of events of the same frame (a group's order).
  mutating func sortByFrame() {
    self = enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
  }
}
