/// A small random `library: async` graph: one to three hot inputs and a pipeline of one to four
/// operators that both flowrun's `library: async` and the real `AsyncSequence` /
/// swift-async-algorithms operators can run. ``scenarioText`` is the graph as a scenario;
/// `RealPipeline` builds the same pipeline from the package's operators.
struct Graph: Sendable {
  /// What the pipeline starts from.
  enum Source: Sendable, Equatable {
    case input
    case merge(Int)
    case zip(Int)
    case combineLatest(Int)
    case chain(Int)
    /// `interval: d` (`AsyncTimerSequence`), no inputs.
    case interval(Int)
  }

  /// A buffer policy of `buffer(policy:)`.
  enum Policy: Sendable, Equatable {
    case unbounded, bounded(Int), bufferingOldest(Int), bufferingNewest(Int)
  }

  /// One operator after the source.
  enum Step: Sendable, Equatable {
    case map(Int)
    case filterEven
    case compactMapSkippingMultiples(of: Int)
    case prefix(Int)
    case prefixWhile(lessThan: Int)
    case dropFirst(Int)
    case dropWhile(lessThan: Int)
    case removeDuplicates
    case adjacentPairs
    case reductions(seed: Int?)
    case chunks(Int)
    case chunksOrEvery(Int, every: Int)
    case chunkedEvery(Int)
    case debounce(Int)
    case throttle(Int, latest: Bool)
    case buffer(Policy)
    case first(greaterThan: Int)
    case contains(Int)
    /// `flatMap` (or `flatMapLatest`) over a cold inner marble of digits, each value
    /// `inner + outer * 10`.
    case flatMap(inner: String, latest: Bool)
  }

  var inputs: [String]
  var source: Source
  var steps: [Step]

  /// The last frame of the run (`until:`).
  static let horizon = 40

  /// The graph as a `library: async` scenario whose expectation `out` is recorded, not checked.
  func scenarioText(seed: UInt64) -> String {
    var lines = [
      "flowrun: 1", "name: async differential \(seed)", "library: async", "until: \(Self.horizon)", "signals:",
    ]
    for (index, marble) in inputs.enumerated() { lines.append("  i\(index): { hot: \"\(marble)\" }") }
    let names = inputs.indices.map { "i\($0)" }.joined(separator: ", ")
    var chain: [String]
    switch source {
    case .input: chain = ["{ from: i0 }"]
    case .merge: chain = ["{ merge: [\(names)] }"]
    case .zip: chain = ["{ zip: [\(names)] }"]
    case .combineLatest: chain = ["{ combineLatest: [\(names)] }"]
    case .chain:
      chain = ["{ from: i0 }", "{ chain: [\(inputs.indices.dropFirst().map { "i\($0)" }.joined(separator: ", "))] }"]
    case .interval(let d): chain = ["{ interval: \(d) }"]
    }
    chain += steps.map(\.yaml)
    lines.append("  out: [\(chain.joined(separator: ", "))]")
    // The inputs are expected too: their recorded events are what the real side is fed.
    lines.append("expect:")
    for index in inputs.indices { lines.append("  i\(index): \"-\"") }
    lines.append("  out: \"-\"")
    return lines.joined(separator: "\n") + "\n"
  }
}

extension Graph.Step {
  var yaml: String {
    switch self {
    case .map(let k): "{ map: '$0 * \(k)' }"
    case .filterEven: "{ filter: '$0 % 2 == 0' }"
    case .compactMapSkippingMultiples(let k): "{ compactMap: '$0 % \(k) == 0 ? nil : $0 + 1' }"
    case .prefix(let n): "{ prefix: \(n) }"
    case .prefixWhile(let k): "{ prefix: { while: '$0 < \(k)' } }"
    case .dropFirst(let n): "{ dropFirst: \(n) }"
    case .dropWhile(let k): "{ drop: { while: '$0 < \(k)' } }"
    case .removeDuplicates: "removeDuplicates"
    case .adjacentPairs: "adjacentPairs"
    case .reductions(nil): "{ reductions: '$0 + $1' }"
    case .reductions(let seed?): "{ reductions: '$0 + $1', seed: \(seed) }"
    case .chunks(let n): "{ chunks: \(n) }"
    case .chunksOrEvery(let n, let d): "{ chunks: { ofCount: \(n), or: { every: \(d) } } }"
    case .chunkedEvery(let d): "{ chunked: { by: { every: \(d) } } }"
    case .debounce(let d): "{ debounce: \(d) }"
    case .throttle(let d, let latest): "{ throttle: { for: \(d), latest: \(latest) } }"
    case .buffer(let policy): "{ buffer: { policy: \(policy.yaml) } }"
    case .first(let k): "{ first: { where: '$0 > \(k)' } }"
    case .contains(let v): "{ contains: \(v) }"
    case .flatMap(let inner, let latest):
      "{ \(latest ? "flatMapLatest" : "flatMap"): [{ cold: \"\(inner)\" }, { map: '$0 + outer * 10' }] }"
    }
  }

