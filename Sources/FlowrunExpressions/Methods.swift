import FlowrunCore
import FlowrunDiagnostics
import OrderedCollections

/// A regular expression compiled once; `Regex` holds no mutable state after it is built.
/// A regular expression compiled once, with the budget of its work (`RegexBudget`); `Regex` holds
/// no mutable state after it is built.
final class CompiledRegex: @unchecked Sendable {
  let pattern: String
  let regex: Regex<AnyRegexOutput>
  let budget: RegexBudget

  init(_ pattern: String, _ regex: Regex<AnyRegexOutput>, _ budget: RegexBudget) {
    self.pattern = pattern
    self.regex = regex
    self.budget = budget
  }

  /// Whether the whole of `s` matches; an error when the match could take more work than the
  /// budget allows.
  func wholeMatches(_ s: String, at: Int) throws(EvaluationError) -> Bool {
    let length = s.count
    guard budget.allows(length: length) else { throw failure(.regexWorkLimit(pattern, length: length), at) }
    return s.wholeMatch(of: regex) != nil
  }
}

/// How many arguments each method takes.
let methodArity: [String: ClosedRange<Int>] = [
  "contains": 1...1, "hasPrefix": 1...1, "hasSuffix": 1...1, "uppercased": 0...0, "lowercased": 0...0,
  "trimmed": 0...0, "split": 1...1, "joined": 0...1, "prefix": 1...1, "suffix": 1...1,
  "dropFirst": 0...1, "dropLast": 0...1, "reversed": 0...0, "sorted": 0...0, "map": 1...1,
  "filter": 1...1, "matches": 1...1,
]

extension Diagnostic.Message {
  /// `'name' takes 1 argument, got 2`.
  static func wrongArity(_ name: String, _ arity: ClosedRange<Int>, got: Int) -> Self {
    let expected: String
    if arity.upperBound == Int.max {
      expected = "needs at least \(arity.lowerBound) arguments"
    } else if arity.lowerBound == arity.upperBound {
      let n = arity.lowerBound
      expected = n == 0 ? "takes no arguments" : "takes \(n) argument\(n == 1 ? "" : "s")"
    } else {
      expected = "takes \(arity.lowerBound) or \(arity.upperBound) argument\(arity.upperBound == 1 ? "" : "s")"
    }
    return "'\(name)' \(expected), got \(got)"
  }
}

/// `unknown method 'x'`, with a hint: a close method, or the member meant (`count` for
/// `length()` and `size()`; `isEmpty` and the other members take no `()`).
private func unknownMethod(_ name: String) -> Diagnostic.Message {
  let message = Diagnostic.Message.unknownMethod(name)
  if name == "length" || name == "size" { return "\(message); did you mean the member 'count'?" }
  if case .key = Member(name) {
    return message.suggesting(name, among: methodArity.keys.sorted())
  }
  return "\(message); '\(name)' is a member: write '.\(name)' without '()'"
}

extension Compiler {
  func compileMethod(
    _ receiver: ExprID, name: String, at: Int, arguments: [ExprID]
  ) throws(ExpressionError) -> Node {
    guard let arity = methodArity[name] else {
      throw ExpressionError(message: unknownMethod(name), offset: at)
    }
    guard arity.contains(arguments.count) else {
      throw ExpressionError(message: .wrongArity(name, arity, got: arguments.count), offset: at)
    }
    let base = try compile(receiver)
    let be = base.eval
    if name == "map" || name == "filter" {
      let saved = elementMethod
      elementMethod = name
      let body = try compile(arguments[0])
      elementMethod = saved
      return elementwise(name, be, body.eval, at: at, bodyAt: tree.offset(arguments[0]))
    }
    if name == "matches", let literal = try literalPattern(arguments[0]) {
      return folded(
        Node { ctx throws(EvaluationError) in
          let s = try be(ctx)
          guard case .string(let text) = s else { throw failure(.cannotCall("matches", on: s), at) }
          return .bool(try literal.wholeMatches(text, at: at))
        }, [base])
    }
    let args = try arguments.map { (argument) throws(ExpressionError) in try compile(argument) }
    let argEvals = args.map(\.eval)
    let argAt = arguments.first.map { tree.offset($0) } ?? at
    let op = Compiler.method(name, at: at, argAt: argAt)
    switch argEvals.count {
    case 0:
      return folded(Node { ctx throws(EvaluationError) in try op(try be(ctx), nil) }, [base])
    default:
      let ae = argEvals[0]
      return folded(Node { ctx throws(EvaluationError) in try op(try be(ctx), try ae(ctx)) }, [base] + args)
    }
  }

