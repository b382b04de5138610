import FlowrunCore
import FlowrunYAML

/// A YAML document to edit and write back: the counterexample files of `flowrun explore` are
/// the explored scenario with some nodes replaced.
///
/// Scalars keep their text, style and tag, so that every value reads back as it was written;
/// comments and the original layout are not kept (the file is written in one layout: block
/// mappings and lists, small leaf collections in flow style).
indirect enum YAMLTree: Equatable {
  case scalar(String, style: YAMLNode.ScalarStyle, tag: String?)
  /// YAML text written as it is, in flow style (a value printed by `Value.description`).
  case flow(String)
  case sequence([YAMLTree])
  case mapping([Pair])

  struct Pair: Equatable {
    var key: YAMLTree
    var value: YAMLTree
  }

  /// The tree of a parsed node.
  init(_ node: YAMLNode) {
    switch node.kind {
    case .scalar(let text, let style): self = .scalar(text, style: style, tag: node.tag)
    case .sequence(let items): self = .sequence(items.map(YAMLTree.init))
    case .mapping(let pairs): self = .mapping(pairs.map { Pair(key: YAMLTree($0.key), value: YAMLTree($0.value)) })
    }
  }

  /// A plain string scalar (a key, a name, a marble).
  static func string(_ text: String) -> YAMLTree {
    .scalar(text, style: .doubleQuoted, tag: nil)
  }

  /// A key written plain.
  static func key(_ text: String) -> YAMLTree {
    .scalar(text, style: .plain, tag: nil)
  }

  /// A value as YAML (flow style).
  static func value(_ value: Value) -> YAMLTree {
    .flow(value.description)
  }

  // MARK: - Editing

  /// The text of a scalar, nil for collections.
  var text: String? {
    if case .scalar(let text, _, _) = self { return text }
    return nil
  }

  /// The value at `key` of a mapping.
  subscript(key: String) -> YAMLTree? {
    get {
      guard case .mapping(let pairs) = self else { return nil }
      return pairs.first { $0.key.text == key }?.value
    }
    set {
      guard case .mapping(var pairs) = self else { return }
      if let index = pairs.firstIndex(where: { $0.key.text == key }) {
        if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
      } else if let newValue {
        pairs.append(Pair(key: .key(key), value: newValue))
      }
      self = .mapping(pairs)
    }
  }

  /// Sets `key` of a mapping, placing a new key right after `previous` (at the end when
  /// `previous` is absent).
  mutating func set(_ key: String, _ value: YAMLTree, after previous: String) {
    guard case .mapping(var pairs) = self, self[key] == nil,
      let index = pairs.firstIndex(where: { $0.key.text == previous })
    else {
      self[key] = value
      return
    }
    pairs.insert(Pair(key: .key(key), value: value), at: index + 1)
    self = .mapping(pairs)
  }

  // MARK: - Writing

  /// The document's text, ending with a newline.
  func written() -> String {
    var out = ""
    switch self {
    case .mapping(let pairs) where !pairs.isEmpty: writeMapping(pairs, indent: 0, to: &out)
    case .sequence(let items) where !items.isEmpty: writeSequence(items, indent: 0, to: &out)
    default: out = flowText() + "\n"
    }
    return out
  }

  private static let width = 100

  private func writeMapping(_ pairs: [Pair], indent: Int, to out: inout String) {
    let pad = String(repeating: " ", count: indent)
    for pair in pairs {
      out += pad + pair.key.flowText() + ":"
      pair.value.writeValue(indent: indent, used: indent + pair.key.flowText().count + 1, to: &out)
    }
  }

  private func writeSequence(_ items: [YAMLTree], indent: Int, to out: inout String) {
    let pad = String(repeating: " ", count: indent)
    for item in items {
      if case .mapping(let pairs) = item, !pairs.isEmpty {
        // `- key: value` with the mapping's other keys under the first.
        var nested = ""
        item.writeMapping(pairs, indent: indent + 2, to: &nested)
        out += pad + "- " + nested.dropFirst(indent + 2)
      } else {
        out += pad + "-"
        item.writeValue(indent: indent, used: indent + 1, to: &out)
      }
    }
  }

  /// Writes the value after `key:` or `-` (on the same line when it fits, else below).
  private func writeValue(indent: Int, used: Int, to out: inout String) {
    switch self {
    case .scalar(let text, _, let tag) where tag == nil && text.contains("\n"):
      if let block = blockLiteral(text, indent: indent + 2) {
        out += " " + block
        return
      }
      out += " " + flowText() + "\n"
    // The sections of a scenario are blocks; smaller collections are blocks when they do not
    // fit on their line.
    case .mapping(let pairs) where !pairs.isEmpty && (indent == 0 || !fitsFlow(used + 1)):
      out += "\n"
      writeMapping(pairs, indent: indent + 2, to: &out)
    case .sequence(let items)
    where !items.isEmpty && (indent == 0 && containsMapping(inSequence: true) || !fitsFlow(used + 1)):
      out += "\n"
      writeSequence(items, indent: indent + 2, to: &out)
    default:
      out += " " + flowText() + "\n"
    }
  }

  /// Whether the node is written on one line in flow style from column `column`: a scalar, or
  /// a collection of scalars and small collections that fits.
  private func fitsFlow(_ column: Int) -> Bool {
    guard depth <= 2, !containsMapping(inSequence: true) else { return false }
    return column + flowText().count <= Self.width
  }

  private var depth: Int {
    switch self {
    case .scalar, .flow: 0
    case .sequence(let items): 1 + (items.map(\.depth).max() ?? 0)
    case .mapping(let pairs): 1 + (pairs.map(\.value.depth).max() ?? 0)
    }
  }

  /// Whether a list holds a mapping (a list of steps reads better as a block).
  private func containsMapping(inSequence: Bool) -> Bool {
    switch self {
    case .scalar, .flow: false
    case .sequence(let items):
      items.contains { if case .mapping = $0 { true } else { $0.containsMapping(inSequence: true) } }
    case .mapping(let pairs): pairs.contains { $0.value.containsMapping(inSequence: true) }
    }
  }

  /// The node in flow style.
  func flowText() -> String {
    switch self {
    case .scalar(let text, let style, let tag):
      return (tag.map { $0 + " " } ?? "") + Self.scalarText(text, style: style, tagged: tag != nil)
    case .flow(let text):
      return text
    case .sequence(let items):
      return "[" + items.map { $0.flowText() }.joined(separator: ", ") + "]"
    case .mapping(let pairs):
      if pairs.isEmpty { return "{}" }
      return "{ " + pairs.map { $0.key.flowText() + ": " + $0.value.flowText() }.joined(separator: ", ") + " }"
    }
  }

  /// A scalar that reads back as the same text with the same type: plain when it was plain
  /// and is safe anywhere, else quoted.
  private static func scalarText(_ text: String, style: YAMLNode.ScalarStyle, tagged: Bool) -> String {
    if style == .plain {
      if text.isEmpty { return tagged ? "\"\"" : "~" }
      // A number, bool or null (`-1009`, `.inf`, `~`) is written as it was: its text is safe.
      if case .string = ScalarValue.resolve(text, style: .plain, tag: nil) {} else if !tagged { return text }
      if isSafePlain(text) { return text }
      return Value.quoted(text)
    }
    let control = text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    if style == .singleQuoted, !control {
      return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }
    return Value.quoted(text)
  }

  /// Whether `text` reads back as itself when written plain, in block and in flow context.
  private static func isSafePlain(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
    if "-?:,[]{}#&*!|>'\"%@` ".unicodeScalars.contains(first) || last == " " || last == ":" { return false }
    if text.contains(": ") || text.contains(" #") { return false }
    return !text.unicodeScalars.contains { ",[]{}".unicodeScalars.contains($0) || $0.value < 0x20 || $0.value == 0x7F }
  }

  /// `|` (or `|-`) and the lines of `text` indented by `indent`; nil when a literal block
  /// cannot hold it as it is (leading spaces, several final line breaks, control characters).
  private func blockLiteral(_ text: String, indent: Int) -> String? {
    guard !text.hasPrefix(" "), !text.hasPrefix("\n"), !text.hasSuffix("\n\n"),
      !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || $0 == "\u{FEFF}" })
    else { return nil }
    var body = text
    let keepsBreak = body.hasSuffix("\n")
    if keepsBreak { body.removeLast() }
    let pad = String(repeating: " ", count: indent)
    let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : pad + $0 }
    return (keepsBreak ? "|" : "|-") + "\n" + lines.joined(separator: "\n") + "\n"
  }
}
