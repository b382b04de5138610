public import FlowrunCore
import FlowrunDiagnostics

/// Reads marble strings in the `flowrun` or `rxjs` grammar (marbles.md) into timed items.
public struct MarbleParser: Sendable {
  /// Which marble is being read; each kind allows different symbols.
  enum Mode {
    case hot, cold, expectation, subscription
  }

  public var grammar: MarbleGrammar
  public var tick: Tick
  public var limits: MarbleLimits
  /// Whether an expectation marble may hold its consumer's marks (`library: async`): `,` (the
  /// next pull waits for the next frame) and `;` (the iterating task is cancelled). Elsewhere
  /// both are errors.
  public var consumerMarks = false

  public init(grammar: MarbleGrammar = .flowrun, tick: Tick = .default, limits: MarbleLimits = MarbleLimits()) {
    self.grammar = grammar
    self.tick = tick
    self.limits = limits
  }

  /// Parses a hot marble: `^` (optional) marks frame 0.
  public func parseHot(_ marble: String) throws(MarbleError) -> ParsedMarble {
    try parse(marble, mode: .hot)
  }

  /// Parses a cold marble, which has no `^`: frames count from its start.
  public func parseCold(_ marble: String) throws(MarbleError) -> ParsedMarble {
    try parse(marble, mode: .cold)
  }

  /// Parses an expectation marble: `^` (optional) marks frame 0.
  public func parseExpectation(_ marble: String) throws(MarbleError) -> ParsedMarble {
    try parse(marble, mode: .expectation)
  }

  /// Parses a subscription marble such as `--^---!` or `(^!)`.
  public func parseSubscription(_ marble: String) throws(MarbleError) -> SubscriptionMarble {
    let timeline = try read(marble, mode: .subscription)
    return SubscriptionMarble(
      subscribe: timeline.zeroFrame,
      unsubscribe: timeline.unsubscribeFrame,
      subscribeOffset: timeline.zeroOffset,
      unsubscribeOffset: timeline.unsubscribeOffset
    )
  }

  /// Parses a hot (`hot: true`) or expectation marble, handing each item to `each` as it is
  /// read instead of keeping them: a marble of a million events then never holds its items and
  /// what the caller makes of them at once. Items come in the order written, their frames
  /// counted from the marble's start; the returned marble has no items, and its `zeroFrame`
  /// is what to subtract from them (0 without `^`).
  public func parse(
    _ marble: String, hot: Bool, each: (MarbleItem) -> Void
  ) throws(MarbleError) -> (marble: ParsedMarble, zeroFrame: Int) {
    let timeline = try withoutActuallyEscaping(each) { each throws(MarbleError) in
      try read(marble, mode: hot ? .hot : .expectation, sink: each)
    }
    let zero = timeline.zeroFrame ?? 0
    var parsed = ParsedMarble(items: [], zeroOffset: timeline.zeroOffset, end: timeline.cursor - zero)
    parsed.consumer = timeline.consumer.shifted(by: -zero)
    return (parsed, zero)
  }

  /// ``parse(_:hot:each:)`` with the values of one-character tokens known: an unquoted ASCII
  /// token whose byte has a value in `values` (128 entries, by byte) goes to `eachValue` as
  /// that value, with its frame, instead of becoming an item for `each` (a long marble over a
  /// small legend makes no item, token string or lookup per event).
  public func parse(
    _ marble: String, hot: Bool, values: [Value?], eachValue: (Int, Value) -> Void, each: (MarbleItem) -> Void
  ) throws(MarbleError) -> (marble: ParsedMarble, zeroFrame: Int) {
    precondition(values.count == 128, "one value (or nil) per ASCII byte")
    let timeline = try withoutActuallyEscaping(each) { each throws(MarbleError) in
      try withoutActuallyEscaping(eachValue) { eachValue throws(MarbleError) in
        try read(marble, mode: hot ? .hot : .expectation, sink: each, byteValues: (values, eachValue))
      }
    }
    let zero = timeline.zeroFrame ?? 0
    var parsed = ParsedMarble(items: [], zeroOffset: timeline.zeroOffset, end: timeline.cursor - zero)
    parsed.consumer = timeline.consumer.shifted(by: -zero)
    return (parsed, zero)
  }