  /// The compiled regex of a literal pattern, or nil when the pattern is not a literal.
  private func literalPattern(_ argument: ExprID) throws(ExpressionError) -> CompiledRegex? {
    guard case .literal(.string(let pattern)) = tree[argument].kind else { return nil }
    let regex: Regex<AnyRegexOutput>
    do {
      regex = try Regex(pattern)
    } catch {
      throw ExpressionError(message: .invalidRegex(pattern), offset: tree.offset(argument))
    }
    guard let budget = RegexBudget(pattern) else {
      throw ExpressionError(message: .nestedRepetition(pattern), offset: tree.offset(argument))
    }
    return CompiledRegex(pattern, regex, budget)
  }

  /// `.map(body)` / `.filter(body)`: the body runs with `$0` set to each element.
  private func elementwise(_ name: String, _ be: @escaping Eval, _ body: @escaping Eval, at: Int, bodyAt: Int) -> Node {
    let isFilter = name == "filter"
    return Node { ctx throws(EvaluationError) in
      let receiver = try be(ctx)
      var inner = ctx
      let meter = ctx.meter ?? EvaluationMeter()
      inner.meter = meter
      func keep(_ element: Value) throws(EvaluationError) -> Bool {
        inner.value = element
        let result = try body(inner)
        guard case .bool(let b) = result else { throw failure(.needsBool("filter", got: result), bodyAt) }
        return b
      }
      switch receiver {
      case .list(let items):
        var out: [Value] = []
        out.reserveCapacity(items.count)
        for item in items {
          try meter.charge(1, at: at)
          if isFilter {
            if try keep(item) { out.append(item) }
          } else {
            inner.value = item
            out.append(try body(inner))
          }
        }
        return .list(out)
      case .string(let s):
        if isFilter {
          var out = ""
          for c in s {
            try meter.charge(1, at: at)
            if try keep(.string(String(c))) { out.append(c) }
          }
          return .string(out)
        }
        var out: [Value] = []
        for c in s {
          try meter.charge(1, at: at)
          inner.value = .string(String(c))
          out.append(try body(inner))
        }
        return .list(out)
      default:
        throw wrongKind(.cannotCall(name, on: receiver), receiver, member: name, at)
      }
    }
  }

