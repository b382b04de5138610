/// The arguments of the generated steps: each step's own argument by its shape in the step
/// table, and the extra keys some steps take.
extension GraphWriter {
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
      switch step.library {
      case "rac2"? where random.chance(50): return "{ key: \(key), transform: '$0' }"
      case "rxswift"? where random.chance(50): return "{ keySelector: \(key) }"
      default: return key
      }
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
    var seeded = false
    for key in step.extras where random.chance(35) {
      switch key {
      case "values": pairs.append("values: { a: \(value()), z: \(value()) }")
      case "error", "default": pairs.append("\(key): \(value())")
      case "seed", "into":
        // Two words for the initial value (async's reductions(into:)): one of the two.
        if seeded { continue }
        seeded = true
        pairs.append("\(key): \(value())")
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
}
