import FlowrunCore
import FlowrunDiagnostics
import OrderedCollections

/// The compiled form of a sub-expression: a closure evaluated against a context.
typealias Eval = @Sendable (EvalContext) throws(EvaluationError) -> Value

/// A compiled sub-expression: a closure, or its value when it is known at compile time.
struct Node: Sendable {
  private enum Form: Sendable {
    case computed(Eval)
    case constant(Value)
  }

  private let form: Form

  init(_ eval: @escaping Eval) {
    form = .computed(eval)
  }

  init(constant value: Value) {
    form = .constant(value)
  }

  /// The closure that evaluates the node; a constant's is made only when asked for (an operand
  /// folded into its operator's closure needs none).
  var eval: Eval {
    switch form {
    case .computed(let eval): eval
    case .constant(let value): { _ in value }
    }
  }

  /// The value, when it is known at compile time.
  var constant: Value? {
    if case .constant(let value) = form { value } else { nil }
  }
}

/// Turns a parsed tree into closures, resolving every name at compile time.
final class Compiler {
  let scope: ExpressionScope
  let tree: SyntaxTree
  /// The slot of each property name, built on the first look-up in a long property list.
  private var slotIndex: [String: Int]?
  var usesIndex = false
  var usesNow = false
  var usedSlots: Set<Int> = []
  /// The method (`map`/`filter`) whose argument is being compiled, where `$0` is the element.
  var elementMethod: String?

  init(scope: ExpressionScope, tree: SyntaxTree) {
    self.scope = scope
    self.tree = tree
  }

  /// The slot of the property `name`: its first position in the scope's list.
  func slot(of name: String) -> Int? {
    let properties = scope.properties
    guard properties.count > 16 else { return properties.firstIndex(of: name) }
    if slotIndex == nil {
      var index: [String: Int] = [:]
      index.reserveCapacity(properties.count)
      for (slot, name) in properties.enumerated() where index[name] == nil { index[name] = slot }
      slotIndex = index
    }
    return slotIndex?[name]
  }

  /// `node`, or its value when its child is a known constant and evaluation succeeds.
  func folded(_ node: Node, _ child: Node) -> Node {
    child.constant == nil ? node : evaluatedNow(node)
  }

  /// `node`, or its value when both children are known constants and evaluation succeeds.
  func folded(_ node: Node, _ first: Node, _ second: Node) -> Node {
    first.constant == nil || second.constant == nil ? node : evaluatedNow(node)
  }

  /// `node`, or its value when every child is a known constant and evaluation succeeds.
  func folded(_ node: Node, _ children: [Node]) -> Node {
    children.allSatisfy({ $0.constant != nil }) ? evaluatedNow(node) : node
  }

  /// The value of `node`, whose children are all constants, when its evaluation succeeds.
  private func evaluatedNow(_ node: Node) -> Node {
    guard let value = try? node.eval(EvalContext()) else { return node }
    return Node(constant: value)
  }

  func compile(_ id: ExprID) throws(ExpressionError) -> Node {
    let expr = tree[id]
    switch expr.kind {
    case .literal(let value):
      return Node(constant: value)
    case .string(let segments):
      return try compileString(segments)
    case .list(let items):
      let at = expr.offset
      let nodes = try items.map { (item) throws(ExpressionError) in try compile(item) }
      let evals = nodes.map(\.eval)
      return folded(
        Node { ctx throws(EvaluationError) in
          var out: [Value] = []
          out.reserveCapacity(evals.count)
          for eval in evals { out.append(try eval(ctx)) }
          let list = Value.list(out)
          try ValueGuard.checkDeep(list, at: at)
          return list
        }, nodes)
    case .map(let entries):
      return try compileMap(entries)
    case .dollar(let n):
      return try dollar(n, at: expr.offset)
    case .name(let name):
      return try resolve([(name, expr.offset)])
    case .member(let base, let name, let nameOffset):
      if let chain = nameChain(id) { return try resolve(chain) }
      if case .dollar(let n) = tree[base].kind {
        if n == 0, scope.parameters == .value, let values = scope.knownValues {
          try checkMember(name, of: values, at: nameOffset)
        }
        return memberRead(of: try parameter(n, at: tree.offset(base)), Member(name), at: nameOffset)
      }
      return memberRead(try compile(base), Member(name), at: nameOffset)
    case .subscripted(let base, let index, let bracketOffset):
      let b = try compile(base)
      let i = try compile(index)
      let (be, ie) = (b.eval, i.eval)
      return folded(
        Node { ctx throws(EvaluationError) in try subscriptValue(try be(ctx), try ie(ctx), bracketOffset) }, b, i)
    case .method(let base, let name, let nameOffset, let arguments):
      return try compileMethod(base, name: name, at: nameOffset, arguments: arguments)
    case .call(let name, let arguments):
      return try compileCall(name, at: expr.offset, arguments: arguments)
    case .unary(let op, let operand):
      let o = try compile(operand)
      let oe = o.eval
      let at = expr.offset
      switch op {
      case .not: return folded(Node { ctx throws(EvaluationError) in try Ops.not(try oe(ctx), at) }, o)
      case .negate: return folded(Node { ctx throws(EvaluationError) in try Ops.negate(try oe(ctx), at) }, o)
      }
    case .binary(let op, let lhs, let rhs, let operatorOffset):
      return try compileBinary(op, lhs, rhs, at: operatorOffset)
    case .conditional(let condition, let then, let otherwise):
      let c = try compile(condition)
      let t = try compile(then)
      let f = try compile(otherwise)
      if case .bool(let b)? = c.constant { return b ? t : f }
      let (ce, te, fe) = (c.eval, t.eval, f.eval)
      let at = tree.offset(condition)
      return Node { ctx throws(EvaluationError) in
        let value = try ce(ctx)
        guard case .bool(let b) = value else {
          throw failure(.conditionNeedsBool(got: value), at)
        }
        return b ? try te(ctx) : try fe(ctx)
      }
    }
  }