  /// The operation of a method with at most one argument.
  static func method(
    _ name: String, at: Int, argAt: Int
  ) -> @Sendable (Value, Value?) throws(EvaluationError) -> Value {
    let wrongReceiver = { @Sendable (v: Value) -> EvaluationError in
      wrongKind(.cannotCall(name, on: v), v, member: name, at)
    }
    let wrongArgument = { @Sendable (what: String, v: Value?) -> EvaluationError in
      failure(.methodNeeds(name, what, got: v), argAt)
    }
    @Sendable func string(_ v: Value?) throws(EvaluationError) -> String {
      guard case .string(let s)? = v else { throw wrongArgument("a String", v) }
      return s
    }
    @Sendable func count(_ v: Value?, default d: Int) throws(EvaluationError) -> Int {
      guard let v else { return d }
      guard case .int(let n) = v, n >= 0 else { throw wrongArgument("a non-negative Int", v) }
      return n
    }
    switch name {
    case "contains":
      return { r, a throws(EvaluationError) in
        switch r {
        case .string(let s): return .bool(s.contains(try string(a)))
        case .list(let items): return .bool(a.map { items.contains($0) } ?? false)
        case .map(let entries): return .bool(entries[try string(a)] != nil)
        default: throw wrongReceiver(r)
        }
      }
    case "hasPrefix", "hasSuffix":
      let isPrefix = name == "hasPrefix"
      return { r, a throws(EvaluationError) in
        guard case .string(let s) = r else { throw wrongReceiver(r) }
        let affix = try string(a)
        return .bool(isPrefix ? s.hasPrefix(affix) : s.hasSuffix(affix))
      }
    case "uppercased", "lowercased", "trimmed":
      return { r, _ throws(EvaluationError) in
        guard case .string(let s) = r else { throw wrongReceiver(r) }
        switch name {
        case "uppercased": return .string(s.uppercased())
        case "lowercased": return .string(s.lowercased())
        default: return .string(trimmed(s))
        }
      }
    case "split":
      return { r, a throws(EvaluationError) in
        guard case .string(let s) = r else { throw wrongReceiver(r) }
        let separator = try string(a)
        guard !separator.isEmpty else { throw wrongArgument("a non-empty separator", a) }
        let parts = s.split(separator: separator)
        try ValueGuard.checkCount(parts.count, at: at)
        return .list(parts.map { .string(String($0)) })
      }
    case "joined":
      return { r, a throws(EvaluationError) in
        guard case .list(let items) = r else { throw wrongReceiver(r) }
        let separator = a == nil ? "" : try string(a)
        var parts: [String] = []
        parts.reserveCapacity(items.count)
        var length = 0
        for item in items {
          guard case .string(let s) = item else {
            throw failure(.listNeeds("joined", "of Strings", got: item), at)
          }
          parts.append(s)
          length += s.utf8.count + separator.utf8.count
          try ValueGuard.checkString(length, at: at)
        }
        return .string(parts.joined(separator: separator))
      }
    case "prefix", "suffix", "dropFirst", "dropLast":
      return { r, a throws(EvaluationError) in
        let n = try count(a, default: 1)
        switch r {
        case .string(let s): return .string(String(slice(s, name, n)))
        case .list(let items): return .list(Array(slice(items, name, n)))
        default: throw wrongReceiver(r)
        }
      }
    case "reversed":
      return { r, _ throws(EvaluationError) in
        switch r {
        case .string(let s): return .string(String(s.reversed()))
        case .list(let items): return .list(items.reversed())
        default: throw wrongReceiver(r)
        }
      }
    case "sorted":
      return { r, _ throws(EvaluationError) in
        guard case .list(let items) = r else { throw wrongReceiver(r) }
        return .list(try sortedValues(items, at))
      }
    default:  // matches, with a pattern computed at run time
      return { r, a throws(EvaluationError) in
        guard case .string(let s) = r else { throw wrongReceiver(r) }
        let pattern = try string(a)
        guard let regex = try? Regex(pattern) else {
          throw failure(.invalidRegex(pattern), argAt)
        }
        guard let budget = RegexBudget(pattern) else { throw failure(.nestedRepetition(pattern), argAt) }
        return .bool(try CompiledRegex(pattern, regex, budget).wholeMatches(s, at: at))
      }
    }
  }
}

/// `s` without leading and trailing whitespace and newlines.
func trimmed(_ s: String) -> String {
  guard let start = s.firstIndex(where: { !$0.isWhitespace }),
    let end = s.lastIndex(where: { !$0.isWhitespace })
  else { return "" }
  return String(s[start...end])
}

/// `prefix`, `suffix`, `dropFirst` or `dropLast` of a collection.
func slice<C: BidirectionalCollection>(_ c: C, _ name: String, _ n: Int) -> C.SubSequence {
  switch name {
  case "prefix": c.prefix(n)
  case "suffix": c.suffix(n)
  case "dropFirst": c.dropFirst(n)
  default: c.dropLast(n)
  }
}

/// The values sorted ascending: all numbers, or all strings.
func sortedValues(_ items: [Value], _ at: Int) throws(EvaluationError) -> [Value] {
  if items.allSatisfy({ if case .string = $0 { true } else { false } }) {
    return items.sorted { a, b in
      if case .string(let x) = a, case .string(let y) = b { return x < y }
      return false
    }
  }
  var numbers: [(Double, Value)] = []
  numbers.reserveCapacity(items.count)
  for item in items {
    switch item {
    case .int(let i):
      numbers.append((Double(i), item))
    case .double(let d):
      numbers.append((d, item))
    default:
      throw failure(.listNeeds("sorted", "of numbers or of Strings", got: item), at)
    }
  }
  let allInts = items.allSatisfy { if case .int = $0 { true } else { false } }
  if allInts {
    return items.sorted { a, b in
      if case .int(let x) = a, case .int(let y) = b { return x < y }
      return false
    }
  }
  return numbers.sorted { $0.0 < $1.0 }.map(\.1)
}

extension Diagnostic.Message {
  fileprivate static func unknownMethod(_ name: String) -> Self { "unknown method '\(name)'" }
  fileprivate static func methodNeeds(_ method: String, _ what: String, got value: Value?) -> Self {
    "'\(method)' needs \(what), got \(value?.kindName ?? "nothing")"
  }
  fileprivate static func listNeeds(_ method: String, _ elements: String, got element: Value) -> Self {
    "'\(method)' needs a list \(elements), got \(element.kindName) in it"
  }
}
