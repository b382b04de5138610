import FlowrunCore
import FlowrunDiagnostics
import OrderedCollections

/// Whether `name` is one an expression can never use for a property: it always means the
/// built-in.
func isReservedName(_ name: String) -> Bool {
  switch name {
  case "outer", "input", "error", "now", "index": true
  default: false
  }
}

/// What `$n` reads from the context, as the scope binds it.
enum Parameter: Sendable {
  case value
  case accumulator
  /// Element `index` of the list value; `$shownAs` names it in messages, at offset `at`.
  case element(index: Int, shownAs: Int, at: Int)

  /// The parameter's value in `ctx`.
  @inline(__always)
  func read(_ ctx: EvalContext) throws(EvaluationError) -> Value {
    switch self {
    case .value:
      return ctx.value
    case .accumulator:
      return ctx.accumulator
    case .element(let i, let name, let at):
      if case .list(let items) = ctx.value, i < items.count { return items[i] }
      throw failure(.parameterNeedsList(name, count: i + 1, got: ctx.value), at)
    }
  }
}

extension Compiler {
  /// The node for `$n`.
  func dollar(_ n: Int, at: Int) throws(ExpressionError) -> Node {
    switch try parameter(n, at: at) {
    case .value: Node { ctx in ctx.value }
    case .accumulator: Node { ctx in ctx.accumulator }
    case let element: Node { ctx throws(EvaluationError) in try element.read(ctx) }
    }
  }

  /// What `$n` reads, as the scope binds it.
  func parameter(_ n: Int, at: Int) throws(ExpressionError) -> Parameter {
    func unavailable(_ why: String) -> ExpressionError {
      ExpressionError(message: .parameterUnavailable(n, why), offset: at)
    }
    if let method = elementMethod {
      guard n == 0 else { throw unavailable("inside '\(method)' '$0' is the element") }
      return .value
    }
    switch scope.parameters {
    case .unknown:
      return .value
    case .none:
      throw unavailable("no value is passed here")
    case .value:
      guard n == 0 else { throw unavailable("the value is passed whole as '$0'") }
      return .value
    case .tuple(let arity):
      guard n < arity else {
        throw ExpressionError(message: .parameterOutOfRange(n, arity: arity), offset: at)
      }
      return .element(index: n, shownAs: n, at: at)
    case .accumulator(let valueArity):
      if n == 0 { return .accumulator }
      guard let arity = valueArity else {
        guard n == 1 else { throw unavailable("'$0' is the accumulator and '$1' the value") }
        return .value
      }
      guard n <= arity else {
        throw ExpressionError(message: .parameterOutOfRange(n, accumulatorAndArity: arity), offset: at)
      }
      return .element(index: n - 1, shownAs: n, at: at)
    case .keyed(let names):
      guard n == 0 else {
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        throw unavailable("the value is a keyed map; use its keys (\(list)) or '$0'")
      }
      return .value
    }
  }

  /// Resolves a dotted chain of names: a reserved name, a key name, or the longest property
  /// prefix; the rest of the chain reads members.
  func resolve(_ chain: [(String, Int)]) throws(ExpressionError) -> Node {
    let (first, firstOffset) = chain[0]
    var base: Node
    var used = 1
    if isReservedName(first) {
      base = try reserved(first, at: firstOffset)
    } else if elementMethod == nil, case .keyed(let names) = scope.parameters, names.contains(first) {
      base = Node { ctx throws(EvaluationError) in
        if case .map(let entries) = ctx.value { return entries[first] ?? .null }
        throw failure(.keyNeedsMap(first, got: ctx.value), firstOffset)
      }
    } else if elementMethod == nil, scope.parameters == .unknown, longestProperty(chain) == nil {
      // Maybe a key of a value whose shape is unknown: never run (see `Parameters.unknown`).
      base = Node { ctx in ctx.value }
    } else if let (slot, length) = longestProperty(chain) {
      usedSlots.insert(slot)
      let name = scope.properties[slot]
      base = Node { ctx throws(EvaluationError) in
        guard let reader = ctx.properties else {
          throw failure(.propertyUnavailable(name), firstOffset)
        }
        return reader.propertyValue(at: slot)
      }
      used = length
    } else {
      throw unknownName(chain)
    }
    for (name, offset) in chain[used...] {
      base = memberRead(base, Member(name), at: offset)
    }
    return base
  }