  /// Whether the step needs integer elements (the sources' values), not lists.
  var needsIntegers: Bool {
    switch self {
    case .map, .filterEven, .compactMapSkippingMultiples, .prefixWhile, .dropWhile, .reductions, .first, .contains,
      .flatMap:
      true
    default: false
    }
  }

  /// Whether the step's elements are lists.
  var makesLists: Bool {
    switch self {
    case .adjacentPairs, .chunks, .chunksOrEvery, .chunkedEvery: true
    default: false
    }
  }

  /// Whether the step's elements are booleans (`contains`).
  var makesBooleans: Bool {
    if case .contains = self { return true }
    return false
  }
}

extension Graph.Policy {
  var yaml: String {
    switch self {
    case .unbounded: "unbounded"
    case .bounded(let n): "{ bounded: \(n) }"
    case .bufferingOldest(let n): "{ bufferingOldest: \(n) }"
    case .bufferingNewest(let n): "{ bufferingNewest: \(n) }"
    }
  }
}

/// SplitMix64: the same graphs for the same seed on every platform.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension Graph {
  /// The graph of `seed`.
  static func random(seed: UInt64) -> Graph {
    var random = SeededGenerator(seed: seed)
    let source: Source
    switch Int.random(in: 0..<10, using: &random) {
    case 0..<4: source = .input
    case 4, 5: source = .merge(Int.random(in: 2...3, using: &random))
    case 6, 7: source = .zip(Int.random(in: 2...3, using: &random))
    case 8: source = .combineLatest(Int.random(in: 2...3, using: &random))
    default: source = .chain(2)
    }
    let inputCount: Int
    switch source {
    case .input: inputCount = 1
    case .merge(let n), .zip(let n), .combineLatest(let n), .chain(let n): inputCount = n
    case .interval: inputCount = 0
    }
    let inputs = (0..<inputCount).map { marble(slot: $0, of: inputCount, using: &random) }
    var integers = source == .input || source == .merge(2) || source == .merge(3) || source == .chain(2)
    var steps: [Step] = []
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      var step = randomStep(using: &random)
      while step.needsIntegers && !integers { step = randomStep(using: &random) }
      steps.append(step)
      if step.makesLists || step.makesBooleans { integers = false }
    }
    return Graph(inputs: inputs, source: source, steps: steps)
  }

  /// A hot marble of up to 30 frames: digits, then `|`, `#` or nothing. Input `slot` of `count`
  /// has its events only at the frames `f` where `f % count == slot`, so that two inputs never
  /// send at the same frame (the order of same-frame deliveries is where the package's task
  /// hops decide, docs/libraries.md "The differential").
  static func marble(slot: Int, of count: Int, using random: inout SeededGenerator) -> String {
    var length = Int.random(in: 3...30, using: &random)
    while length % count != slot { length += 1 }
    let density = Double.random(in: 0.3...0.9, using: &random)
    var text = ""
    for frame in 0..<length {
      if frame % count == slot, Double.random(in: 0..<1, using: &random) < density {
        text += "\(Int.random(in: 1...9, using: &random))"
      } else {
        text += "-"
      }
    }
    switch Int.random(in: 0..<20, using: &random) {
    case 0..<11: text += "|"
    case 11..<14: text += "#"
    default: break
    }
    return text
  }

  static func randomStep(using random: inout SeededGenerator) -> Step {
    switch Int.random(in: 0..<19, using: &random) {
    case 0: .map(Int.random(in: 2...3, using: &random))
    case 1: .filterEven
    case 2: .compactMapSkippingMultiples(of: Int.random(in: 2...3, using: &random))
    case 3: .prefix(Int.random(in: 0...5, using: &random))
    case 4: .prefixWhile(lessThan: Int.random(in: 3...9, using: &random))
    case 5: .dropFirst(Int.random(in: 0...3, using: &random))
    case 6: .dropWhile(lessThan: Int.random(in: 3...9, using: &random))
    case 7: .removeDuplicates
    case 8: .adjacentPairs
    case 9: .reductions(seed: Bool.random(using: &random) ? nil : Int.random(in: 0...5, using: &random))
    case 10: .chunks(Int.random(in: 1...3, using: &random))
    case 11: .chunksOrEvery(Int.random(in: 2...4, using: &random), every: Int.random(in: 2...6, using: &random))
    case 12: .chunkedEvery(Int.random(in: 2...6, using: &random))
    case 13, 14: .debounce(Int.random(in: 1...5, using: &random))
    case 15, 16: .throttle(Int.random(in: 1...5, using: &random), latest: Bool.random(using: &random))
    case 17:
      .buffer(
        [Policy.unbounded, .bounded(Int.random(in: 1...3, using: &random)), .bufferingOldest(1), .bufferingNewest(1)]
          .randomElement(using: &random)!)
    default:
      Bool.random(using: &random)
        ? .first(greaterThan: Int.random(in: 3...8, using: &random)) : .contains(Int.random(in: 1...9, using: &random))
    }
  }
}
