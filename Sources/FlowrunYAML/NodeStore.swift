import FlowrunDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The nodes of one parsed file, stored flat: a record per node, the children of every
/// collection in one array, and scalar values kept as ranges of the file's bytes.
///
/// A file of a million legend entries is two million nodes; as 24-byte records with their text
/// left in the file (a value is copied into `pool` only when it differs from its source text,
/// e.g. after escapes or folding) the tree stays a small multiple of the file's size. `YAMLNode`
/// is a handle (store, index) into it. The store is immutable once built.
final class NodeStore: Sendable {
  let source: SourceText
  let records: PlainBuffer
  /// The children of every collection: a sequence's items, a mapping's keys and values
  /// interleaved (key, value, key, value, …). An aliased node appears under each parent.
  let children: [UInt32]
  /// Scalar values whose text differs from their source.
  let pool: [UInt8]
  /// Distinct tags as written (`!cold`, `!!str`); a record's `tag` is an index + 1.
  let tags: [String]
  /// Hash indexes of the keys of large mappings, by mapping node index.
  let keyIndexes: [UInt32: KeyIndex]

  init(
    source: SourceText, records: PlainBuffer, children: [UInt32], pool: [UInt8], tags: [String],
    keyIndexes: [UInt32: KeyIndex]
  ) {
    self.source = source
    self.records = records
    self.children = children
    self.pool = pool
    self.tags = tags
    self.keyIndexes = keyIndexes
  }

  /// Calls `body` with the UTF-8 bytes of scalar `record`'s value.
  @inline(__always)
  func withValueBytes<R>(_ record: NodeRecord, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    record.withValueBytes(source: source.bytes, pool: pool, body)
  }

  /// The first pair of mapping `index` whose key is a scalar with these bytes, as its position
  /// among the mapping's pairs.
  func pairPosition(inMapping index: UInt32, key: UnsafeBufferPointer<UInt8>) -> Int? {
    let record = records[Int(index)]
    let first = Int(record.payload)
    let pairCount = Int(record.count) / 2
    if let keyIndex = keyIndexes[index] {
      return keyIndex.find(key) { position in
        let keyRecord = records[Int(children[first + 2 * position])]
        guard keyRecord.kind == .scalar else { return false }
        return withValueBytes(keyRecord) { bytesEqual($0, key) }
      }
    }
    for position in 0..<pairCount {
      let keyRecord = records[Int(children[first + 2 * position])]
      if keyRecord.kind == .scalar, Int(keyRecord.count) == key.count,
        withValueBytes(keyRecord, { bytesEqual($0, key) })
      {
        return position
      }
    }
    return nil
  }
}

/// Whether two byte buffers hold the same bytes.
@inline(__always)
func bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
  guard a.count == b.count else { return false }
  guard let x = a.baseAddress, let y = b.baseAddress else { return true }
  return memcmp(x, y, a.count) == 0
}

/// One node: its place, its kind and style, and its value or children.
struct NodeRecord: Sendable {
  enum Kind: UInt8 {
    case scalar, sequence, mapping
  }

  /// Byte offsets of the node's start (at its anchor or tag) and just past its end.
  var start: UInt32
  var end: UInt32
  /// 1-based column (in Unicode scalars) of `start`. Its line is found from `start` in the
  /// file's line table when asked for (locations are rare; a million nodes are not).
  var column: UInt32
  /// Scalar: where its value's bytes start (in the file, or in the pool when `isPooled`).
  /// Collection: where its children start in `NodeStore.children`.
  var payload: UInt32
  /// Scalar: its value's length in bytes. Collection: its children (two per mapping pair).
  var count: UInt32
  /// Kind (2 bits), scalar style (3 bits), pooled value (1 bit).
  private var flags: UInt16
  /// 0 when untagged, else an index + 1 into `NodeStore.tags`.
  var tag: UInt16

  init(
    kind: Kind, style: YAMLNode.ScalarStyle = .plain, isPooled: Bool = false, start: UInt32,
    end: UInt32, column: UInt32, payload: UInt32, count: UInt32, tag: UInt16
  ) {
    self.start = start
    self.end = end
    self.column = column
    self.payload = payload
    self.count = count
    self.tag = tag
    flags = UInt16(kind.rawValue) | UInt16(style.code) << 2 | (isPooled ? 1 << 5 : 0)
  }

  /// Where the node starts.
  func location(in source: SourceText) -> SourceLocation {
    SourceLocation(
      line: source.lineIndex(ofByte: Int(start)) + 1, column: Int(column), offset: Int(start))
  }

  var kind: Kind { Kind(rawValue: UInt8(flags & 0b11)) ?? .scalar }
  var style: YAMLNode.ScalarStyle { YAMLNode.ScalarStyle(code: UInt8((flags >> 2) & 0b111)) }
  var isPooled: Bool { flags & (1 << 5) != 0 }

  @inline(__always)
  func withValueBytes<R>(
    source: [UInt8], pool: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    let range = Int(payload)..<Int(payload) + Int(count)
    let bytes = isPooled ? pool : source
    return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
  }
}

extension YAMLNode.ScalarStyle {
  fileprivate var code: UInt8 {
    switch self {
    case .plain: 0
    case .singleQuoted: 1
    case .doubleQuoted: 2
    case .literal: 3
    case .folded: 4
    }
  }

  fileprivate init(code: UInt8) {
    switch code {
    case 1: self = .singleQuoted
    case 2: self = .doubleQuoted
    case 3: self = .literal
    case 4: self = .folded
    default: self = .plain
    }
  }
}

/// An open-addressing hash table of a mapping's scalar keys: pair positions (+ 1, 0 = empty),
/// at most half full. Hashing is seeded (`Hasher`), so crafted keys cannot force collisions.
struct KeyIndex: Sendable {
  private var slots: [UInt32]
  private(set) var count = 0

  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    slots = Array(repeating: 0, count: size)
  }

  static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(key))
    return hasher.finalize()
  }

  /// The position whose key `matches`, probing from `key`'s hash.
  func find(_ key: UnsafeBufferPointer<UInt8>, matches: (Int) -> Bool) -> Int? {
    let mask = slots.count - 1
    var slot = Self.hash(key) & mask
    while slots[slot] != 0 {
      let position = Int(slots[slot]) - 1
      if matches(position) { return position }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Adds `position` for a key with hash `hash` unless a position already `matches` it;
  /// returns that earlier position (a duplicate) or nil. `hashOf` gives the hash of the key at
  /// a stored position, to grow the table.
  mutating func insert(
    _ position: Int, hash: Int, matches: (Int) -> Bool, hashOf: (Int) -> Int
  ) -> Int? {
    if (count + 1) * 2 > slots.count { grow(hashOf: hashOf) }
    let mask = slots.count - 1
    var slot = hash & mask
    while slots[slot] != 0 {
      let existing = Int(slots[slot]) - 1
      if matches(existing) { return existing }
      slot = (slot + 1) & mask
    }
    slots[slot] = UInt32(position + 1)
    count += 1
    return nil
  }

  private mutating func grow(hashOf: (Int) -> Int) {
    let old = slots
    slots = Array(repeating: 0, count: old.count * 2)
    let mask = slots.count - 1
    for entry in old where entry != 0 {
      var slot = hashOf(Int(entry) - 1) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = entry
    }
  }
}
