/// The extended mix of graphs (``AsyncDifferentialTests/flowrunAgreesOnTheExtendedMix``):
/// `flatMap` and `flatMapLatest` over a cold inner sequence, `interval` as the source, and
/// inputs that send in the same frame (two inputs, or a group of values in one). Drawn from a
/// generator of its own, so the graphs of ``Graph/random(seed:)`` stay what they were.
extension Graph {
  /// What an extended graph adds.
  enum Extension: Sendable, Equatable, CaseIterable {
    case flatMap, interval, sameFrameInputs, sameFrameGroups
  }

  static func extended(seed: UInt64) -> Graph {
    var random = SeededGenerator(seed: seed ^ 0x0E47_E4DE_D0F1_A75E)
    let kind = Extension.allCases.randomElement(using: &random)!
    var graph: Graph
    switch kind {
    case .flatMap:
      let count = Int.random(in: 1...2, using: &random)
      let inputs = (0..<count).map { marble(slot: $0, of: count, using: &random) }
      let inner = innerMarble(using: &random)
      graph = Graph(
        inputs: inputs, source: count == 1 ? .input : .merge(2),
        steps: [.flatMap(inner: inner, latest: Bool.random(using: &random))])
    case .interval:
      graph = Graph(inputs: [], source: .interval(Int.random(in: 1...4, using: &random)), steps: [])
    case .sameFrameInputs:
      let count = Int.random(in: 2...3, using: &random)
      let inputs = (0..<count).map { _ in marble(slot: 0, of: 1, using: &random) }
      let sources: [Source] = [.merge(count), .zip(count), .combineLatest(count)] + (count == 2 ? [.chain(2)] : [])
      graph = Graph(inputs: inputs, source: sources.randomElement(using: &random)!, steps: [])
    case .sameFrameGroups:
      graph = Graph(inputs: [groupedMarble(using: &random)], source: .input, steps: [])
    }
    var integers =
      graph.source != .zip(2) && graph.source != .zip(3) && graph.source != .combineLatest(2)
      && graph.source != .combineLatest(3)
    for _ in 0..<Int.random(in: graph.steps.isEmpty ? 1...3 : 0...2, using: &random) {
      var step = randomStep(using: &random)
      while step.needsIntegers && !integers { step = randomStep(using: &random) }
      graph.steps.append(step)
      if step.makesLists || step.makesBooleans { integers = false }
    }
    return graph
  }

  /// A cold inner marble of one to three digits over up to 6 frames, ending with `|` (or `#`).
  static func innerMarble(using random: inout SeededGenerator) -> String {
    var text = ""
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      text += String(repeating: "-", count: Int.random(in: 0...2, using: &random))
      text += "\(Int.random(in: 1...9, using: &random))"
    }
    return text + (Int.random(in: 0..<6, using: &random) == 0 ? "#" : "|")
  }

  /// One input whose frames may hold a group of two or three values, `(12)`.
  static func groupedMarble(using random: inout SeededGenerator) -> String {
    var text = ""
    for _ in 0..<Int.random(in: 3...20, using: &random) {
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4: text += "-"
      case 4..<7: text += "\(Int.random(in: 1...9, using: &random))"
      default:
        let values = (0..<Int.random(in: 2...3, using: &random)).map { _ in "\(Int.random(in: 1...9, using: &random))" }
        text += "(\(values.joined()))"
      }
    }
    return text + ["|", "|", "#", ""].randomElement(using: &random)!
  }
}