  func parse(_ marble: String, mode: Mode) throws(MarbleError) -> ParsedMarble {
    var timeline = try read(marble, mode: mode)
    let zero = timeline.zeroFrame ?? 0
    if zero != 0 {
      for index in timeline.items.indices { timeline.items[index].frame -= zero }
    }
    var parsed = ParsedMarble(items: timeline.items, zeroOffset: timeline.zeroOffset, end: timeline.cursor - zero)
    parsed.consumer = timeline.consumer.shifted(by: -zero)
    return parsed
  }

  /// Reads `marble` in place, straight from its UTF-8 storage (no copy of the text).
  private func read(
    _ marble: String, mode: Mode, sink: ((MarbleItem) -> Void)? = nil,
    byteValues: ParseState.ByteValues? = nil
  ) throws(MarbleError) -> Timeline {
    var marble = marble
    let outcome = marble.withUTF8 { buffer in
      Result { () throws(MarbleError) in
        try ParseState.read(
          MarbleBytes(buffer: buffer), parser: self, mode: mode, sink: sink, byteValues: byteValues)
      }
    }
    return try outcome.get()
  }
}

/// What one pass over a marble found, in absolute frames from the marble's start.
private struct Timeline {
  var items: [MarbleItem] = []
  /// The frame just after the last symbol read.
  var cursor = 0
  var zeroFrame: Int?
  var zeroOffset: Int?
  var unsubscribeFrame: Int?
  var unsubscribeOffset: Int?
  /// The consumer's marks (`,` and `;`), in absolute frames.
  var consumer = ConsumerMarks()
  /// The events read so far.
  var events = 0
}

/// The single left-to-right pass over one marble's UTF-8 bytes.
///
/// `index` walks the bytes; `offset` counts the Unicode scalars before `index`, which is what
/// errors and items report.
private struct ParseState {
  /// An open group.
  struct Group {
    /// The scalar offset of its `(`.
    var offset: Int
    var frame: Int
    /// Frames the group occupies so far in the rxjs grammar (its `(` included).
    var width: Int
    var isEmpty: Bool
  }

  let bytes: MarbleBytes
  let grammar: MarbleGrammar
  let tick: Tick
  let limits: MarbleLimits
  let mode: MarbleParser.Mode
  let consumerMarks: Bool
  /// Where items go instead of `timeline.items`, when the caller streams them.
  let sink: ((MarbleItem) -> Void)?
  /// The values of one-byte tokens by byte, and where such a token's value goes (instead of an
  /// item to `sink`), when the caller knows them.
  typealias ByteValues = (values: [Value?], sink: (Int, Value) -> Void)
  /// The values of `ByteValues` (empty without), and its sink: apart, so that reading one per
  /// event copies neither.
  let byteTable: [Value?]
  let byteSink: ((Int, Value) -> Void)?

  var timeline = Timeline()
  /// The byte being read.
  var index = 0
  /// The scalar offset of the byte being read.
  var offset = 0
  var group: Group?
  /// Whether a `^` (outside quotes) comes later in the marble, once an `@` time has asked: the
  /// answer stays true until that `^` is read (then `zeroFrame` is set), and false stays false.
  var caretAhead: Bool?
  /// The terminal symbol already seen, after which no event may follow.
  var terminal: String?

  /// Reads the whole marble.
  static func read(
    _ bytes: MarbleBytes, parser: MarbleParser, mode: MarbleParser.Mode,
    sink: ((MarbleItem) -> Void)? = nil, byteValues: ByteValues? = nil
  ) throws(MarbleError) -> Timeline {
    var state = try ParseState(
      bytes, grammar: parser.grammar, tick: parser.tick, limits: parser.limits, mode: mode,
      consumerMarks: parser.consumerMarks && mode == .expectation, sink: sink, byteValues: byteValues)
    try state.run()
    // The sink does not outlive the read (`parse(_:hot:each:)` lends it without escaping):
    // only the timeline is returned.
    return state.timeline
  }