  private func compileString(_ segments: [StringSegment]) throws(ExpressionError) -> Node {
    enum Piece: Sendable {
      case text(String)
      case eval(Eval, at: Int)
    }
    var pieces: [Piece] = []
    var nodes: [Node] = []
    for segment in segments {
      switch segment {
      case .text(let text):
        pieces.append(.text(text))
      case .expression(let expr):
        let node = try compile(expr)
        nodes.append(node)
        pieces.append(.eval(node.eval, at: tree.offset(expr)))
      }
    }
    let parts = pieces
    return folded(
      Node { ctx throws(EvaluationError) in
        var out = ""
        for part in parts {
          switch part {
          case .text(let text): out += text
          case .eval(let eval, let at):
            let value = try eval(ctx)
            try ValueGuard.checkDeep(value, at: at)
            out += Ops.text(value)
            try ValueGuard.checkString(out.utf8.count, at: at)
          }
        }
        return .string(out)
      }, nodes)
  }

  private func compileMap(_ entries: [(key: ExprID, value: ExprID)]) throws(ExpressionError) -> Node {
    var seen: Set<String> = []
    var keys: [Node] = []
    var values: [Node] = []
    for entry in entries {
      let key = try compile(entry.key)
      if let constant = key.constant {
        guard case .string(let name) = constant else {
          throw ExpressionError(message: .mapKeyNotString(constant), offset: tree.offset(entry.key))
        }
        guard seen.insert(name).inserted else {
          throw ExpressionError(message: .duplicateKey(name), offset: tree.offset(entry.key))
        }
      }
      keys.append(key)
      values.append(try compile(entry.value))
    }
    let mapAt = entries.first.map { tree.offset($0.key) } ?? 0
    let pairs = zip(keys, zip(values, entries)).map { ($0.0.eval, $0.1.0.eval, tree.offset($0.1.1.key)) }
    return folded(
      Node { ctx throws(EvaluationError) in
        var out = OrderedDictionary<String, Value>(minimumCapacity: pairs.count)
        for (keyEval, valueEval, at) in pairs {
          let key = try keyEval(ctx)
          guard case .string(let name) = key else {
            throw failure(.mapKeyNotString(key), at)
          }
          out[name] = try valueEval(ctx)
        }
        let map = Value.map(out)
        try ValueGuard.checkDeep(map, at: mapAt)
        return map
      }, keys + values)
  }

  private func compileBinary(
    _ op: BinaryOp, _ lhs: ExprID, _ rhs: ExprID, at: Int
  ) throws(ExpressionError) -> Node {
    let l = try compile(lhs)
    let r = try compile(rhs)
    // Closures are taken from the operands only where used: a constant makes one on demand.
    switch op {
    case .and, .or:
      let (le, re) = (l.eval, r.eval)
      let (lat, rat) = (tree.offset(lhs), tree.offset(rhs))
      let isAnd = op == .and
      let name = op.rawValue
      return folded(
        Node { ctx throws(EvaluationError) in
          let a = try le(ctx)
          guard case .bool(let x) = a else { throw failure(.needsBool(name, got: a), lat) }
          if x != isAnd { return a }
          let b = try re(ctx)
          guard case .bool = b else { throw failure(.needsBool(name, got: b), rat) }
          return b
        }, l, r)
    case .coalesce:
      if let constant = l.constant { return constant.isNull ? r : l }
      let (le, re) = (l.eval, r.eval)
      return Node { ctx throws(EvaluationError) in
        let a = try le(ctx)
        if case .null = a { return try re(ctx) }
        return a
      }
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
      let le = l.eval
      if case .int(let k)? = r.constant, let rhs = r.constant {
        return folded(
          Node { ctx throws(EvaluationError) in
            let a = try le(ctx)
            if case .int(let x) = a { return .bool(Ops.ordered(op, x, k)) }
            return .bool(try Ops.compare(op, a, rhs, at))
          }, l, r)
      }
      let re = r.eval
      return folded(
        Node { ctx throws(EvaluationError) in .bool(try Ops.compare(op, try le(ctx), try re(ctx), at)) }, l, r)
    case .add, .subtract, .multiply, .divide, .remainder:
      let le = l.eval
      if case .int(let k)? = r.constant {
        return folded(arithmeticWithConstant(op, le, k, at), l, r)
      }
      let re = r.eval
      let f = Compiler.arithmetic(op)
      return folded(Node { ctx throws(EvaluationError) in try f(try le(ctx), try re(ctx), at) }, l, r)
    }
  }

