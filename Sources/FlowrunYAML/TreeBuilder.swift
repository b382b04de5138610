/// Builds `YAMLNode` trees from libyaml events, iteratively, enforcing the limits.
///
/// Open collections live on an explicit stack bounded by `YAMLLimits.maxDepth`, so no input can
/// overflow the call stack. Anchors are scoped to their document.
struct TreeBuilder {
  /// A collection whose end event has not arrived yet.
  private struct Frame {
    var isMapping: Bool
    var tag: String?
    var anchor: String?
    var start: SourceLocation
    var items: [YAMLNode] = []
    var pairs: [YAMLNode.Pair] = []
    var pendingKey: YAMLNode?
    /// Where each scalar key was first defined, for duplicate detection in large mappings;
    /// filled lazily from `pairs`.
    var keys: [String: SourceLocation] = [:]
    /// How many of `pairs` are indexed in `keys`.
    var indexedPairs = 0
    var size = 1
    var height = 1
  }

  let path: String
  let source: SourceText
  let limits: YAMLLimits
  private var converter: MarkConverter
  private var stack: [Frame] = []
  private var anchors: [String: YAMLNode] = [:]
  private var nodeCount = 0
  private var expandedNodes = 0
  private var documentStart: SourceLocation?
  private var root: YAMLNode?
  private(set) var documents: [YAMLDocument] = []
  private(set) var diagnostics: [Diagnostic] = []

  init(path: String, source: SourceText, limits: YAMLLimits) {
    self.path = path
    self.source = source
    self.limits = limits
    converter = MarkConverter(source: source)
  }

