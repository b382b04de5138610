import FlowrunDiagnostics

/// Builds a file's node store from libyaml events, iteratively, enforcing the limits.
///
/// Open collections live on an explicit stack bounded by `YAMLLimits.maxDepth`, so no input can
/// overflow the call stack; their children wait on one shared stack (`pending`) and move to the
/// store's `children` when the collection ends. Anchors are scoped to their document.
struct TreeBuilder {
  /// A collection whose end event has not arrived yet.
  private struct Frame {
    var isMapping: Bool
    var tag: UInt16
    var anchor: String?
    var start: SourceLocation
    /// Where this collection's children start in `pending`.
    var base: Int
    /// Keys by content, for duplicate detection and later look-ups in large mappings; built
    /// once a mapping has `indexedFrom` pairs.
    var keys: KeyIndex?
    var size = 1
    var height = 1
  }

  /// An anchored node, with what an alias to it adds to the budgets.
  private struct Anchor {
    var index: UInt32
    var size: Int
    var height: Int
  }

  /// Mappings with this many pairs get a key index (smaller ones are searched directly).
  static let indexedFrom = 16

  let path: String
  let source: SourceText
  let limits: YAMLLimits
  private var converter: MarkConverter
  private var stack: [Frame] = []
  private var pending: [UInt32] = []
  private let records = PlainBuffer()
  private var children: [UInt32] = []
  private var pool: [UInt8] = []
  private var tags: [String] = []
  private var tagCodes: [String: UInt16] = [:]
  private var keyIndexes: [UInt32: KeyIndex] = [:]
  private var anchors: [String: Anchor] = [:]
  private var nodeCount = 0
  private var expandedNodes = 0
  private var documentStart: SourceLocation?
  private var root: UInt32?
  private var roots: [(root: UInt32?, start: SourceLocation, end: SourceLocation)] = []
  private(set) var diagnostics: [Diagnostic] = []

  init(path: String, source: SourceText, limits: YAMLLimits) {
    self.path = path
    self.source = source
    self.limits = limits
    converter = MarkConverter(source: source)
  }

