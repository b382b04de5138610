/// One node of a parsed YAML document: a scalar, a sequence or a mapping, with its tag and place.
///
/// Aliases are resolved by copying the anchored node, so an aliased node keeps the locations of
/// the anchored original. Tags are kept as written for local tags (`!cold`); tags in the YAML
/// namespace are shortened back to `!!` form (`!!str`, `!!int`).
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

    public init(key: YAMLNode, value: YAMLNode) {
      self.key = key
      self.value = value
    }
  }

  /// What the node holds.
  public enum Kind: Hashable, Sendable {
    case scalar(String, ScalarStyle)
    case sequence([YAMLNode])
    /// Entries in file order. A duplicated key is reported and both entries are kept; the
    /// `subscript(key:)` accessor finds the first.
    case mapping([Pair])
  }

  public var kind: Kind
  /// The tag as written (`!cold`), `!!` form for the YAML namespace, nil when untagged.
  public var tag: String?
  /// Where the node starts (at its anchor or tag when it has one).
  public var start: SourceLocation
  /// Just after the node's last character.
  public var end: SourceLocation
  /// The number of nodes in this subtree, itself included (used for the alias budget).
  var subtreeSize: Int
  /// The nesting levels of collections in this subtree (0 for a scalar), so that aliases
  /// cannot nest deeper than `YAMLLimits.maxDepth`.
  var height: Int

  public init(kind: Kind, tag: String? = nil, start: SourceLocation, end: SourceLocation) {
    self.kind = kind
    self.tag = tag
    self.start = start
    self.end = end
    switch kind {
    case .scalar:
      subtreeSize = 1
      height = 0
    case .sequence(let items):
      subtreeSize = items.reduce(1) { $0 + $1.subtreeSize }
      height = 1 + items.reduce(0) { max($0, $1.height) }
    case .mapping(let pairs):
      subtreeSize = pairs.reduce(1) { $0 + $1.key.subtreeSize + $1.value.subtreeSize }
      height = 1 + pairs.reduce(0) { max($0, $1.key.height, $1.value.height) }
    }
  }

  init(
    kind: Kind, tag: String?, start: SourceLocation, end: SourceLocation, size: Int, height: Int
  ) {
    self.kind = kind
    self.tag = tag
    self.start = start
    self.end = end
    subtreeSize = size
    self.height = height
  }
}

// MARK: - Accessors

extension YAMLNode {
  /// The scalar's text (after escapes and folding), nil for collections.
  public var scalarValue: String? {
    if case .scalar(let value, _) = kind { return value }
    return nil
  }

  /// The scalar's style, nil for collections.
  public var scalarStyle: ScalarStyle? {
    if case .scalar(_, let style) = kind { return style }
    return nil
  }

  /// The sequence's items, nil unless the node is a sequence.
  public var sequenceItems: [YAMLNode]? {
    if case .sequence(let items) = kind { return items }
    return nil
  }

  /// The mapping's entries in file order, nil unless the node is a mapping.
  public var mappingPairs: [Pair]? {
    if case .mapping(let pairs) = kind { return pairs }
    return nil
  }

  public var isScalar: Bool { scalarValue != nil }
  public var isSequence: Bool { sequenceItems != nil }
  public var isMapping: Bool { mappingPairs != nil }

  /// `scalar`, `sequence` or `mapping`, for messages such as "expected a mapping, found a …".
  public var kindName: String {
    switch kind {
    case .scalar: return "scalar"
    case .sequence: return "sequence"
    case .mapping: return "mapping"
    }
  }

  /// The first entry whose key is a scalar with text `key`, nil when absent or not a mapping.
  public func pair(forKey key: String) -> Pair? {
    guard case .mapping(let pairs) = kind else { return nil }
    return pairs.first { $0.key.scalarValue == key }
  }

  /// The value of the first entry whose key is a scalar with text `key`.
  public subscript(key: String) -> YAMLNode? {
    pair(forKey: key)?.value
  }

  /// The value as typed by the YAML 1.2 core schema; nil for collections.
  ///
  /// See `ScalarValue.resolve(_:style:tag:)` for the rules.
  public var resolvedScalar: ScalarValue? {
    guard case .scalar(let value, let style) = kind else { return nil }
    return ScalarValue.resolve(value, style: style, tag: tag)
  }

  /// Whether the node is a scalar resolving to null (`null`, `~`, empty plain scalar).
  public var isNull: Bool { resolvedScalar == .null }
}
