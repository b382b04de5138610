import FlowrunCore
import FlowrunDiagnostics
import FlowrunExpressions
import FlowrunMarbles
import FlowrunYAML
import OrderedCollections

/// Collects the diagnostics of loading one document and reads typed values out of YAML nodes.
///
/// Every reader reports what is wrong and returns nil, so loading goes on and all problems of a
/// file are reported in one run.
struct LoadContext {
  let file: YAMLFile
  var diagnostics: [Diagnostic] = []
  /// Notes that `flowrun check` prints (a default key read under a library that calls it
  /// otherwise); they do not make the file fail.
  var notes: [Diagnostic] = []

  init(file: YAMLFile) {
    self.file = file
  }

  var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  mutating func error(_ message: Diagnostic.Message, at location: SourceLocation, notes: [Diagnostic.Note] = []) {
    diagnostics.append(file.diagnostic(message, at: location, notes: notes))
  }

  mutating func error(_ message: Diagnostic.Message, at node: YAMLNode, notes: [Diagnostic.Note] = []) {
    error(message, at: node.start, notes: notes)
  }

  mutating func note(_ message: Diagnostic.Message, at node: YAMLNode) {
    var note = file.diagnostic(message, at: node.start)
    note.severity = .note
    notes.append(note)
  }

  /// An error at the `offset`-th character of a scalar's value (a marble or expression column).
  mutating func error(_ message: Diagnostic.Message, in node: YAMLNode, offset: Int) {
    error(message, at: file.location(ofScalarOffset: offset, in: node))
  }

  /// A marble's problem, at its column in the scalar `node`.
  mutating func error(_ problem: MarbleError, in node: YAMLNode) {
    error(Diagnostic.Message(problem.message), in: node, offset: problem.offset)
  }

  /// An expression's problem, at its column in the scalar `node`.
  mutating func error(_ problem: ExpressionError, in node: YAMLNode) {
    error(Diagnostic.Message(problem.message), in: node, offset: problem.offset)
  }

  /// A duration's problem, at the scalar `node`.
  mutating func error(_ problem: DurationError, at node: YAMLNode) {
    error(Diagnostic.Message(problem.message), at: node)
  }

  // MARK: - Shapes

  /// The entries of a mapping, reporting `what` when the node is something else.
  mutating func mapping(_ node: YAMLNode, _ what: String) -> YAMLNode.Pairs? {
    if let pairs = node.mappingPairs { return pairs }
    error(.mustBe(what, "a mapping", found: "a \(node.kindName)"), at: node)
    return nil
  }

  mutating func sequence(_ node: YAMLNode, _ what: String) -> YAMLNode.Items? {
    if let items = node.sequenceItems { return items }
    error(.mustBe(what, "a list", found: "a \(node.kindName)"), at: node)
    return nil
  }

  /// Reports every key of `pairs` not in `allowed`, with a suggestion.
  mutating func checkKeys(_ pairs: some Collection<YAMLNode.Pair>, allowed: [String], in what: String) {
    for pair in pairs {
      guard let key = pair.key.scalarValue else {
        error(.keyNotString(pair.key), at: pair.key)
        continue
      }
      if !allowed.contains(key) {
        error(.unknownKey(key, in: what).suggesting(key, among: allowed), at: pair.key)
      }
    }
  }

  // MARK: - Scalars

  mutating func string(_ node: YAMLNode, _ what: String) -> String? {
    // A quoted or block scalar is a string whatever its tag; a plain one if it resolves to one
    // (the text is made once: names are read by the hundred thousand).
    if case .scalar(let text, let style) = node.kind {
      if style != .plain { return text }
      if case .string = ScalarValue.resolve(text, style: style, tag: node.tag) { return text }
    }
    error(.mustBe(what, "a string", found: describe(node)), at: node)
    return nil
  }

  mutating func int(_ node: YAMLNode, _ what: String) -> Int? {
    if case .int(let value) = node.resolvedScalar { return value }
    error(.mustBe(what, "an integer", found: describe(node)), at: node)
    return nil
  }

  /// An integer ≥ 0, as `take`, `skip` and `concurrent` need.
  mutating func count(_ node: YAMLNode, _ what: String, minimum: Int = 0) -> Int? {
    guard let value = int(node, what) else { return nil }
    guard value >= minimum else {
      error(.mustBe(what, "an integer ≥ \(minimum)", found: "\(value)"), at: node)
      return nil
    }
    return value
  }

  mutating func bool(_ node: YAMLNode, _ what: String) -> Bool? {
    if case .bool(let value) = node.resolvedScalar { return value }
    error(.mustBe(what, "true or false", found: describe(node)), at: node)
    return nil
  }

  /// A short description of a node for "found …" messages.
  func describe(_ node: YAMLNode) -> String {
    switch node.resolvedScalar {
    case .none: return "a \(node.kindName)"
    case .null?: return "null"
    case .bool(let value)?: return "\(value)"
    case .int(let value)?: return "\(value)"
    case .double(let value)?: return "\(value)"
    case .string(let text)?: return "'\(text)'"
    }
  }

  // MARK: - Values

  /// The value a node says, by the YAML 1.2 core schema. Signal-tagged scalars are rejected
  /// here; legends read them with `legendEntries`.
  mutating func value(_ node: YAMLNode) -> Value {
    LegendTable.plainValue(node) { message, node in error(message, at: node) }
  }
}

extension Diagnostic.Message {
  /// `what` must be `expected`, found `found`: `'take' must be an integer, found 'x'`.
  fileprivate static func mustBe(_ what: String, _ expected: String, found: String) -> Self {
    "\(what) must be \(expected), found \(found)"
  }
  fileprivate static func keyNotString(_ key: YAMLNode) -> Self { "keys must be strings, found a \(key.kindName)" }
  fileprivate static func unknownKey(_ key: String, in what: String) -> Self { "unknown key '\(key)' in \(what)" }
}