  private func longestProperty(_ chain: [(String, Int)]) -> (slot: Int, length: Int)? {
    if scope.properties.isEmpty { return nil }
    if chain.count == 1 { return slot(of: chain[0].0).map { ($0, 1) } }
    var names: [String] = []
    var name = ""
    for (component, _) in chain {
      name = name.isEmpty ? component : name + "." + component
      names.append(name)
    }
    for length in stride(from: names.count, through: 1, by: -1) {
      if let slot = slot(of: names[length - 1]) { return (slot, length) }
    }
    return nil
  }

  private func reserved(_ name: String, at: Int) throws(ExpressionError) -> Node {
    func unbound(_ place: String) -> ExpressionError {
      ExpressionError(message: .onlyAvailable(name, place), offset: at)
    }
    switch name {
    case "now":
      usesNow = true
      return Node { ctx in .int(ctx.now) }
    case "index":
      guard scope.indexAvailable else {
        throw unbound("in 'map', 'filter', 'takeWhile', 'skipWhile', 'scan' and templates of the 'flatMap' family")
      }
      usesIndex = true
      return Node { ctx in .int(ctx.index) }
    case "outer":
      guard scope.templateNames.contains(.outer) else { throw unbound("inside a template") }
      return Node { ctx in ctx.outer }
    case "input":
      guard scope.templateNames.contains(.input) else { throw unbound("inside a command's work or a service") }
      return Node { ctx in ctx.input }
    default:
      guard scope.templateNames.contains(.error) else { throw unbound("inside 'catch'") }
      return Node { ctx in ctx.error }
    }
  }

  /// The names a mistyped name could have meant.
  private var candidates: [String] {
    var names: [String] = ["now"]
    if scope.indexAvailable { names.append("index") }
    if scope.templateNames.contains(.outer) { names.append("outer") }
    if scope.templateNames.contains(.input) { names.append("input") }
    if scope.templateNames.contains(.error) { names.append("error") }
    if elementMethod == nil, case .keyed(let keys) = scope.parameters { names += keys }
    return names + scope.properties
  }

  /// `unknown name 'x'`, naming the part of the chain that is unknown, with a suggestion.
  private func unknownName(_ chain: [(String, Int)]) -> ExpressionError {
    let all = candidates
    var name = ""
    var prefixes: [String] = []
    for (component, _) in chain {
      name = name.isEmpty ? component : name + "." + component
      prefixes.append(name)
    }
    for prefix in prefixes.reversed() {
      let message = Diagnostic.Message.unknownName(prefix).suggesting(prefix, among: all)
      if message != .unknownName(prefix) { return ExpressionError(message: message, offset: chain[0].1) }
    }
    let first = chain[0].0
    let isTarget = prefixes.count > 1 && scope.properties.contains { $0.hasPrefix(first + ".") }
    return ExpressionError(message: .unknownName(isTarget ? prefixes[1] : first), offset: chain[0].1)
  }
}

extension Diagnostic.Message {
  fileprivate static func parameterUnavailable(_ n: Int, _ why: String) -> Self { "'$\(n)' is not available: \(why)" }
  fileprivate static func parameterOutOfRange(_ n: Int, arity: Int) -> Self {
    "'$\(n)' is out of range: the value has \(arity) elements ('$0' to '$\(arity - 1)')"
  }
  fileprivate static func parameterOutOfRange(_ n: Int, accumulatorAndArity arity: Int) -> Self {
    "'$\(n)' is out of range: '$0' is the accumulator and the value has \(arity) elements ('$1' to '$\(arity)')"
  }
  fileprivate static func parameterNeedsList(_ name: Int, count: Int, got value: Value) -> Self {
    "'$\(name)' needs a list of \(count) or more values, got \(value.kindName)"
  }
  fileprivate static func keyNeedsMap(_ key: String, got value: Value) -> Self {
    "'\(key)' needs a keyed map value, got \(value.kindName)"
  }
  fileprivate static func propertyUnavailable(_ name: String) -> Self { "property '\(name)' is not available" }
  fileprivate static func onlyAvailable(_ name: String, _ place: String) -> Self {
    "'\(name)' is only available \(place)"
  }
  fileprivate static func unknownName(_ name: String) -> Self { "unknown name '\(name)'" }
}