  static func arithmetic(_ op: BinaryOp) -> @Sendable (Value, Value, Int) throws(EvaluationError) -> Value {
    switch op {
    case .subtract: Ops.subtract
    case .multiply: Ops.multiply
    case .divide: Ops.divide
    case .remainder: Ops.remainder
    default: Ops.add
    }
  }

  /// `lhs op k` for a constant Int `k`, with the Int case inline.
  private func arithmeticWithConstant(_ op: BinaryOp, _ le: @escaping Eval, _ k: Int, _ at: Int) -> Node {
    let rhs = Value.int(k)
    let f = Compiler.arithmetic(op)
    switch op {
    case .add:
      return Node { ctx throws(EvaluationError) in
        let a = try le(ctx)
        if case .int(let x) = a {
          let (sum, overflow) = x.addingReportingOverflow(k)
          if !overflow { return .int(sum) }
        }
        return try f(a, rhs, at)
      }
    case .subtract:
      return Node { ctx throws(EvaluationError) in
        let a = try le(ctx)
        if case .int(let x) = a {
          let (difference, overflow) = x.subtractingReportingOverflow(k)
          if !overflow { return .int(difference) }
        }
        return try f(a, rhs, at)
      }
    default:
      return Node { ctx throws(EvaluationError) in try f(try le(ctx), rhs, at) }
    }
  }

  /// Reads `member` of the value `base` evaluates to.
  func memberRead(_ base: Node, _ member: Member, at: Int) -> Node {
    let be = base.eval
    if case .count = member {
      return folded(Node { ctx throws(EvaluationError) in try Member.count(of: try be(ctx), at) }, base)
    }
    return folded(Node { ctx throws(EvaluationError) in try member.read(try be(ctx), at) }, base)
  }

  /// Reads `member` of the parameter `p` (`$0.count`), in one closure.
  func memberRead(of p: Parameter, _ member: Member, at: Int) -> Node {
    if case .count = member {
      return Node { ctx throws(EvaluationError) in try Member.count(of: try p.read(ctx), at) }
    }
    return Node { ctx throws(EvaluationError) in try member.read(try p.read(ctx), at) }
  }

  /// The names of a dotted chain `a.b.c` with their offsets, or nil when the base is not a name
  /// (found before any array is made: `$0.count` needs none).
  private func nameChain(_ id: ExprID) -> [(String, Int)]? {
    var root = id
    var length = 1
    while case .member(let base, _, _) = tree[root].kind {
      root = base
      length += 1
    }
    guard case .name(let name) = tree[root].kind else { return nil }
    var components = [(String, Int)](repeating: (name, tree.offset(root)), count: length)
    var node = id
    for i in stride(from: length - 1, to: 0, by: -1) {
      guard case .member(let base, let name, let nameOffset) = tree[node].kind else { break }
      components[i] = (name, nameOffset)
      node = base
    }
    return components
  }
}

extension Diagnostic.Message {
  fileprivate static func conditionNeedsBool(got value: Value) -> Self {
    "the condition of '?:' needs a Bool, got \(value.kindName)"
  }
  fileprivate static func duplicateKey(_ key: String) -> Self { "duplicate key '\(key)'" }

}

extension Compiler {
  /// A member that none of `values` has (`$0.length` when every value is a string) is an error
  /// at load time, with the member they have that was likely meant.
  func checkMember(_ name: String, of values: [Value], at offset: Int) throws(ExpressionError) {
    let member = Member(name)
    guard !values.isEmpty, !values.contains(where: { (try? member.read($0, offset)) != nil }) else { return }
    var kinds: [String] = []
    for value in values where !kinds.contains(value.kindName) { kinds.append(value.kindName) }
    let readable = ["count", "isEmpty", "first", "last", "keys", "values"].filter { candidate in
      values.contains { (try? Member(candidate).read($0, offset)) != nil }
    }
    var message = "no value of '$0' has '\(name)' (its values are \(kinds.joined(separator: ", ")))"
    let synonyms = [
      "length": "count", "size": "count", "len": "count", "empty": "isEmpty", "firstObject": "first",
      "lastObject": "last", "allKeys": "keys", "allValues": "values",
    ]
    if let suggestion = synonyms[name].flatMap({ readable.contains($0) ? $0 : nil })
      ?? closestName(to: name, among: readable)
    {
      message += "; did you mean '\(suggestion)'?"
    }
    throw ExpressionError(message: Diagnostic.Message(message), offset: offset)
  }
}
