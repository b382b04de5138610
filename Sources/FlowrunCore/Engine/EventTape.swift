#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Recorded events packed into bytes, read in order: a hot marble's events, an expected
/// marble's, and what a recorder saw.
///
/// A long marble is a million events; as `[Recorded]` that is 32 MB per copy (a 24-byte `Value`
/// and a frame each), and a run holds three (hot, expected, recorded). Packed, an event is a
/// header byte, the frame's distance from the previous event when it does not fit the header,
/// and the value inline: W1's events (`'123'` one frame apart) take four bytes each.
///
/// Layout of one event:
/// - header: bits 0–3 the payload kind (`Kind`), bit 4 set for `.error(value)`, bits 5–7 the
///   frame delta 0…6, or 7 when a zigzag varint delta follows;
/// - the delta varint, when bit 5–7 say so;
/// - the payload: an integer as a zigzag varint, a double's 8 bytes, a string of at most 15
///   UTF-8 bytes as its length and bytes (decoded without allocating), else the index of the
///   value in `boxed` (lists, maps, signals, longer strings) as a varint.
///
/// Frames are stored as deltas from `origin`, so moving every frame (a hot marble's zero found
/// after it was parsed) changes one integer.
public struct EventTape: Sendable {
  private var bytes: [UInt8] = []
  /// Values not packed into `bytes`, in the order of their events.
  private var boxed: [Value] = []
  /// The frame the first delta counts from.
  private var origin = 0
  /// The frame of the last event appended, relative to `origin`.
  private var last = 0
  /// The number of events.
  public private(set) var count = 0

  public init() {}

  public init(_ events: some Sequence<Recorded>) {
    for event in events { append(event) }
  }

  public var isEmpty: Bool { count == 0 }

  /// The bytes the packed events take (boxed values not counted).
  public var byteCount: Int { bytes.count }

  /// The events as an array (for printing and diffing; a run reads them in order instead).
  public var events: [Recorded] { Array(self) }

  /// Room for about `count` more events of a few bytes each.
  public mutating func reserveCapacity(events count: Int) {
    bytes.reserveCapacity(bytes.count + 4 * count)
  }

  /// Adds `count` to every frame, appended or to come.
  public mutating func shiftFrames(by count: Int) {
    origin += count
  }

  public mutating func append(_ recorded: Recorded) {
    let delta = recorded.frame - origin - last
    last = recorded.frame - origin
    count += 1
    // Room for a short marble at once, rather than growing through 1, 2, 4, 8 … bytes.
    if bytes.capacity == 0 { bytes.reserveCapacity(64) }
    let header: UInt8 = delta >= 0 && delta < 7 ? UInt8(delta) << 5 : 7 << 5
    switch recorded.event {
    case .completed: pack(header | Kind.completed.rawValue, delta: delta)
    case .next(let value): append(value, header: header, delta: delta)
    case .error(let value): append(value, header: header | 1 << 4, delta: delta)
    }
  }

  private mutating func append(_ value: Value, header: UInt8, delta: Int) {
    switch value {
    case .null: pack(header | Kind.null.rawValue, delta: delta)
    case .bool(let bool): pack(header | (bool ? Kind.true : Kind.false).rawValue, delta: delta)
    case .int(let int):
      pack(header | Kind.int.rawValue, delta: delta)
      appendVarint(Self.zigzag(int))
    case .double(let double):
      pack(header | Kind.double.rawValue, delta: delta)
      withUnsafeBytes(of: double.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    case .string(let text) where text.utf8.count <= Self.shortString:
      pack(header | Kind.string.rawValue, delta: delta)
      // The length, at most 15, is its own one-byte varint.
      bytes.append(UInt8(text.utf8.count))
      // From contiguous UTF-8 (a small string's is copied out of the value): appending the
      // `utf8` view went through its generic iteration.
      var text = text
      text.withUTF8 { bytes.append(contentsOf: $0) }
    case .string, .list, .map, .signal:
      pack(header | Kind.boxed.rawValue, delta: delta)
      appendVarint(UInt(boxed.count))
      boxed.append(value)
    }
  }

  // MARK: - Reading

  /// A position on the tape: the next event to read.
  public struct Cursor: Sendable {
    var offset = 0
    var frame: Int
  }

  /// The position of the first event.
  public var start: Cursor { Cursor(frame: origin) }

  /// The event at `cursor`, moving it to the next; nil at the end.
  @inline(__always)
  public func next(_ cursor: inout Cursor) -> Recorded? {
    guard cursor.offset < bytes.count else { return nil }
    // Unsafe reads: the tape reads back only what `append` wrote into its own private bytes, so
    // every offset and length it decodes lies inside them (`EventTapeTests` round-trips them).
    return bytes.withUnsafeBufferPointer { buffer in
      var offset = cursor.offset
      let header = buffer[offset]
      offset += 1
      let deltaBits = Int(header >> 5)
      cursor.frame += deltaBits < 7 ? deltaBits : Self.unzigzag(Self.varint(buffer, &offset))
      let event: Event
      let value: Value
      switch Kind(rawValue: header & 0x0F)! {
      case .completed:
        cursor.offset = offset
        return Recorded(frame: cursor.frame, event: .completed)
      case .null: value = .null
      case .false: value = .bool(false)
      case .true: value = .bool(true)
      case .int: value = .int(Self.unzigzag(Self.varint(buffer, &offset)))
      case .double:
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(buffer[offset + index]) << (8 * index) }
        offset += 8
        value = .double(Double(bitPattern: bits))
      case .string:
        let length = Int(Self.varint(buffer, &offset))
        // At most 15 bytes: a small string, copied in (quicker than `String(decoding:)`, whose
        // repairing validation is most of the cost of a short string).
        let source = buffer.baseAddress! + offset
        value = .string(
          String(unsafeUninitializedCapacity: length) { target in
            target.baseAddress?.initialize(from: source, count: length)
            return length
          })
        offset += length
      case .boxed:
        value = boxed[Int(Self.varint(buffer, &offset))]
      }
      event = header & (1 << 4) != 0 ? .error(value) : .next(value)
      cursor.offset = offset
      return Recorded(frame: cursor.frame, event: event)
    }
  }

