public import FlowrunCore
public import FlowrunDiagnostics

/// How marbles are read: flowrun's own timing or RxJS 7 `TestScheduler.run` timing.
public enum MarbleGrammar: String, Sendable, CaseIterable {
  case flowrun
  case rxjs
}

/// Upper bounds that keep a hostile marble from exhausting memory or time.
public struct MarbleLimits: Sendable, Equatable {
  /// The largest frame a marble may reach.
  public var frames: Int
  /// The largest number of characters (Unicode scalars) in a marble.
  public var characters: Int

  public init(frames: Int = 1_000_000, characters: Int = 1_000_000) {
    self.frames = frames
    self.characters = characters
  }
}

/// A marble that breaks the grammar, with the Unicode-scalar offset of the offending token.
public struct MarbleError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  /// The offset, in Unicode scalars from the start of the marble string, of the token at fault.
  public var offset: Int

  public init(_ message: Diagnostic.Message, offset: Int) {
    self.message = message.text
    self.offset = offset
  }

  public var description: String { "\(message) (at \(offset))" }
}

/// One timed event read from a marble, before its token is resolved through a legend.
public struct MarbleItem: Sendable, Equatable {
  /// What happens at the item's frame.
  public enum Kind: Sendable, Equatable {
    /// A value token; `quoted` when written `'…'` (then `token` is the text inside the quotes).
    case value(token: String, quoted: Bool)
    case error
    case completed
  }

  /// The frame, relative to `^` when the marble has one.
  public var frame: Int
  public var kind: Kind
  /// The Unicode-scalar offset of the token in the marble string.
  public var offset: Int

  public init(frame: Int, kind: Kind, offset: Int) {
    self.frame = frame
    self.kind = kind
    self.offset = offset
  }
}

/// A parsed hot, cold or expectation marble.
public struct ParsedMarble: Sendable, Equatable {
  /// The events in the order written, frames relative to `^` when there is one.
  public var items: [MarbleItem]
  /// The offset of `^`, when the marble has one.
  public var zeroOffset: Int?
  /// The frame just after the marble's last symbol, relative like the items' frames.
  public var end: Int
  /// The marks of the consumer of an `AsyncSequence` (`,` and `;`, `library: async` only).
  public var consumer = ConsumerMarks()

  public init(items: [MarbleItem], zeroOffset: Int?, end: Int) {
    self.items = items
    self.zeroOffset = zeroOffset
    self.end = end
  }

  /// The recorded events, tokens resolved through `legend` and `#` carrying `errorValue`.
  public func events(legend: Legend, errorValue: Value) -> [Recorded] {
    items.map { item in
      switch item.kind {
      case let .value(token, quoted):
        Recorded(frame: item.frame, event: .next(legend.resolve(token: token, quoted: quoted)))
      case .error: Recorded(frame: item.frame, event: .error(errorValue))
      case .completed: Recorded(frame: item.frame, event: .completed)
      }
    }
  }
}

/// What an expectation marble says of its consumer, an `AsyncSequence`'s iterating task
/// (`library: async`, the marks of swift-async-algorithms' validation diagrams): when it calls
/// `next()` (`,`) and when the task is cancelled (`;`).
public struct ConsumerMarks: Sendable, Equatable {
  /// A `,`: the consumer's next pull waits for the frame after `frame`.
  public struct Delay: Sendable, Equatable {
    public var frame: Int
    /// How many events the marble holds before it (which pull it delays).
    public var afterEvents: Int

    public init(frame: Int, afterEvents: Int) {
      self.frame = frame
      self.afterEvents = afterEvents
    }
  }

  public var delays: [Delay] = []
  /// The frame of `;`.
  public var cancel: Int?
  /// The Unicode-scalar offset of `;` in the marble string.
  public var cancelOffset: Int?

  public init(delays: [Delay] = [], cancel: Int? = nil, cancelOffset: Int? = nil) {
    self.delays = delays
    self.cancel = cancel
    self.cancelOffset = cancelOffset
  }

  public var isEmpty: Bool { delays.isEmpty && cancel == nil }

  func shifted(by frames: Int) -> ConsumerMarks {
    guard frames != 0 else { return self }
    var marks = self
    for index in marks.delays.indices { marks.delays[index].frame += frames }
    marks.cancel = cancel.map { $0 + frames }
    return marks
  }

  /// The frame before which each pull does not happen, pull 0 being the one at subscription
  /// (`nil`: at once), given the frames of the marble's events in order. As the package's
  /// harness reads a diagram: the consumer pulls again in the frame of each event it expects,
  /// and each `,` moves the pending pull to the frame after it. Past the list, it pulls at once.
  public func pullFrames(eventFrames: [Int]) -> [Int?] {
    var pulls: [Int?] = [nil]
    var next = 0
    for index in 0...eventFrames.count {
      while next < delays.count, delays[next].afterEvents == index {
        pulls[pulls.count - 1] = delays[next].frame + 1
        next += 1
      }
      if index < eventFrames.count { pulls.append(eventFrames[index]) }
    }
    return pulls
  }
}

/// A parsed subscription marble: frames counted from the start of the marble.
public struct SubscriptionMarble: Sendable, Equatable {
  /// The `^` frame; nil when the marble has no `^` (the caller decides what that means).
  public var subscribe: Int?
  /// The `!` frame; nil when the marble has no `!`.
  public var unsubscribe: Int?
  public var subscribeOffset: Int?
  public var unsubscribeOffset: Int?

  public init(subscribe: Int?, unsubscribe: Int?, subscribeOffset: Int? = nil, unsubscribeOffset: Int? = nil) {
    self.subscribe = subscribe
    self.unsubscribe = unsubscribe
    self.subscribeOffset = subscribeOffset
    self.unsubscribeOffset = unsubscribeOffset
  }
}

/// Characters with a meaning of their own in a marble, never read as a one-character value.
enum MarbleSymbol {
  /// Whether `scalar` is a marble symbol, whitespace or a control character.
  static func isReserved(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case " ", "-", "(", ")", "|", "#", "^", "!", "@", "'", ",", ";": return true
    default: return isUnprintable(scalar)
    }
  }

  /// Whitespace and control characters, which never stand for a value (ASCII checked without a
  /// Unicode property lookup).
  static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x80 { return isUnprintable(ascii: UInt8(scalar.value)) }
    return scalar.properties.isWhitespace || (0x80...0x9F).contains(scalar.value)
  }

  /// `isUnprintable` for an ASCII byte: space and the control characters.
  static func isUnprintable(ascii byte: UInt8) -> Bool {
    byte < 0x21 || byte == 0x7F
  }

  /// Whether `scalar` is an ASCII digit.
  static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 48 && scalar.value <= 57
  }
}
