import FlowrunCore
import OrderedCollections

/// The names an expression can never use for a property: they always mean the built-in.
let reservedNames: Set<String> = ["outer", "input", "error", "now", "index"]

extension Compiler {
  /// The node for `$n`, as the scope binds it.
  mutating func dollar(_ n: Int, at: Int) throws(ExpressionError) -> Node {
    func unavailable(_ why: String) -> ExpressionError {
      ExpressionError(message: "'$\(n)' is not available: \(why)", offset: at)
    }
    if let method = elementMethod {
      guard n == 0 else { throw unavailable("inside '\(method)' '$0' is the element") }
      return Node { ctx in ctx.value }
    }
    switch scope.parameters {
    case .none:
      throw unavailable("no value is passed here")
    case .value:
      guard n == 0 else { throw unavailable("the value is passed whole as '$0'") }
      return Node { ctx in ctx.value }
    case .tuple(let arity):
      guard n < arity else {
        throw ExpressionError(
          message: "'$\(n)' is out of range: the value has \(arity) elements ('$0' to '$\(arity - 1)')", offset: at)
      }
      return element(n, shownAs: n, at: at)
    case .accumulator(let valueArity):
      if n == 0 { return Node { ctx in ctx.accumulator } }
      guard let arity = valueArity else {
        guard n == 1 else { throw unavailable("'$0' is the accumulator and '$1' the value") }
        return Node { ctx in ctx.value }
      }
      guard n <= arity else {
        throw ExpressionError(
          message: "'$\(n)' is out of range: '$0' is the accumulator and the value has \(arity) elements ('$1' to '$\(arity)')",
          offset: at)
      }
      return element(n - 1, shownAs: n, at: at)
    case .keyed(let names):
      guard n == 0 else {
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        throw unavailable("the value is a keyed map; use its keys (\(list)) or '$0'")
      }
      return Node { ctx in ctx.value }
    }
  }

  /// Element `i` of the list value; `$i` names it in messages.
  private func element(_ i: Int, shownAs name: Int, at: Int) -> Node {
    return Node { ctx throws(EvaluationError) in
      let value = ctx.value
      if case .list(let items) = value, i < items.count { return items[i] }
      throw failure("'$\(name)' needs a list of \(i + 1) or more values, got \(value.kindName)", at)
    }
  }

  /// Resolves a dotted chain of names: a reserved name, a key name, or the longest property
  /// prefix; the rest of the chain reads members.
  mutating func resolve(_ chain: [(String, Int)]) throws(ExpressionError) -> Node {
    let (first, firstOffset) = chain[0]
    var base: Node
    var used = 1
    if reservedNames.contains(first) {
      base = try reserved(first, at: firstOffset)
    } else if elementMethod == nil, case .keyed(let names) = scope.parameters, names.contains(first) {
      base = Node { ctx throws(EvaluationError) in
        if case .map(let entries) = ctx.value { return entries[first] ?? .null }
        throw failure("'\(first)' needs a keyed map value, got \(ctx.value.kindName)", firstOffset)
      }
    } else if let (slot, length) = longestProperty(chain) {
      usedSlots.insert(slot)
      let name = scope.properties[slot]
      base = Node { ctx throws(EvaluationError) in
        guard let reader = ctx.properties else {
          throw failure("property '\(name)' is not available", firstOffset)
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
    var names: [String] = []
    var name = ""
    for (component, _) in chain {
      name = name.isEmpty ? component : name + "." + component
      names.append(name)
    }
    for length in stride(from: names.count, through: 1, by: -1) {
      if let slot = slots[names[length - 1]] { return (slot, length) }
    }
    return nil
  }

  private mutating func reserved(_ name: String, at: Int) throws(ExpressionError) -> Node {
    func unbound(_ where_: String) -> ExpressionError {
      ExpressionError(message: "'\(name)' is only available \(where_)", offset: at)
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
      if let close = suggestion(for: prefix, among: all) {
        return ExpressionError(message: "unknown name '\(prefix)'; did you mean '\(close)'?", offset: chain[0].1)
      }
    }
    let first = chain[0].0
    let isTarget = prefixes.count > 1 && scope.properties.contains { $0.hasPrefix(first + ".") }
    return ExpressionError(message: "unknown name '\(isTarget ? prefixes[1] : first)'", offset: chain[0].1)
  }
}