  /// Calls `body` with the value of each `.next` event in order, except that an inline value
  /// (null, a boolean, a number, a short string) is given only where its kind of payload first
  /// appears: the others are skipped without being decoded. For questions about the kinds of
  /// values a tape holds (a hot marble of a million events, scanned at load). `body` returns
  /// false to stop.
  public func forEachValueOfNewKind(_ body: (Value) -> Bool) {
    var seen: UInt16 = 0
    var offset = 0
    var cursor = start
    while offset < bytes.count {
      let header = bytes[offset]
      let kind = Kind(rawValue: header & 0x0F)!
      let isNext = header & (1 << 4) == 0 && kind != .completed
      let bit: UInt16 = 1 << kind.rawValue
      if isNext && (kind == .boxed || seen & bit == 0) {
        seen |= bit
        cursor.offset = offset
        guard case .next(let value)? = next(&cursor)?.event, body(value) else { return }
        offset = cursor.offset
        continue
      }
      // Skipped: the header, the frame delta, the payload.
      offset += 1
      bytes.withUnsafeBufferPointer { buffer in
        if header >> 5 == 7 { _ = Self.varint(buffer, &offset) }
        switch kind {
        case .completed, .null, .false, .true: break
        case .int, .boxed: _ = Self.varint(buffer, &offset)
        case .double: offset += 8
        case .string: offset += Int(Self.varint(buffer, &offset))
        }
      }
    }
  }

  // MARK: - Packing

  /// What follows an event's header.
  private enum Kind: UInt8 {
    case completed, null, `false`, `true`, int, double, string, boxed
  }

  /// The longest string packed inline (Swift keeps up to 15 UTF-8 bytes without allocating).
  private static let shortString = 15

  private mutating func pack(_ header: UInt8, delta: Int) {
    bytes.append(header)
    if header >> 5 == 7 { appendVarint(Self.zigzag(delta)) }
  }

  private mutating func appendVarint(_ value: UInt) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  @inline(__always)
  private static func varint(_ buffer: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> UInt {
    var result: UInt = 0
    var shift: UInt = 0
    while true {
      let byte = buffer[offset]
      offset += 1
      result |= UInt(byte & 0x7F) << shift
      if byte < 0x80 { return result }
      shift += 7
    }
  }

  private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
      }
    }
  }

  private static func zigzag(_ value: Int) -> UInt {
    UInt(bitPattern: (value << 1) ^ (value >> (Int.bitWidth - 1)))
  }

  @inline(__always)
  private static func unzigzag(_ value: UInt) -> Int {
    Int(bitPattern: value >> 1) ^ -Int(bitPattern: value & 1)
  }
}

extension EventTape: Sequence {
  public struct Iterator: IteratorProtocol {
    let tape: EventTape
    var cursor: Cursor

    public mutating func next() -> Recorded? { tape.next(&cursor) }
  }

  public func makeIterator() -> Iterator { Iterator(tape: self, cursor: start) }

  public var underestimatedCount: Int { count }
}

extension EventTape {
  /// The events from frame `subscribe` up to (not including) frame `unsubscribe`, as a
  /// `subscribe:` window sees them.
  public func window(_ window: (subscribe: Int, unsubscribe: Int?)) -> EventTape {
    EventTape(lazy.filter { $0.frame >= window.subscribe && $0.frame < (window.unsubscribe ?? .max) })
  }
}

extension EventTape: Equatable {
  /// Same events (frames, order, values by `Value`'s `==`).
  public static func == (lhs: EventTape, rhs: EventTape) -> Bool {
    lhs.count == rhs.count && lhs.firstDifference(from: rhs) == nil
  }

  /// The index of the first event that differs between the two tapes (one ending earlier
  /// differs at its end), or nil when they hold the same events.
  public func firstDifference(from other: EventTape) -> Int? {
    // The same bytes from the same origin are the same events when their boxed values are
    // equal: an expectation that passes is checked without decoding it.
    if count == other.count, origin == other.origin, bytes.count == other.bytes.count,
      boxed.count == other.boxed.count, Self.sameBytes(bytes, other.bytes), boxed == other.boxed
    {
      return nil
    }
    var mine = start
    var theirs = other.start
    var index = 0
    while true {
      let a = next(&mine)
      let b = other.next(&theirs)
      if a == nil && b == nil { return nil }
      if a != b { return index }
      index += 1
    }
  }
}