  /// Consumes one event; returns false when parsing must stop (end of stream or an error that
  /// makes the rest meaningless).
  mutating func handle(_ event: LibYAMLEvent) -> Bool {
    switch event.kind {
    case .streamStart:
      return true
    case .streamEnd, .none:
      return false
    case .documentStart:
      documentStart = location(event.start)
      anchors = [:]
      root = nil
      return true
    case .documentEnd:
      let end = location(event.end)
      documents.append(YAMLDocument(root: root, start: documentStart ?? end, end: end))
      root = nil
      return true
    case .alias(let anchor):
      return alias(anchor, at: location(event.start))
    case .scalar(let value, let anchor, let tag, let style):
      let start = location(event.start)
      guard countNode(at: start) else { return false }
      if stack.isEmpty && value.isEmpty && style == .plain && tag == nil && anchor == nil {
        return true  // An empty document.
      }
      let node = YAMLNode(
        kind: .scalar(value, style), tag: tag, start: start, end: location(event.end), size: 1,
        height: 0)
      return attach(node, anchor: anchor)
    case .sequenceStart(let anchor, let tag):
      return open(isMapping: false, anchor: anchor, tag: tag, at: location(event.start))
    case .mappingStart(let anchor, let tag):
      return open(isMapping: true, anchor: anchor, tag: tag, at: location(event.start))
    case .sequenceEnd, .mappingEnd:
      guard let frame = stack.popLast() else { return false }
      let kind: YAMLNode.Kind = frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items)
      let node = YAMLNode(
        kind: kind, tag: frame.tag, start: frame.start, end: location(event.end), size: frame.size,
        height: frame.height)
      return attach(node, anchor: frame.anchor)
    }
  }

  /// Turns a libyaml failure into one diagnostic at libyaml's problem mark.
  mutating func report(_ error: LibYAMLError) {
    var place: SourceLocation?
    if let mark = error.problemMark {
      place = location(mark)
    } else if let offset = error.problemOffset {
      place = source.location(ofByte: offset)
    }
    if let place, isTab(at: place) || error.problem.contains("tab character") {
      diagnostics.append(diagnostic("tab characters are not allowed for indentation", at: place))
      return
    }
    var notes: [Diagnostic.Note] = []
    if let context = error.context {
      notes.append(Diagnostic.Note(location: error.contextMark.map { location($0) }, message: context))
    }
    diagnostics.append(diagnostic(Self.lowercasingFirst(error.problem), at: place, notes: notes))
  }

  // MARK: - Nodes

  private mutating func open(
    isMapping: Bool, anchor: String?, tag: String?, at start: SourceLocation
  ) -> Bool {
    guard countNode(at: start) else { return false }
    guard stack.count < limits.maxDepth else {
      diagnostics.append(diagnostic("nesting deeper than \(limits.maxDepth) levels", at: start))
      return false
    }
    stack.append(Frame(isMapping: isMapping, tag: tag, anchor: anchor, start: start))
    return true
  }

  private mutating func alias(_ name: String, at start: SourceLocation) -> Bool {
    guard let target = anchors[name] else {
      if stack.contains(where: { $0.anchor == name }) {
        diagnostics.append(diagnostic("alias '\(name)' refers to a node that contains it", at: start))
      } else {
        diagnostics.append(diagnostic("unknown alias '\(name)'", at: start))
      }
      return false
    }
    expandedNodes += target.subtreeSize
    guard expandedNodes <= limits.aliasExpansion else {
      diagnostics.append(
        diagnostic("alias expansion exceeds the limit of \(limits.aliasExpansion) nodes", at: start))
      return false
    }
    guard stack.count + target.height <= limits.maxDepth else {
      diagnostics.append(diagnostic("nesting deeper than \(limits.maxDepth) levels", at: start))
      return false
    }
    return attach(target, anchor: nil)
  }

  private mutating func countNode(at start: SourceLocation) -> Bool {
    nodeCount += 1
    guard nodeCount <= limits.maxNodes else {
      diagnostics.append(
        diagnostic("file has more than the limit of \(limits.maxNodes) nodes", at: start))
      return false
    }
    return true
  }

  /// Places a finished node in its parent (or as the document root) and records its anchor.
  private mutating func attach(_ node: YAMLNode, anchor: String?) -> Bool {
    if let anchor { anchors[anchor] = node }
    let top = stack.count - 1
    guard top >= 0 else {
      root = node
      return true
    }
    stack[top].size += node.subtreeSize
    stack[top].height = max(stack[top].height, node.height + 1)
    if !stack[top].isMapping {
      stack[top].items.append(node)
    } else if let key = stack[top].pendingKey {
      stack[top].pairs.append(YAMLNode.Pair(key: key, value: node))
      stack[top].pendingKey = nil
    } else {
      if let text = node.scalarValue, let first = firstDefinition(of: text, inFrame: top) {
        diagnostics.append(
          diagnostic(
            "duplicate key '\(text)'", at: node.start,
            notes: [Diagnostic.Note(location: first, message: "first defined here")]))
      }
      stack[top].pendingKey = node
    }
    return true
  }

  /// Where the mapping at `index` on the stack first defined key `text`, if it did. Small
  /// mappings are searched directly; larger ones index their keys once.
  private mutating func firstDefinition(of text: String, inFrame index: Int) -> SourceLocation? {
    let pairs = stack[index].pairs
    if pairs.count < 16 {
      return pairs.first { $0.key.scalarValue == text }?.key.start
    }
    for pair in pairs[stack[index].indexedPairs...] {
      if let key = pair.key.scalarValue, stack[index].keys[key] == nil {
        stack[index].keys[key] = pair.key.start
      }
    }
    stack[index].indexedPairs = pairs.count
    return stack[index].keys[text]
  }

  // MARK: - Locations and messages

  private mutating func location(_ mark: LibYAMLMark) -> SourceLocation {
    converter.location(ofScalar: mark.index)
  }

  /// Whether `place` is a tab: libyaml stops at a tab only where YAML needs spaces for
  /// indentation (line starts, after `-`, `?` and `:` indicators in block context).
  private func isTab(at place: SourceLocation) -> Bool {
    place.offset < source.bytes.count && source.bytes[place.offset] == 0x09
  }

  private func diagnostic(
    _ message: String, at place: SourceLocation?, notes: [Diagnostic.Note] = []
  ) -> Diagnostic {
    source.diagnostic(path: path, message, at: place, notes: notes)
  }

  private static func lowercasingFirst(_ text: String) -> String {
    guard let first = text.first else { return text }
    return first.lowercased() + text.dropFirst()
  }
}

extension SourceText {
  /// A diagnostic with the source line of `place` filled in for the caret.
  func diagnostic(
    path: String, _ message: String, at place: SourceLocation?, notes: [Diagnostic.Note] = []
  ) -> Diagnostic {
    Diagnostic(
      path: path, location: place, message: message,
      sourceLine: place.flatMap { sourceLine($0.line) }, notes: notes)
  }
}