  init(
    _ bytes: MarbleBytes, grammar: MarbleGrammar, tick: Tick, limits: MarbleLimits, mode: MarbleParser.Mode,
    consumerMarks: Bool, sink: ((MarbleItem) -> Void)?, byteValues: ByteValues?
  ) throws(MarbleError) {
    // A marble has at most as many scalars as bytes: only a longer one needs counting.
    if bytes.count > limits.characters {
      var scalars = 0
      for byte in bytes.buffer where MarbleBytes.startsScalar(byte) {
        if scalars == limits.characters {
          throw MarbleError(.tooLong(characters: limits.characters), offset: scalars)
        }
        scalars += 1
      }
    }
    self.bytes = bytes
    self.grammar = grammar
    self.tick = tick
    self.limits = limits
    self.mode = mode
    self.consumerMarks = consumerMarks
    self.sink = sink
    self.byteTable = byteValues?.values ?? []
    self.byteSink = byteValues?.sink
    if mode != .subscription && sink == nil {
      // Room for the events of a short marble; a long one grows the array as it goes.
      timeline.items.reserveCapacity(min(bytes.count, 16))
    }
  }

  /// The frame an event at the current position happens at.
  var eventFrame: Int { group?.frame ?? timeline.cursor }

  /// Steps over the one-byte symbol being read.
  mutating func step() {
    index += 1
    offset += 1
  }

  /// Moves the reading position to the byte `end`, past a token of `scalars` scalars.
  mutating func move(to end: Int, scalars: Int) {
    index = end
    offset += scalars
  }

  mutating func run() throws(MarbleError) {
    while index < bytes.count {
      let byte = bytes[index]
      let start = offset
      switch byte {
      case UInt8(ascii: " "):
        step()
      case UInt8(ascii: "-"):
        if let open = group, grammar == .flowrun {
          if !bytes.hasUnquoted(UInt8(ascii: ")"), from: index) {
            throw MarbleError(.unclosedGroup, offset: open.offset)
          }
          throw MarbleError(.notInGroup("-"), offset: start)
        }
        try occupy(1, at: start)
        step()
      case UInt8(ascii: "("):
        if group != nil { throw MarbleError(.nestedGroup, offset: start) }
        group = Group(offset: start, frame: timeline.cursor, width: 1, isEmpty: true)
        step()
      case UInt8(ascii: ")"):
        guard let open = group else { throw MarbleError(.unmatchedParenthesis, offset: start) }
        if open.isEmpty { throw MarbleError(.emptyGroup, offset: open.offset) }
        group = nil
        try advance(to: open.frame + (grammar == .rxjs ? open.width + 1 : 1), at: start)
        step()
      case UInt8(ascii: "|"), UInt8(ascii: "#"):
        let completes = byte == UInt8(ascii: "|")
        let name = completes ? "'|'" : "'#'"
        if mode == .subscription {
          throw MarbleError(.notInSubscription(name), offset: start)
        }
        try emit(completes ? .completed : .error, at: start)
        terminal = name
        try occupy(1, at: start)
        step()
      case UInt8(ascii: "^"):
        try caret(at: start)
        step()
      case UInt8(ascii: "!"):
        try bang(at: start)
        step()
      case UInt8(ascii: ","), UInt8(ascii: ";"):
        try consumerMark(byte == UInt8(ascii: ";"), at: start)
        step()
      case UInt8(ascii: "@"):
        try time(at: start)
      case UInt8(ascii: "'"):
        try quoted(at: start)
      default:
        if MarbleBytes.isDigit(byte), try duration(at: start) { continue }
        try value(at: start)
      }
    }
    if let open = group { throw MarbleError(.unclosedGroup, offset: open.offset) }
  }

