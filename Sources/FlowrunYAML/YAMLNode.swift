public import FlowrunDiagnostics

/// One node of a parsed YAML document: a scalar, a sequence or a mapping, with its tag and place.
///
/// A node is a handle into its file's node store (NodeStore.swift): copying one is two words,
/// and a collection's items and pairs are views over the store, made without allocating. Two
/// nodes are equal when they are the same node of the same parse.
///
/// An alias is the anchored node itself, so it keeps the locations of the anchored original.
/// Tags are kept as written for local tags (`!cold`); tags in the YAML namespace are shortened
/// back to `!!` form (`!!str`, `!!int`).
public struct YAMLNode: Hashable, Sendable {
  /// How a scalar was written.
  public enum ScalarStyle: String, Hashable, Sendable {
    case plain
    case singleQuoted
    case doubleQuoted
    case literal
    case folded
  }

  /// One entry of a mapping, in file order.
  public struct Pair: Hashable, Sendable {
    public var key: YAMLNode
    public var value: YAMLNode
  }

  /// What the node holds.
  public enum Kind: Sendable {
    case scalar(String, ScalarStyle)
    case sequence(Items)
    /// Entries in file order. A duplicated key is reported and both entries are kept; the
    /// `subscript(key:)` accessor finds the first.
    case mapping(Pairs)
  }

  let store: NodeStore
  let index: UInt32

  init(store: NodeStore, index: UInt32) {
    self.store = store
    self.index = index
  }

  var record: NodeRecord { store.records[Int(index)] }

  public static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
    lhs.store === rhs.store && lhs.index == rhs.index
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(store))
    hasher.combine(index)
  }

  public var kind: Kind {
    let record = record
    switch record.kind {
    case .scalar: return .scalar(text(of: record), record.style)
    case .sequence: return .sequence(Items(store: store, record: record))
    case .mapping: return .mapping(Pairs(store: store, record: record))
    }
  }

  /// The tag as written (`!cold`), `!!` form for the YAML namespace, nil when untagged.
  public var tag: String? {
    let tag = record.tag
    return tag == 0 ? nil : store.tags[Int(tag) - 1]
  }

  /// Where the node starts (at its anchor or tag when it has one).
  public var start: SourceLocation {
    record.location(in: store.source)
  }

  /// Just after the node's last character.
  public var end: SourceLocation { store.source.location(ofByte: Int(record.end)) }

  private func text(of record: NodeRecord) -> String {
    store.withValueBytes(record) { String(decoding: $0, as: UTF8.self) }
  }
}

// MARK: - Items and pairs

extension YAMLNode {
  /// A sequence's items, a view into the node store.
  public struct Items: RandomAccessCollection, Sendable {
    let store: NodeStore
    let first: Int
    public let count: Int

    init(store: NodeStore, record: NodeRecord) {
      self.store = store
      first = Int(record.payload)
      count = Int(record.count)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> YAMLNode {
      precondition(position >= 0 && position < count, "item index out of range")
      return YAMLNode(store: store, index: store.children[first + position])
    }
  }

  /// A mapping's entries in file order, a view into the node store.
  public struct Pairs: RandomAccessCollection, Sendable {
    let store: NodeStore
    let first: Int
    public let count: Int

    init(store: NodeStore, record: NodeRecord) {
      self.store = store
      first = Int(record.payload)
      count = Int(record.count) / 2
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Pair {
      precondition(position >= 0 && position < count, "pair index out of range")
      let slot = first + 2 * position
      return Pair(
        key: YAMLNode(store: store, index: store.children[slot]),
        value: YAMLNode(store: store, index: store.children[slot + 1]))
    }
  }
}

// MARK: - Accessors

extension YAMLNode {
  /// The scalar's text (after escapes and folding), nil for collections.
  public var scalarValue: String? {
    let record = record
    return record.kind == .scalar ? text(of: record) : nil
  }

  /// The length of the scalar's text in UTF-8 bytes, nil for collections (no string is made).
  public var scalarByteCount: Int? {
    let record = record
    return record.kind == .scalar ? Int(record.count) : nil
  }

  /// The scalar's style, nil for collections.
  public var scalarStyle: ScalarStyle? {
    let record = record
    return record.kind == .scalar ? record.style : nil
  }

  /// Whether the node is a scalar whose text is `text`, compared without making a string.
  public func isScalar(_ text: String) -> Bool {
    let record = record
    guard record.kind == .scalar, Int(record.count) == text.utf8.count else { return false }
    var text = text
    return text.withUTF8 { wanted in store.withValueBytes(record) { bytesEqual($0, wanted) } }
  }

  /// The sequence's items, nil unless the node is a sequence.
  public var sequenceItems: Items? {
    let record = record
    return record.kind == .sequence ? Items(store: store, record: record) : nil
  }

  /// The mapping's entries in file order, nil unless the node is a mapping.
  public var mappingPairs: Pairs? {
    let record = record
    return record.kind == .mapping ? Pairs(store: store, record: record) : nil
  }

  public var isScalar: Bool { record.kind == .scalar }
  public var isSequence: Bool { record.kind == .sequence }
  public var isMapping: Bool { record.kind == .mapping }

  /// `scalar`, `sequence` or `mapping`, for messages such as "expected a mapping, found a …".
  public var kindName: String {
    switch record.kind {
    case .scalar: return "scalar"
    case .sequence: return "sequence"
    case .mapping: return "mapping"
    }
  }

  /// The first entry whose key is a scalar with text `key`, nil when absent or not a mapping.
  /// Large mappings answer from a hash index of their keys built while parsing.
  public func pair(forKey key: String) -> Pair? {
    guard record.kind == .mapping else { return nil }
    var key = key
    let position = key.withUTF8 { store.pairPosition(inMapping: index, key: $0) }
    return position.map { Pairs(store: store, record: record)[$0] }
  }

  /// The value of the first entry whose key is a scalar with text `key`.
  public subscript(key: String) -> YAMLNode? {
    pair(forKey: key)?.value
  }

  /// The value as typed by the YAML 1.2 core schema; nil for collections.
  ///
  /// See `ScalarValue.resolve(_:style:tag:)` for the rules.
  public var resolvedScalar: ScalarValue? {
    let record = record
    guard record.kind == .scalar else { return nil }
    return ScalarValue.resolve(text(of: record), style: record.style, tag: tag)
  }

  /// Whether the node is a scalar resolving to null (`null`, `~`, empty plain scalar).
  public var isNull: Bool { resolvedScalar == .null }
}
