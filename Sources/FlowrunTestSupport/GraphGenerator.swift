public import Foundation

/// Writes random *valid* scenarios (they load: `flowrun check` passes) that put every step of
/// the step table, the libraries' steps included, in every place a signal may stand: a named
/// signal, a command's `work`, the inner signal of `flatMap` and its kin, a service's response,
/// a subject's `subscribeTo`, a `cases` template, an effect's `on`, a property's binding, and
/// the signal arguments of operators (`takeUntil`, `fallback` …). The graph fuzzer
/// (Tests/flowrunTests/GraphFuzzTests.swift, `Fuzz/graphs.sh`) runs what it writes and looks for
/// crashes; a file that does not load is a bug of this generator.
///
/// The steps come from `schemas/steps.json`, the step table written out (kept equal to the
/// table by `StepTableDumpTests`), so a new step is generated as soon as it is in the table.
/// The same seed gives the same file.
public struct GraphGenerator: Sendable {
  /// One step of the table: its name, role, argument shape (`ArgumentShape`), extra keys, and
  /// the library whose dialect it belongs to (nil: every library's).
  public struct Step: Sendable, Hashable {
    public var name: String
    public var isSource: Bool
    public var argument: String
    public var extras: [String]
    public var library: String?
    /// For another library's name of a default step (`flattenMap`), that library.
    public var nameFrom: String?
  }

  /// Every step of the table, in its order.
  public let steps: [Step]

  /// Steps that are load errors by design (`StepDefinition.rejected`: they cannot mean anything
  /// in virtual time), so no valid scenario has them.
  public static let rejected: Set<String> = ["breakpoint", "breakpointOnError", "create"]