  /// The documents completed so far, over the finished store, and every diagnostic.
  consuming func finish() -> ([YAMLDocument], [Diagnostic]) {
    records.shrinkToFit()
    let store = NodeStore(
      source: source.parsed, records: records, children: children, pool: pool, tags: tags,
      keyIndexes: keyIndexes)
    let documents = roots.map { document in
      YAMLDocument(
        root: document.root.map { YAMLNode(store: store, index: $0) }, start: document.start,
        end: document.end)
    }
    return (documents, diagnostics)
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
      roots.append((root, documentStart ?? end, end))
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
      guard let tagCode = tagCode(tag, at: start) else { return false }
      let end = location(event.end).offset
      let index = UInt32(records.count)
      records.append(scalarRecord(value, style: style, start: start, end: end, tag: tagCode))
      return attach(index, size: 1, height: 0, anchor: anchor)
    case .sequenceStart(let anchor, let tag):
      return open(isMapping: false, anchor: anchor, tag: tag, at: location(event.start))
    case .mappingStart(let anchor, let tag):
      return open(isMapping: true, anchor: anchor, tag: tag, at: location(event.start))
    case .sequenceEnd, .mappingEnd:
      guard let frame = stack.popLast() else { return false }
      let index = UInt32(records.count)
      let first = UInt32(children.count)
      children.append(contentsOf: pending[frame.base...])
      let count = pending.count - frame.base
      pending.removeSubrange(frame.base...)
      records.append(
        NodeRecord(
          kind: frame.isMapping ? .mapping : .sequence, start: UInt32(frame.start.offset),
          end: UInt32(location(event.end).offset),
          column: UInt32(frame.start.column), payload: first, count: UInt32(count), tag: frame.tag))
      if let keys = frame.keys { keyIndexes[index] = keys }
      return attach(index, size: frame.size, height: frame.height, anchor: frame.anchor)
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
      diagnostics.append(diagnostic(.tabIndentation, at: place))
      return
    }
    var notes: [Diagnostic.Note] = []
    if let context = error.context {
      notes.append(Diagnostic.Note(location: error.contextMark.map { location($0) }, message: context))
    }
    diagnostics.append(diagnostic(.libYAMLProblem(error.problem), at: place, notes: notes))
  }

  // MARK: - Nodes

  /// A scalar's record: its value is left in the file when it is the node's source text (plain
  /// scalars, quoted ones without escapes), else copied to the pool.
  private mutating func scalarRecord(
    _ value: UnsafeBufferPointer<UInt8>, style: YAMLNode.ScalarStyle, start: SourceLocation,
    end: Int, tag: UInt16
  ) -> NodeRecord {
    var textStart = start.offset
    var textEnd = end
    if style == .singleQuoted || style == .doubleQuoted {
      textStart += 1
      textEnd -= 1
    }
    let inSource =
      (style == .plain || style == .singleQuoted || style == .doubleQuoted)
      && textEnd - textStart == value.count && textEnd <= source.bytes.count
      && source.bytes.withUnsafeBufferPointer {
        bytesEqual(UnsafeBufferPointer(rebasing: $0[textStart..<textEnd]), value)
      }
    let payload: Int
    if inSource {
      payload = textStart
    } else {
      payload = pool.count
      pool.append(contentsOf: value)
    }
    return NodeRecord(
      kind: .scalar, style: style, isPooled: !inSource, start: UInt32(start.offset),
      end: UInt32(end), column: UInt32(start.column),
      payload: UInt32(payload), count: UInt32(value.count), tag: tag)
  }

  private mutating func open(
    isMapping: Bool, anchor: String?, tag: String?, at start: SourceLocation
  ) -> Bool {
    guard countNode(at: start) else { return false }
    guard stack.count < limits.maxDepth else {
      diagnostics.append(diagnostic(.nestingTooDeep(limit: limits.maxDepth), at: start))
      return false
    }
    guard let tagCode = tagCode(tag, at: start) else { return false }
    stack.append(
      Frame(isMapping: isMapping, tag: tagCode, anchor: anchor, start: start, base: pending.count))
    return true
  }

  private mutating func alias(_ name: String, at start: SourceLocation) -> Bool {
    guard let target = anchors[name] else {
      if stack.contains(where: { $0.anchor == name }) {
        diagnostics.append(diagnostic(.aliasContainsItself(name), at: start))
      } else {
        diagnostics.append(diagnostic(.unknownAlias(name), at: start))
      }
      return false
    }
    expandedNodes += target.size
    guard expandedNodes <= limits.aliasExpansion else {
      diagnostics.append(diagnostic(.aliasExpansionTooLarge(limit: limits.aliasExpansion), at: start))
      return false
    }
    guard stack.count + target.height <= limits.maxDepth else {
      diagnostics.append(diagnostic(.nestingTooDeep(limit: limits.maxDepth), at: start))
      return false
    }
    return attach(target.index, size: target.size, height: target.height, anchor: nil)
  }

  private mutating func countNode(at start: SourceLocation) -> Bool {
    nodeCount += 1
    guard nodeCount <= limits.maxNodes else {
      diagnostics.append(diagnostic(.tooManyNodes(limit: limits.maxNodes), at: start))
      return false
    }
    return true
  }

  /// The code of `tag` in the store's tag table (0: untagged); nil, with a diagnostic, when a
  /// file uses more distinct tags than a record can name.
  private mutating func tagCode(_ tag: String?, at start: SourceLocation) -> UInt16? {
    guard let tag else { return 0 }
    if let code = tagCodes[tag] { return code }
    guard tags.count < Int(UInt16.max) else {
      diagnostics.append(diagnostic(.tooManyTags, at: start))
      return nil
    }
    tags.append(tag)
    let code = UInt16(tags.count)
    tagCodes[tag] = code
    return code
  }

  /// Places a finished node in its parent (or as the document root) and records its anchor.
  private mutating func attach(_ index: UInt32, size: Int, height: Int, anchor: String?) -> Bool {
    if let anchor { anchors[anchor] = Anchor(index: index, size: size, height: height) }
    let top = stack.count - 1
    guard top >= 0 else {
      root = index
      return true
    }
    stack[top].size += size
    stack[top].height = max(stack[top].height, height + 1)
    let isKey = stack[top].isMapping && (pending.count - stack[top].base) % 2 == 0
    pending.append(index)
    if isKey { checkDuplicate(key: index, inFrame: top) }
    return true
  }

  /// Reports a scalar key (just added to `pending`) already defined in the mapping at `frame`
  /// (both entries are kept). Small mappings are searched directly; larger ones index their
  /// keys once.
  private mutating func checkDuplicate(key: UInt32, inFrame frame: Int) {
    let keyRecord = records[Int(key)]
    guard keyRecord.kind == .scalar else { return }
    let base = stack[frame].base
    if stack[frame].keys == nil {
      // Most mappings are small and their keys differ in length: rule those out first.
      let position = (pending.count - 1 - base) / 2
      let sameLength = (0..<position).contains { earlier in
        let other = records[Int(pending[base + 2 * earlier])]
        return other.kind == .scalar && other.count == keyRecord.count
      }
      if !sameLength && position + 1 < Self.indexedFrom { return }
    }
    let keys = KeyTable(
      records: records, pending: pending, source: source.bytes, pool: pool, base: base)
    let position = (pending.count - 1 - keys.base) / 2
    let first: Int?
    if stack[frame].keys == nil && position + 1 < Self.indexedFrom {
      first = (0..<position).first { keys.sameKey($0, position) }
    } else {
      var index = stack[frame].keys ?? KeyIndex(capacity: position + 1)
      stack[frame].keys = nil
      if index.count == 0 {
        for earlier in 0..<position { _ = keys.insert(earlier, into: &index) }
      }
      first = keys.insert(position, into: &index)
      stack[frame].keys = index
    }
    if let first {
      let text = keyRecord.withValueBytes(source: source.bytes, pool: pool) {
        String(decoding: $0, as: UTF8.self)
      }
      let firstKey = records[Int(pending[keys.base + 2 * first])]
      diagnostics.append(
        diagnostic(
          .duplicateKey(text), at: location(of: keyRecord),
          notes: [Diagnostic.Note(location: location(of: firstKey), message: "first defined here")]))
    }
  }

  // MARK: - Locations and messages

  private mutating func location(_ mark: LibYAMLMark) -> SourceLocation {
    converter.location(ofScalar: mark.index)
  }

  private func location(of record: NodeRecord) -> SourceLocation {
    record.location(in: source)
  }

  /// Whether `place` is a tab: libyaml stops at a tab only where YAML needs spaces for
  /// indentation (line starts, after `-`, `?` and `:` indicators in block context).
  private func isTab(at place: SourceLocation) -> Bool {
    place.offset < source.bytes.count && source.bytes[place.offset] == 0x09
  }

  private func diagnostic(
    _ message: Diagnostic.Message, at place: SourceLocation?, notes: [Diagnostic.Note] = []
  ) -> Diagnostic {
    source.diagnostic(path: path, message, at: place, notes: notes)
  }
}