  /// Takes `frames` frames: outside a group the cursor moves, inside an rxjs group the group widens.
  mutating func occupy(_ frames: Int, at offset: Int) throws(MarbleError) {
    if group != nil {
      group?.isEmpty = false
      if grammar == .rxjs { group?.width += frames }
      return
    }
    try advance(to: timeline.cursor + frames, at: offset)
  }

  /// Moves the cursor to `frame`, within the frame limit.
  mutating func advance(to frame: Int, at offset: Int) throws(MarbleError) {
    if frame > limits.frames {
      throw MarbleError(.tooLong(frames: limits.frames), offset: offset)
    }
    timeline.cursor = frame
  }

  mutating func emit(_ kind: consuming MarbleItem.Kind, at offset: Int) throws(MarbleError) {
    try countEvent(at: offset)
    let item = MarbleItem(frame: eventFrame, kind: kind, offset: offset)
    if let sink { sink(item) } else { timeline.items.append(item) }
  }

  /// Checks that an event may come at the current position, and counts it.
  @inline(__always)
  mutating func countEvent(at offset: Int) throws(MarbleError) {
    if let terminal { throw MarbleError(.eventsAfter(terminal), offset: offset) }
    if let cancel = timeline.consumer.cancel, eventFrame > cancel {
      throw MarbleError(.eventsAfter("';'"), offset: offset)
    }
    timeline.events += 1
  }

  /// `,` (the consumer's next pull waits for the next frame) or `;` (its task is cancelled):
  /// only in an expectation that reads them (`consumerMarks`).
  mutating func consumerMark(_ cancels: Bool, at offset: Int) throws(MarbleError) {
    let symbol = cancels ? ";" : ","
    guard consumerMarks else {
      throw MarbleError(cancels ? .cancelElsewhere : .delayElsewhere, offset: offset)
    }
    if let terminal { throw MarbleError(.eventsAfter(terminal), offset: offset) }
    if let cancel = timeline.consumer.cancel {
      if cancels { throw MarbleError(.onlyOnce(symbol), offset: offset) }
      if eventFrame > cancel { throw MarbleError(.eventsAfter("';'"), offset: offset) }
    }
    if cancels {
      timeline.consumer.cancel = eventFrame
      timeline.consumer.cancelOffset = offset
    } else {
      timeline.consumer.delays.append(ConsumerMarks.Delay(frame: eventFrame, afterEvents: timeline.events))
    }
    try occupy(1, at: offset)
  }

  mutating func caret(at offset: Int) throws(MarbleError) {
    if mode == .cold { throw MarbleError(.caretInColdMarble, offset: offset) }
    if timeline.zeroFrame != nil { throw MarbleError(.onlyOnce("^"), offset: offset) }
    if let unsubscribeOffset = timeline.unsubscribeOffset {
      throw MarbleError(.unsubscribeBeforeSubscribe, offset: unsubscribeOffset)
    }
    timeline.zeroFrame = eventFrame
    timeline.zeroOffset = offset
    try occupy(1, at: offset)
  }

  mutating func bang(at offset: Int) throws(MarbleError) {
    if mode != .subscription {
      throw MarbleError(.bangOutsideSubscription, offset: offset)
    }
    if timeline.unsubscribeFrame != nil { throw MarbleError(.onlyOnce("!"), offset: offset) }
    timeline.unsubscribeFrame = eventFrame
    timeline.unsubscribeOffset = offset
    try occupy(grammar == .rxjs ? 0 : 1, at: offset)
  }