  /// Reads the table from `schemas/steps.json` under `root`.
  public init(root: URL = packageRoot) throws {
    let data = try Data(contentsOf: root.appendingPathComponent("schemas/steps.json"))
    guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let defaults = json["steps"] as? [[String: Any]], let libraries = json["libraries"] as? [String: Any]
    else { throw CocoaError(.fileReadCorruptFile) }
    var rows = defaults
    for name in libraries.keys.sorted() { rows += libraries[name] as? [[String: Any]] ?? [] }
    steps = rows.compactMap { row in
      guard let name = row["name"] as? String, let role = row["role"] as? String,
        let argument = row["argument"] as? String
      else { return nil }
      let extras = (row["extras"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
      return Step(
        name: name, isSource: role == "source", argument: argument, extras: extras, library: row["library"] as? String,
        nameFrom: row["nameFrom"] as? String)
    }
  }

  /// The libraries a file may declare; nil writes no `library:` (the default table).
  public static let libraries: [String?] = [nil, "rxjs", "rac2", "rxswift", "combine", "async"]

  /// The scenario of `seed`, as YAML text.
  public func scenario(seed: UInt64) -> String {
    var writer = GraphWriter(steps: steps, seed: seed)
    return writer.scenario()
  }
}

/// SplitMix64: small, fast, and the same on every platform.
struct SplitMix: Sendable {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
  mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// One scenario being written: the names declared so far and the places being filled.
struct GraphWriter {
  /// What the expression names `outer`, `input` or `error` are bound to where a signal is made.
  enum Binding {
    case none, outer, input, error
  }

  let steps: [GraphGenerator.Step]
  var random: SplitMix
  /// The library the file declares (`library:`); nil declares none.
  var dialect: String?
  var sources: [GraphGenerator.Step] = []
  var operators: [GraphGenerator.Step] = []
  var subjects: [String] = []
  var properties: [String] = []
  var commands: [String] = []
  var services: [String] = []
  /// The named signals a signal being written may read (the ones declared before it).
  var readableSignals: [String] = []
  /// The services a signal being written may call (none inside a service, but earlier ones).
  var callableServices: [String] = []
  /// How deep the signal being written is nested in other signals' arguments.
  var depth = 0
  /// How many templates the signal being written is inside.
  var templates = 0
  var boundProperties: [String] = []
  /// The properties no declaration and no `assign` binds yet.
  var assignable: [String] = []

  init(steps: [GraphGenerator.Step], seed: UInt64) {
    self.steps = steps
    self.random = SplitMix(state: seed)
  }

  mutating func scenario() -> String {
    dialect = random.pick(GraphGenerator.libraries)
    // A file that declares a library reads another library's names as errors.
    let usable = steps.filter {
      ($0.library.map { $0 == dialect } ?? true) && (dialect == nil || $0.nameFrom == nil || $0.nameFrom == dialect)
        && !GraphGenerator.rejected.contains($0.name)
    }
    // A library's definition replaces the default one of the same name and role.
    let replaced = Set(usable.filter { $0.library != nil }.map { "\($0.name) \($0.isSource)" })
    let table = usable.filter { $0.library != nil || !replaced.contains("\($0.name) \($0.isSource)") }
    sources = table.filter(\.isSource)
    operators = table.filter { !$0.isSource }
    subjects = (0..<random.below(3)).map { "s\($0)" }
    properties = (0..<random.below(3)).map { "p\($0)" }
    // Which properties are declared bound; Combine's `assign` may bind each other one once.
    boundProperties = properties.filter { _ in random.chance(60) }
    assignable = properties.filter { !boundProperties.contains($0) }
    commands = (0..<random.below(3)).map { "c\($0)" }
    services = (0..<random.below(3)).map { "v\($0)" }
    let signalCount = 1 + random.below(4)

    var text = "flowrun: 1\nname: graph\n"
    if let dialect { text += "library: \(dialect)\n" }
    text += """
      values: { a: 1, b: 2, c: 3, s: "s", t: true, f: false, l: [1, 2], m: { k: 1 }, n: ~, x: !cold "-a|", y: !cold "--b-c|" }
      until: \(20 + random.below(40))
      limit: { steps: 200000, events: 20000 }

      """
    // Services first: each may call only the ones before it (a call back is a cycle).
    if !services.isEmpty {
      text += "services:\n"
      for (index, name) in services.enumerated() {
        callableServices = Array(services.prefix(index))
        readableSignals = []
        if random.chance(30) {
          text += "  \(name):\n    responses:\n"
          for _ in 0..<(1 + random.below(3)) { text += "      - \(template(.input))\n" }
        } else {
          text += "  \(name): \(template(.input))\n"
        }
      }
    }
    callableServices = services
    readableSignals = []
    var names: [String] = []
    text += "signals:\n"
    for index in 0..<signalCount {
      let name = "g\(index)"
      let written = signal(.none)
      text += "  \(name): \(written)\n"
      names.append(name)
      // A signal that `assign`s may not be read by name: a template could read it.
      if !written.contains("assign:") { readableSignals.append(name) }
    }
    if !subjects.isEmpty {
      text += "subjects:\n"
      for name in subjects {
        var keys: [String] = []
        switch random.below(5) {
        // Combine has only PassthroughSubject and CurrentValueSubject.
        case 0 where dialect != "combine": keys.append("replay: \(random.pick(["1", "2", "all"]))")
        case 1: keys.append("behavior: \(value())")
        case 2 where dialect != "combine": keys.append("rac: true")
        default: break
        }
        if random.chance(30) { keys.append("subscribeTo: \(signal(.none))") }
        text += "  \(name): { \(keys.joined(separator: ", ")) }\n"
      }
    }
    if !properties.isEmpty {
      text += "properties:\n"
      for name in properties {
        if !boundProperties.contains(name) {
          text += "  \(name): { initial: \(value()) }\n"
        } else if random.chance(50) {
          text += "  \(name): { from: \(signal(.none)), initial: \(value()) }\n"
        } else {
          text += "  \(name): \(signal(.none))\n"
        }
      }
    }
    if !commands.isEmpty {
      text += "commands:\n"
      for name in commands {
        var keys = ["work: \(template(.input))"]
        if random.chance(30) { keys.append("enabled: \(signal(.none))") }
        // An RxSwift Action runs one execution at a time: it has no `concurrent`.
        if dialect != "rxswift", random.chance(30) { keys.append("concurrent: \(random.pick(["true", "false"]))") }
        text += "  \(name): { \(keys.joined(separator: ", ")) }\n"
      }
    }
    let effectCount = random.below(3)
    if effectCount > 0 {
      text += "effects:\n"
      for _ in 0..<effectCount { text += "  - " + effect() + "\n" }
    }
    let actions = (0..<random.below(5)).map { _ in (random.below(30), action(fromEffect: false)) }
      .filter { !$0.1.isEmpty }
    if !actions.isEmpty {
      text += "timeline:\n"
      for (at, action) in actions.sorted(by: { $0.0 < $1.0 }) { text += "  - { at: \(at), \(action) }\n" }
    }
    text += "expect:\n"
    var targets = names + subjects + properties
    for command in commands {
      targets += ["executing", "enabled", "executions", "values", "errors"].map { "\(command).\($0)" }
    }
    targets += services.map { "\($0).calls" } + subjects.map { "\($0).subscriptions" }
    var expected: Set<String> = []
    for _ in 0..<(1 + random.below(4)) {
      let target = random.pick(targets)
      guard expected.insert(target).inserted else { continue }
      if random.chance(30), !target.hasSuffix(".subscriptions") {
        let start = random.below(10)
        let window = String(repeating: "-", count: start) + "^" + String(repeating: "-", count: random.below(10)) + "!"
        text += "  \(target): { subscribe: \"\(window)\", marble: \"-\" }\n"
      } else {
        text += "  \(target): \"-\"\n"
      }
    }
    return text
  }

  // MARK: Signals

  /// A signal where one is expected: a name, one step, or a list of steps.
  mutating func signal(_ binding: Binding) -> String {
    depth += 1
    defer { depth -= 1 }
    if depth > 3 || random.chance(20), let name = readable() { return name }
    if depth > 3 { return "{ just: \(value()) }" }
    let first = source(binding)
    var chain = [first]
    // RxSwift's `repeatElement` never ends by itself: a `take` follows it.
    if first.hasPrefix("{ repeatElement:") { chain.append("{ take: \(1 + random.below(3)) }") }
    let count = depth > 2 ? random.below(2) : random.below(4)
    for _ in 0..<count { chain.append(operatorStep(binding)) }
    if chain.count == 1, random.chance(50) { return first }
    return "[" + chain.joined(separator: ", ") + "]"
  }

  /// A signal written as a list of steps (or a name), never as a mapping: where a mapping
  /// would read as a library call's labels.
  mutating func listed(_ binding: Binding) -> String {
    let text = signal(binding)
    return text.hasPrefix("{") ? "[" + text + "]" : text
  }

  /// A signal made anew per value: steps, or `cases`.
  mutating func template(_ binding: Binding) -> String {
    templates += 1
    defer { templates -= 1 }
    guard random.chance(25) else { return signal(binding) }
    let condition: String =
      switch binding {
      case .none: "true"
      case .outer: "outer == 1"
      case .input: "input == nil"
      case .error: "error != nil"
      }
    return "{ cases: [{ when: '\(condition)', signal: \(signal(binding)) }, { signal: \(signal(binding)) }] }"
  }

  /// A name a signal may read: a named signal declared before, a subject, a property, a
  /// command's or service's derived name.
  mutating func readable() -> String? {
    var names = readableSignals + subjects + properties
    for command in commands {
      names += ["executing", "enabled", "executions", "values", "errors"].map { "\(command).\($0)" }
    }
    names += callableServices.map { "\($0).calls" }
    return names.isEmpty ? nil : random.pick(names)
  }

  mutating func source(_ binding: Binding) -> String {
    while true {
      let step = random.pick(sources)
      if step.name == "from", readable() == nil { continue }
      if step.name == "call", callableServices.isEmpty { continue }
      return "{ " + ([pair(step, binding)] + extras(step, binding)).joined(separator: ", ") + " }"
    }
  }

  mutating func operatorStep(_ binding: Binding) -> String {
    while true {
      let step = random.pick(operators)
      // Combine's `assign` binds a property for the whole run: only outside templates.
      if step.name == "assign" || (dialect == "rxswift" && step.name == "bind"),
        assignable.isEmpty || templates > 0 || binding != .none
      {
        continue
      }
      // Combine's and RAC2's `autoconnect` and RxSwift's `refCount` and `connect` follow a
      // connectable: they are written after one.
      if ["combine", "rac2"].contains(dialect), step.name == "autoconnect" { continue }
      if dialect == "rxswift", ["refCount", "connect"].contains(step.name) { continue }
      let written: String
      if step.argument == "bare" || (["optionalExpression", "retry"].contains(step.argument) && random.chance(50)),
        step.extras.isEmpty || random.chance(50)
      {
        written = step.name
      } else {
        written = "{ " + ([pair(step, binding)] + extras(step, binding)).joined(separator: ", ") + " }"
      }
      let connectable = dialect == "combine" && ["multicast", "makeConnectable"].contains(step.name)
      if dialect == "rac2", ["publish", "multicast"].contains(step.name), random.chance(50) {
        return written + ", autoconnect"
      }
      if dialect == "rxswift", ["publish", "multicast", "replay", "replayAll"].contains(step.name), random.chance(70) {
        return written + ", " + random.pick(["refCount", "connect"])
      }
      return connectable && random.chance(50) ? written + ", autoconnect" : written
    }
  }

  mutating func expression(_ binding: Binding, step: String) -> String {
    var pool = ["$0", "$0 == 1", "true", "$0 != nil", "[$0]", "1"]
    switch step {
    case "scan", "reduce": pool = ["$0", "$1", "[$0, $1]"]
    case "filter", "takeWhile", "skipWhile", "first", "last", "takeUntilBlock", "takeWhileBlock", "skipUntilBlock",
      "skipWhileBlock":
      pool = ["true", "false", "$0 == 1", "$0 != nil"]
    case "with": pool = ["1", "\"s\""]
    default: break
    }
    switch binding {
    case .none: break
    case .outer: pool.append(step == "with" ? "outer" : "outer")
    case .input: pool.append("input")
    case .error: pool.append("error")
    }
    if step == "filter" || step.hasSuffix("While") || step.hasSuffix("Block") || step == "first" || step == "last" {
      pool = pool.filter { $0 != "outer" && $0 != "input" && $0 != "error" }
    }
    return random.pick(pool)
  }

  mutating func marble(hot: Bool) -> String {
    var text = ""
    let length = 1 + random.below(8)
    let caret = hot && random.chance(30) ? random.below(length) : -1
    for index in 0..<length {
      if index == caret { text += "^" }
      text += random.pick(["-", "-", "a", "b", "c", "s", "t", "l", "m", "x", "y", "(ab)"])
    }
    switch random.below(4) {
    case 0: text += "|"
    case 1: text += "#"
    default: break
    }
    return "\"\(text)\""
  }

  /// A literal value; without `null`, never null (a step's argument must not be empty).
  mutating func value(null: Bool = true) -> String {
    let values = ["1", "2", "\"s\"", "true", "false", "[1, 2]", "{ k: 1 }", "2.5"]
    return random.pick(null ? values + ["~"] : values)
  }

  // MARK: Effects and the timeline

  mutating func effect() -> String {
    var keys = ["on: \(signal(.none))"]
    if random.chance(20) { keys.append("at: \(random.below(10))") }
    if random.chance(20) { keys.append("when: '\(random.pick(["true", "$0 != nil", "$0 == 1"]))'") }
    let action = self.action(fromEffect: true)
    if !action.isEmpty { keys.append(action) }
    if random.chance(20) {
      let other = self.action(fromEffect: true)
      if !other.isEmpty { keys.append("\(random.pick(["onError", "onCompleted"])): { \(other) }") }
    }
    if keys.count == 1 { keys.append("when: 'true'") }
    return "{ " + keys.joined(separator: ", ") + " }"
  }

  /// One action: `send`, `set`, `execute`, `complete` or `fail`; empty when there is nothing to
  /// act on.
  mutating func action(fromEffect: Bool) -> String {
    var choices: [Int] = []
    if !subjects.isEmpty { choices += [0, 3, 4] }
    if !properties.isEmpty { choices.append(1) }
    if !commands.isEmpty { choices += [2, 2] }
    guard !choices.isEmpty else { return "" }
    switch random.pick(choices) {
    case 0:
      let subject = random.pick(subjects)
      return fromEffect && random.chance(50) ? "send: \(subject)" : "send: { \(subject): \(value()) }"
    case 1:
      let property = random.pick(properties)
      return fromEffect && random.chance(50) ? "set: \(property)" : "set: { \(property): \(value()) }"
    case 2:
      let command = random.pick(commands)
      return random.chance(50) ? "execute: \(command), input: \(value())" : "execute: \(command)"
    case 3: return "complete: \(random.pick(subjects))"
    default: return "fail: { \(random.pick(subjects)): \(value()) }"
    }
  }
}