extension SourceText {
  /// A diagnostic with the source line of `place` filled in for the caret.
  func diagnostic(
    path: String, _ message: Diagnostic.Message, at place: SourceLocation?, notes: [Diagnostic.Note] = []
  ) -> Diagnostic {
    Diagnostic(
      path: path, location: place, message: message,
      sourceLine: place.flatMap { sourceLine($0.line) }, notes: notes)
  }
}

/// The keys of the mapping being built (pairs pending from `base`), compared by their bytes.
private struct KeyTable {
  let records: PlainBuffer
  let pending: [UInt32]
  let source: [UInt8]
  let pool: [UInt8]
  let base: Int

  func record(_ position: Int) -> NodeRecord { records[Int(pending[base + 2 * position])] }

  func sameKey(_ a: Int, _ b: Int) -> Bool {
    let first = record(a)
    let second = record(b)
    guard first.kind == .scalar, second.kind == .scalar, first.count == second.count else {
      return false
    }
    return first.withValueBytes(source: source, pool: pool) { x in
      second.withValueBytes(source: source, pool: pool) { y in bytesEqual(x, y) }
    }
  }

  func hash(_ position: Int) -> Int {
    record(position).withValueBytes(source: source, pool: pool) { KeyIndex.hash($0) }
  }

  /// Adds the key of pair `position` to `index` when it is a scalar; returns the position of
  /// an earlier equal key instead.
  func insert(_ position: Int, into index: inout KeyIndex) -> Int? {
    guard record(position).kind == .scalar else { return nil }
    return index.insert(
      position, hash: hash(position), matches: { sameKey($0, position) }, hashOf: { hash($0) })
  }
}

extension Diagnostic.Message {
  fileprivate static let tabIndentation: Self = "tab characters are not allowed for indentation"
  fileprivate static let tooManyTags: Self = "file has more than \(UInt16.max) distinct tags"

  /// libyaml's description of a syntax error, lowercased to read as ours do.
  fileprivate static func libYAMLProblem(_ problem: String) -> Self {
    guard let first = problem.first else { return Self(problem) }
    return Self(first.lowercased() + problem.dropFirst())
  }

  fileprivate static func nestingTooDeep(limit: Int) -> Self { "nesting deeper than \(limit) levels" }
  fileprivate static func aliasContainsItself(_ name: String) -> Self {
    "alias '\(name)' refers to a node that contains it"
  }
  fileprivate static func unknownAlias(_ name: String) -> Self { "unknown alias '\(name)'" }
  fileprivate static func aliasExpansionTooLarge(limit: Int) -> Self {
    "alias expansion exceeds the limit of \(limit) nodes"
  }
  fileprivate static func tooManyNodes(limit: Int) -> Self { "file has more than the limit of \(limit) nodes" }
  fileprivate static func duplicateKey(_ key: String) -> Self { "duplicate key '\(key)'" }
}