  /// `@<time>`: moves to an absolute time counted from frame 0 (the `^` frame if any).
  mutating func time(at start: Int) throws(MarbleError) {
    let first = index
    let (end, scalars) = bytes.word(from: first)
    if let open = group {
      if !bytes.hasUnquoted(UInt8(ascii: ")"), from: first) {
        throw MarbleError(.unclosedGroup, offset: open.offset)
      }
      throw MarbleError(.notInGroup("@"), offset: start)
    }
    let frames: Int
    if let whole = bytes.wholeFrames(first + 1..<end) {
      frames = whole
    } else {
      let literal: DurationLiteral
      do {
        literal = try DurationLiteral(parsing: bytes.text(first + 1..<end))
      } catch {
        throw MarbleError(.invalidTime(bytes.text(first..<end)), offset: start)
      }
      frames = try ParseState.frames(of: literal, tick: tick, at: start)
    }
    if mode == .hot || mode == .expectation, timeline.zeroFrame == nil, isCaretAhead() {
      throw MarbleError(.timeBeforeCaret(bytes.text(first..<end)), offset: start)
    }
    let base = mode == .subscription ? 0 : (timeline.zeroFrame ?? 0)
    let (target, overflow) = base.addingReportingOverflow(frames)
    if overflow || target > limits.frames {
      throw MarbleError(.tooLong(frames: limits.frames), offset: start)
    }
    if target < timeline.cursor {
      throw MarbleError(.timeMovesBackwards(bytes.text(first..<end)), offset: start)
    }
    timeline.cursor = target
    move(to: end, scalars: scalars)
  }

  /// Whether a `^` outside quotes comes after the current position, looked for once per marble.
  mutating func isCaretAhead() -> Bool {
    if let caretAhead { return caretAhead }
    let found = bytes.hasUnquoted(UInt8(ascii: "^"), from: index)
    caretAhead = found
    return found
  }

  /// A duration token at the current position (a digit), if one is there: advances time and
  /// returns true.
  mutating func duration(at start: Int) throws(MarbleError) -> Bool {
    let first = index
    guard group == nil, first == 0 || bytes[first - 1] == UInt8(ascii: " ") else { return false }
    let end: Int
    let scalars: Int
    switch grammar {
    case .flowrun:
      (end, scalars) = bytes.word(from: first)
      let last = bytes[end - 1]
      guard last == UInt8(ascii: "s") || last == UInt8(ascii: "m") || last == UInt8(ascii: "f") else {
        return false
      }
    case .rxjs:
      guard let match = bytes.rxjsDurationEnd(from: first) else { return false }
      end = match
      scalars = end - first  // digits, a point and a unit: ASCII
    }
    let frames: Int
    if grammar == .flowrun, let whole = bytes.wholeFrames(first..<end, bareAllowed: false) {
      frames = whole
    } else {
      let literal: DurationLiteral
      do {
        literal = try DurationLiteral(parsing: bytes.text(first..<end))
      } catch {
        if error.isSyntax { return false }
        throw MarbleError(Diagnostic.Message(error.message), offset: start)
      }
      frames = try ParseState.frames(of: literal, tick: tick, at: start)
    }
    let (target, overflow) = timeline.cursor.addingReportingOverflow(frames)
    if overflow || target > limits.frames {
      throw MarbleError(.tooLong(frames: limits.frames), offset: start)
    }
    timeline.cursor = target
    move(to: end, scalars: scalars)
    return true
  }

  /// The frames `literal` lasts, its errors reported at `offset`.
  static func frames(of literal: DurationLiteral, tick: Tick, at offset: Int) throws(MarbleError) -> Int {
    do {
      return try literal.frames(tick: tick)
    } catch {
      throw MarbleError(Diagnostic.Message(error.message), offset: offset)
    }
  }

  /// `'…'`: a quoted value token.
  mutating func quoted(at start: Int) throws(MarbleError) {
    guard let (end, scalars) = bytes.closingQuote(from: index) else {
      throw MarbleError(.unterminatedQuote, offset: start)
    }
    if scalars == 0 { throw MarbleError(.emptyQuote, offset: start) }
    let token = bytes.text(index + 1..<end)
    if mode == .subscription {
      throw MarbleError(.notInSubscription("'\(token)'"), offset: start)
    }
    try emit(.value(token: token, quoted: true), at: start)
    // In an rxjs group every scalar of the token, quotes included, takes a frame.
    try occupy(group == nil ? 1 : scalars + 2, at: start)
    move(to: end + 1, scalars: scalars + 2)
  }

