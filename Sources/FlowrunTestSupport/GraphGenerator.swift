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
  var library: String?
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
    library = random.pick(GraphGenerator.libraries)
    // A file that declares a library reads another library's names as errors.
    let usable = steps.filter {
      ($0.library == nil || $0.library == library) && (library == nil || $0.nameFrom == nil || $0.nameFrom == library)
        && !GraphGenerator.rejected.contains($0.name)
    }
    // A library's definition replaces the default one of the same name and role.
    let replaced = Set(usable.filter { $0.library != nil }.map { "\($0.name) \($0.isSource)" })
    let dialect = usable.filter { $0.library != nil || !replaced.contains("\($0.name) \($0.isSource)") }
    sources = dialect.filter(\.isSource)
    operators = dialect.filter { !$0.isSource }
    subjects = (0..<random.below(3)).map { "s\($0)" }
    properties = (0..<random.below(3)).map { "p\($0)" }
    // Which properties are declared bound; Combine's `assign` may bind each other one once.
    boundProperties = properties.filter { _ in random.chance(60) }
    assignable = properties.filter { !boundProperties.contains($0) }
    commands = (0..<random.below(3)).map { "c\($0)" }
    services = (0..<random.below(3)).map { "v\($0)" }
    let signalCount = 1 + random.below(4)

    var text = "flowrun: 1\nname: graph\n"
    if let library { text += "library: \(library)\n" }
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
        case 0 where library != "combine": keys.append("replay: \(random.pick(["1", "2", "all"]))")
        case 1: keys.append("behavior: \(value())")
        case 2 where library != "combine": keys.append("rac: true")
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
        if library != "rxswift", random.chance(30) { keys.append("concurrent: \(random.pick(["true", "false"]))") }
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
      if step.name == "assign" || (library == "rxswift" && step.name == "bind"),
        assignable.isEmpty || templates > 0 || binding != .none
      {
        continue
      }
      // Combine's and RAC2's `autoconnect` and RxSwift's `refCount` and `connect` follow a
      // connectable: they are written after one.
      if ["combine", "rac2"].contains(library), step.name == "autoconnect" { continue }
      if library == "rxswift", ["refCount", "connect"].contains(step.name) { continue }
      let written: String
      if step.argument == "bare" || (["optionalExpression", "retry"].contains(step.argument) && random.chance(50)),
        step.extras.isEmpty || random.chance(50)
      {
        written = step.name
      } else {
        written = "{ " + ([pair(step, binding)] + extras(step, binding)).joined(separator: ", ") + " }"
      }
      let connectable = library == "combine" && ["multicast", "makeConnectable"].contains(step.name)
      if library == "rac2", ["publish", "multicast"].contains(step.name), random.chance(50) {
        return written + ", autoconnect"
      }
      if library == "rxswift", ["publish", "multicast", "replay", "replayAll"].contains(step.name), random.chance(70) {
        return written + ", " + random.pick(["refCount", "connect"])
      }
      return connectable && random.chance(50) ? written + ", autoconnect" : written
    }
  }

  /// `name: argument`, the argument of the step's shape.
  mutating func pair(_ step: GraphGenerator.Step, _ binding: Binding) -> String {
    "\(step.name): " + argument(step, binding)
  }

  mutating func argument(_ step: GraphGenerator.Step, _ binding: Binding) -> String {
    switch (step.library, step.name) {
    case ("rac2", "aggregateWithStart"), ("rac2", "scanWithStart"):
      return "{ start: \(value()), reduce: '\(random.pick(["$0", "$1", "[$0, $1]"]))' }"
    case ("rac2", "catchTo"):
      return signal(.error)
    case ("combine", "flatMap"):
      // A mapping argument reads as the call's labels: the template is written as a list.
      if random.chance(40) { return "{ maxPublishers: \(1 + random.below(3)), signal: \(listed(.outer)) }" }
      return listed(.outer)
    case ("combine", "throttle"):
      // Combine's call needs `latest`: the plain form is a load error that shows it.
      return "{ for: \(random.below(5)), latest: \(random.pick(["true", "false"])) }"
    case ("combine", "debounce"), ("combine", "delay"):
      return random.chance(50) ? "{ for: \(random.below(5)) }" : "\(random.below(5))"
    case ("combine", "timeout"):
      if random.chance(50) { return "{ for: \(random.below(5)), customError: \(value()) }" }
      return "\(random.below(5))"
    case ("combine", "prefix"):
      return random.chance(50) ? "{ untilOutputFrom: \(listed(binding)) }" : "\(random.below(4))"
    case ("combine", "assign"):
      return assignable.removeLast()
    case ("rxswift", "bind"):
      return "{ to: \(assignable.removeLast()) }"
    case ("rxswift", "scan"), ("rxswift", "reduce"):
      return "{ \(random.pick(["seed", "into"])): \(value()), accumulator: '\(random.pick(["$0", "$1", "[$0, $1]"]))' }"
    case ("rxswift", "element"), ("combine", "output"):
      return "{ at: \(random.below(3)) }"
    case ("rxswift", "asSignal"):
      return "{ onErrorJustReturn: \(value()) }"
    case ("rxswift", "ifEmpty"):
      return "{ default: \(value()) }"
    case ("rxswift", "skip"):
      return random.chance(50) ? "{ for: \(random.below(5)) }" : "\(random.below(4))"
    case ("rxswift", "observe"), ("rxswift", "subscribe"), ("combine", "receive"), ("combine", "subscribe"):
      return "{ on: \(random.pick(["main", "background"])) }"
    case ("rac2", "combinePreviousWithStart"):
      return "{ start: \(value()), reduce: '\(random.pick(["$0", "$1", "[$0, $1]"]))' }"
    case ("combine", "multicast"):
      return random.chance(50) ? "true" : "{ subject: passthrough }"
    case ("combine", "Timer.publish"):
      return "{ every: \(1 + random.below(4)) }"
    case ("combine", "Empty"):
      return random.chance(50) ? "true" : "{ completeImmediately: false }"
    case ("combine", "Record"):
      return "{ output: [\(value()), \(value())], completion: finished }"
    case ("combine", "min"), ("combine", "max"):
      return random.chance(50) ? "true" : "{ by: '$0 < $1' }"
    case ("combine", "tryMin"), ("combine", "tryMax"):
      return "{ by: '$0 < $1' }"
    case ("combine", "mergeWith"), ("combine", "merge"):
      // A list after `with:` reads as a list of signals: a name keeps it one signal.
      return "{ with: \(readable() ?? "g0") }"
    case ("combine", "first"), ("combine", "last"):
      return random.chance(50) ? "true" : "{ where: '\(expression(binding, step: "filter"))' }"
    case ("combine", "tryFirst"), ("combine", "tryLast"):
      return "{ where: '\(expression(binding, step: "filter"))' }"
    case ("combine", "drop"):
      if random.chance(50) { return "{ untilOutputFrom: \(readable() ?? "g0") }" }
      return "{ while: '\(expression(binding, step: "filter"))' }"
    case ("async", "throttle"):
      if random.chance(50) { return "\(random.below(5))" }
      return "{ for: \(random.below(5)), latest: \(random.pick(["true", "false"])) }"
    case ("async", "debounce"):
      return random.chance(50) ? "{ for: \(random.below(5)) }" : "\(random.below(5))"
    case ("async", "prefix"):
      return random.chance(50) ? "{ while: '\(expression(binding, step: "filter"))' }" : "\(random.below(4))"
    case ("async", "drop"):
      return "{ while: '\(expression(binding, step: "filter"))' }"
    case ("async", "first"), ("async", "min"), ("async", "max"), ("async", "removeDuplicates"),
      ("combine", "removeDuplicates"), ("combine", "tryRemoveDuplicates"):
      // `true` is the call without a closure; a mapping reads as the call's labels.
      let label = ["first": "where", "min": "by", "max": "by", "removeDuplicates": "by"][step.name] ?? "by"
      let test = step.name == "first" ? expression(binding, step: "filter") : "$0 < $1"
      return random.chance(50) ? "true" : "{ \(label): '\(test)' }"
    case ("async", "contains"):
      // A mapping would read as the call's labels: the value is a number.
      if random.chance(50) { return "\(random.below(4))" }
      return "{ where: '\(expression(binding, step: "filter"))' }"
    case ("async", "chunks"):
      switch random.below(3) {
      case 0: return "\(1 + random.below(3))"
      case 1: return "{ ofCount: \(1 + random.below(3)), or: { every: \(1 + random.below(4)) } }"
      default: return "{ ofCount: \(1 + random.below(3)), or: \(readable() ?? "g0") }"
      }
    case ("async", "chunked"):
      return random.chance(50) ? "{ by: { every: \(1 + random.below(4)) } }" : "{ by: \(readable() ?? "g0") }"
    case ("async", "buffer"):
      return random.pick([
        "{ policy: unbounded }", "{ policy: { bufferingOldest: 2 } }", "{ policy: { bufferingNewest: 1 } }",
      ])
    case ("async", "share"):
      return "true"
    case ("async", "timer"):
      return random.chance(50) ? "{ interval: \(1 + random.below(4)) }" : "\(random.below(5))"
    case ("combine", "collect"):
      return random.chance(50) ? "true" : "{ count: \(1 + random.below(3)) }"
    case ("combine", "measureInterval"):
      return "true"
    case ("combine", "contains"), ("combine", "tryContains"):
      // A mapping would read as the call's labels: the value is a scalar.
      if step.name == "contains", random.chance(50) { return random.pick(["1", "2", "\"s\"", "true"]) }
      return "{ where: '\(expression(binding, step: "filter"))' }"
    case ("combine", "buffer"):
      return "{ size: \(1 + random.below(3)) }"
    case ("rxswift", "do"):
      return random.chance(50) ? "true" : "{ onNext: label\(random.below(3)) }"
    case ("rxswift", "share"):
      if random.chance(50) {
        return "{ replay: \(random.below(3)), scope: \(random.pick(["whileConnected", "forever"])) }"
      }
      return "{ replay: \(random.below(3)) }"
    case ("rxswift", "asDriver"):
      return random.chance(50) ? "{ onErrorJustReturn: \(value()) }" : "{ onErrorDriveWith: \(listed(binding)) }"
    case ("rxswift", "take"):
      return random.chance(50) ? "{ for: \(random.below(5)) }" : "\(random.below(4))"
    case ("rxswift", "sample"):
      if random.chance(50) { return "{ signal: \(listed(binding)), defaultValue: \(value()) }" }
      return listed(binding)
    case ("rxswift", "retry"):
      if random.chance(20) { return "{ when: \(listed(.error)) }" }
      return shape("retry", binding, step: step.name)
    case ("rxswift", "window"), ("rxswift", "buffer"):
      return "{ timeSpan: \(1 + random.below(5)), count: \(1 + random.below(3)) }"
    case ("rxswift", "groupBy"), ("rac2", "groupBy"):
      let key = "'" + expression(binding, step: "map") + "'"
      if step.library == "rac2", random.chance(50) { return "{ key: \(key), transform: '$0' }" }
      return step.library == "rxswift" && random.chance(50) ? "{ keySelector: \(key) }" : key
    case ("rxswift", "multicast"), ("rac2", "multicast"):
      return random.pick([
        "{ subject: publish }", "{ subject: { replay: \(random.below(3)) } }", "{ subject: { behavior: \(value()) } }",
      ])
    case ("rxswift", "range"):
      return "{ start: \(random.below(3)), count: \(random.below(4)) }"
    case ("rxswift", "generate"):
      return "{ initialState: 0, condition: '$0 < \(random.below(4))', iterate: '$0 + 1' }"
    case ("rac2", "if"):
      return "{ signal: \(listed(binding)), then: \(listed(binding)), else: \(listed(binding)) }"
    case ("rac2", "switch"):
      return
        "{ signal: \(listed(binding)), cases: { 1: \(listed(binding)), s: \(listed(binding)) }, default: \(listed(binding)) }"
    case ("rac2", "flatten"):
      return random.chance(50) ? "true" : "\(random.below(3))"
    case (_, "catch"), ("combine", "tryCatch"):
      return template(.error)
    case (_, "flatMap"), (_, "flattenMap"), (_, "flatMapLatest"), (_, "switchMap"), (_, "concatMap"),
      (_, "exhaustMap"), (_, "flatMapFirst"):
      return template(.outer)
    case (_, "from"):
      return readable() ?? "g0"
    case (_, "call"):
      return random.pick(callableServices)
    case (_, "observeOn"), (_, "deliverOn"), (_, "receiveOn"):
      return random.pick(["main", "background"])
    default:
      return shape(step.argument, binding, step: step.name)
    }
  }

  /// A value of an argument shape (`ArgumentShape`).
  mutating func shape(_ shape: String, _ binding: Binding, step: String) -> String {
    switch shape {
    case "marble": return marble(hot: step == "hot")
    case "value": return value(null: false)
    case "list": return "[" + (0..<random.below(4)).map { _ in value() }.joined(separator: ", ") + "]"
    case "legend": return "{ a: \(value()), z: \(value()) }"
    case "string": return "label\(random.below(3))"
    case "boolean": return random.pick(["true", "false"])
    case "expression": return "'" + expression(binding, step: step) + "'"
    case "true", "bare": return "true"
    case "duration": return "\(random.below(6))"
    case "positiveDuration": return "\(1 + random.below(5))"
    case "count": return "\(random.below(4))"
    case "positiveCount": return "\(1 + random.below(3))"
    case "optionalExpression": return "'" + expression(binding, step: step) + "'"
    case "signal": return signal(binding)
    case "signals":
      // Always a list: one signal written as a list of steps would read as a list of signals.
      return "[" + (0..<(1 + random.below(3))).map { _ in signal(binding) }.joined(separator: ", ") + "]"
    case "template": return template(.outer)
    case "timer":
      if random.chance(50) { return "{ after: \(random.below(4)), every: \(1 + random.below(4)) }" }
      return "\(random.below(5))"
    case "combination":
      let count = 1 + random.below(3)
      if random.chance(30) {
        return "{ " + (0..<count).map { "k\($0): \(signal(binding))" }.joined(separator: ", ") + " }"
      }
      return "[" + (0..<count).map { _ in signal(binding) }.joined(separator: ", ") + "]"
    case "retry":
      switch random.below(3) {
      case 0: return "\(random.below(3))"
      case 1: return "{ count: \(random.below(3)), delay: \(1 + random.below(3)) }"
      default: return "\(1 + random.below(2))"
      }
    default: return value()
    }
  }

  /// The extra keys of a step, each with some chance.
  mutating func extras(_ step: GraphGenerator.Step, _ binding: Binding) -> [String] {
    var pairs: [String] = []
    var trailing = false
    for key in step.extras where random.chance(35) {
      switch key {
      case "values": pairs.append("values: { a: \(value()), z: \(value()) }")
      case "error", "seed", "default": pairs.append("\(key): \(value())")
      case "with": pairs.append("with: '\(expression(binding, step: "with"))'")
      case "concurrent", "max": pairs.append("\(key): \(1 + random.below(3))")
      case "inclusive", "leading": pairs.append("\(key): \(random.pick(["true", "false"]))")
      case "trailing", "latest":
        // Aliases: one of the two.
        if trailing { continue }
        trailing = true
        pairs.append("\(key): \(random.pick(["true", "false"]))")
      case "fallback": pairs.append("fallback: \(signal(binding))")
      case "every": pairs.append("every: \(1 + random.below(4))")
      case "valuesPassingTest": pairs.append("valuesPassingTest: '\(expression(binding, step: "filter"))'")
      default: continue
      }
    }
    return pairs
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