  /// A one-character value token: the scalar at the current position.
  mutating func value(at start: Int) throws(MarbleError) {
    let lead = bytes[index]
    let length = MarbleBytes.scalarLength(lead: lead)
    if lead < 0x80 ? MarbleSymbol.isUnprintable(ascii: lead) : bytes.isUnprintable(at: index, length: length) {
      throw ParseState.unexpected(bytes.scalar(at: index, length: length), at: start)
    }
    if Int(lead) < byteTable.count, mode != .subscription, let known = byteTable[Int(lead)], let byteSink {
      // A one-byte token whose value the caller knows: no item.
      try countEvent(at: start)
      byteSink(eventFrame, known)
      try occupy(1, at: start)
      move(to: index + 1, scalars: 1)
      return
    }
    let token = bytes.text(index..<index + length)
    if mode == .subscription {
      throw MarbleError(.notInSubscription("'\(token)'"), offset: start)
    }
    try emit(.value(token: token, quoted: false), at: start)
    try occupy(1, at: start)
    move(to: index + length, scalars: 1)
  }

  /// The error for a character that may not stand for a value.
  static func unexpected(_ scalar: Unicode.Scalar, at offset: Int) -> MarbleError {
    let code = String(scalar.value, radix: 16, uppercase: true)
    return MarbleError(.unexpectedCharacter(code: code), offset: offset)
  }
}

extension Diagnostic.Message {
  fileprivate static let unclosedGroup: Self = "unclosed group in marble"
  fileprivate static let nestedGroup: Self = "nested group"
  fileprivate static let unmatchedParenthesis: Self = "unmatched ')'"
  fileprivate static let emptyGroup: Self = "empty group"
  fileprivate static let caretInColdMarble: Self = "'^' is not allowed in a cold marble"
  fileprivate static let unsubscribeBeforeSubscribe: Self = "'!' comes before '^'"
  fileprivate static let bangOutsideSubscription: Self = "'!' is only allowed in a subscription marble"
  fileprivate static let unterminatedQuote: Self = "unterminated quoted value"
  fileprivate static let emptyQuote: Self = "empty quoted value"
  fileprivate static let delayElsewhere = Self(
    "',' (the consumer's next pull waits a frame) is only allowed in an expectation under 'library: async'; "
      + "write \"','\" for the one-character value")
  fileprivate static let cancelElsewhere = Self(
    "';' (the iterating task is cancelled) is only allowed in an expectation under 'library: async'; "
      + "write \"';'\" for the one-character value")

  fileprivate static func tooLong(characters limit: Int) -> Self {
    "marble is longer than the limit of \(limit) characters"
  }
  fileprivate static func tooLong(frames limit: Int) -> Self { "marble is longer than the limit of \(limit) frames" }
  fileprivate static func notInGroup(_ symbol: String) -> Self { "'\(symbol)' is not allowed in a group" }
  /// `what`: a terminal's name, or a quoted token.
  fileprivate static func notInSubscription(_ what: String) -> Self {
    "\(what) is not allowed in a subscription marble"
  }
  fileprivate static func eventsAfter(_ terminal: String) -> Self { "events after \(terminal)" }
  fileprivate static func onlyOnce(_ symbol: String) -> Self { "'\(symbol)' may appear only once" }
  fileprivate static func invalidTime(_ text: String) -> Self { "'\(text)' is not a valid time" }
  fileprivate static func timeBeforeCaret(_ text: String) -> Self { "'\(text)' must come after '^'" }
  fileprivate static func timeMovesBackwards(_ text: String) -> Self { "'\(text)' moves time backwards" }
  /// `code`: the scalar's value in upper-case hexadecimal.
  fileprivate static func unexpectedCharacter(code: String) -> Self {
    "unexpected character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) in marble"
  }
}
