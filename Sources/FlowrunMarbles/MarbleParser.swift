/// Reads marble strings in the `flowrun` or `rxjs` grammar (marbles.md) into timed items.
public struct MarbleParser: Sendable {
  /// Which marble is being read; each kind allows different symbols.
  enum Mode {
    case hot, cold, expectation, subscription
  }

  public var grammar: MarbleGrammar
  public var tick: Tick
  public var limits: MarbleLimits

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
    var state = try ParseState(marble, grammar: grammar, tick: tick, limits: limits, mode: .subscription)
    try state.run()
    return SubscriptionMarble(
      subscribe: state.zeroFrame,
      unsubscribe: state.unsubscribeFrame,
      subscribeOffset: state.zeroOffset,
      unsubscribeOffset: state.unsubscribeOffset
    )
  }

  func parse(_ marble: String, mode: Mode) throws(MarbleError) -> ParsedMarble {
    var state = try ParseState(marble, grammar: grammar, tick: tick, limits: limits, mode: mode)
    try state.run()
    let zero = state.zeroFrame ?? 0
    if zero != 0 {
      for index in state.items.indices { state.items[index].frame -= zero }
    }
    return ParsedMarble(items: state.items, zeroOffset: state.zeroOffset, end: state.cursor - zero)
  }
}

/// The single left-to-right pass over one marble, in absolute frames from the marble's start.
private struct ParseState {
  /// An open group.
  struct Group {
    var offset: Int
    var frame: Int
    /// Frames the group occupies so far in the rxjs grammar (its `(` included).
    var width: Int
    var isEmpty: Bool
  }

  let scalars: [Unicode.Scalar]
  let grammar: MarbleGrammar
  let tick: Tick
  let limits: MarbleLimits
  let mode: MarbleParser.Mode
  /// Whether the marble has a `^` somewhere (outside quotes).
  let hasCaret: Bool
  /// The index of the last `)` outside quotes, or -1.
  let lastClose: Int

  var items: [MarbleItem] = []
  var cursor = 0
  var index = 0
  var group: Group?
  var zeroFrame: Int?
  var zeroOffset: Int?
  var unsubscribeFrame: Int?
  var unsubscribeOffset: Int?
  /// The terminal symbol already seen, after which no event may follow.
  var terminal: String?

  init(
    _ marble: String, grammar: MarbleGrammar, tick: Tick, limits: MarbleLimits, mode: MarbleParser.Mode
  ) throws(MarbleError) {
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(marble.utf8.count)
    var hasCaret = false
    var inQuote = false
    var lastClose = -1
    for scalar in marble.unicodeScalars {
      if scalars.count == limits.characters {
        throw MarbleError("marble is longer than the limit of \(limits.characters) characters", offset: scalars.count)
      }
      if scalar == "'" { inQuote.toggle() }
      if scalar == "^", !inQuote { hasCaret = true }
      if scalar == ")", !inQuote { lastClose = scalars.count }
      scalars.append(scalar)
    }
    self.scalars = scalars
    self.grammar = grammar
    self.tick = tick
    self.limits = limits
    self.mode = mode
    self.hasCaret = hasCaret
    self.lastClose = lastClose
  }

  /// The frame an event at the current position happens at.
  var eventFrame: Int { group?.frame ?? cursor }

  mutating func run() throws(MarbleError) {
    while index < scalars.count {
      let scalar = scalars[index]
      let start = index
      switch scalar {
      case " ":
        index += 1
      case "-":
        if let open = group, grammar == .flowrun {
          if lastClose < start { throw MarbleError("unclosed group in marble", offset: open.offset) }
          throw MarbleError("'-' is not allowed in a group", offset: start)
        }
        try occupy(1, at: start)
        index += 1
      case "(":
        if group != nil { throw MarbleError("nested group", offset: start) }
        group = Group(offset: start, frame: cursor, width: 1, isEmpty: true)
        index += 1
      case ")":
        guard let open = group else { throw MarbleError("unmatched ')'", offset: start) }
        if open.isEmpty { throw MarbleError("empty group", offset: open.offset) }
        group = nil
        try advance(to: open.frame + (grammar == .rxjs ? open.width + 1 : 1), at: start)
        index += 1
      case "|", "#":
        let name = scalar == "|" ? "'|'" : "'#'"
        if mode == .subscription {
          throw MarbleError("\(name) is not allowed in a subscription marble", offset: start)
        }
        try emit(scalar == "|" ? .completed : .error, at: start)
        terminal = name
        try occupy(1, at: start)
        index += 1
      case "^":
        try caret(at: start)
        index += 1
      case "!":
        try bang(at: start)
        index += 1
      case "@":
        try time(at: start)
      case "'":
        try quoted(at: start)
      default:
        if try duration(at: start) { continue }
        try value(scalar, at: start)
      }
    }
    if let open = group { throw MarbleError("unclosed group in marble", offset: open.offset) }
  }

  /// Takes `frames` frames: outside a group the cursor moves, inside an rxjs group the group widens.
  mutating func occupy(_ frames: Int, at offset: Int) throws(MarbleError) {
    if group != nil {
      group?.isEmpty = false
      if grammar == .rxjs { group?.width += frames }
      return
    }
    try advance(to: cursor + frames, at: offset)
  }

  /// Moves the cursor to `frame`, within the frame limit.
  mutating func advance(to frame: Int, at offset: Int) throws(MarbleError) {
    if frame > limits.frames {
      throw MarbleError("marble is longer than the limit of \(limits.frames) frames", offset: offset)
    }
    cursor = frame
  }

  mutating func emit(_ kind: MarbleItem.Kind, at offset: Int) throws(MarbleError) {
    if let terminal { throw MarbleError("events after \(terminal)", offset: offset) }
    items.append(MarbleItem(frame: eventFrame, kind: kind, offset: offset))
  }

  mutating func caret(at offset: Int) throws(MarbleError) {
    if mode == .cold { throw MarbleError("'^' is not allowed in a cold marble", offset: offset) }
    if zeroFrame != nil { throw MarbleError("'^' may appear only once", offset: offset) }
    if let unsubscribeOffset {
      throw MarbleError("'!' comes before '^'", offset: unsubscribeOffset)
    }
    zeroFrame = eventFrame
    zeroOffset = offset
    try occupy(1, at: offset)
  }

  mutating func bang(at offset: Int) throws(MarbleError) {
    if mode != .subscription {
      throw MarbleError("'!' is only allowed in a subscription marble", offset: offset)
    }
    if unsubscribeFrame != nil { throw MarbleError("'!' may appear only once", offset: offset) }
    unsubscribeFrame = eventFrame
    unsubscribeOffset = offset
    try occupy(grammar == .rxjs ? 0 : 1, at: offset)
  }

  /// The index just past the word starting at `start`: up to the next space or the end.
  func wordEnd(from start: Int) -> Int {
    var end = start
    while end < scalars.count, scalars[end] != " " { end += 1 }
    return end
  }

  func text(_ range: Range<Int>) -> String {
    // UTF-8 written straight into the string's storage (a short token needs no allocation).
    String(unsafeUninitializedCapacity: range.count * 4) { buffer in
      var count = 0
      for scalar in scalars[range] {
        for byte in scalar.utf8 {
          buffer[count] = byte
          count += 1
        }
      }
      return count
    }
  }

  /// `@<time>`: moves to an absolute time counted from frame 0 (the `^` frame if any).
  mutating func time(at start: Int) throws(MarbleError) {
    let end = wordEnd(from: start)
    var word: String { text(start..<end) }
    if let open = group {
      if lastClose < start { throw MarbleError("unclosed group in marble", offset: open.offset) }
      throw MarbleError("'@' is not allowed in a group", offset: start)
    }
    let frames: Int
    if let whole = wholeFrames(start + 1..<end) {
      frames = whole
    } else {
      let literal: DurationLiteral
      do {
        literal = try DurationLiteral(parsing: text(start + 1..<end))
      } catch {
        throw MarbleError("'\(word)' is not a valid time", offset: start)
      }
      frames = try convert(literal, at: start)
    }
    if hasCaret, mode == .hot || mode == .expectation, zeroFrame == nil {
      throw MarbleError("'\(word)' must come after '^'", offset: start)
    }
    let base = mode == .subscription ? 0 : (zeroFrame ?? 0)
    let (target, overflow) = base.addingReportingOverflow(frames)
    if overflow || target > limits.frames {
      throw MarbleError("marble is longer than the limit of \(limits.frames) frames", offset: start)
    }
    if target < cursor { throw MarbleError("'\(word)' moves time backwards", offset: start) }
    cursor = target
    index = end
  }

  /// The frames of a word that is a plain frame count (`12f`, or `12` when `bareAllowed`),
  /// read without building a `DurationLiteral`; nil for anything else (then the general parser
  /// decides, with its messages).
  func wholeFrames(_ range: Range<Int>, bareAllowed: Bool = true) -> Int? {
    var end = range.upperBound
    if end > range.lowerBound, scalars[end - 1] == "f" {
      end -= 1
    } else if !bareAllowed {
      return nil
    }
    guard end > range.lowerBound, end - range.lowerBound <= 18 else { return nil }
    var value = 0
    for index in range.lowerBound..<end {
      let scalar = scalars[index]
      guard MarbleSymbol.isDigit(scalar) else { return nil }
      value = value * 10 + Int(scalar.value - 48)
    }
    return value
  }

  /// A duration token at `start`, if one is there: advances time and returns true.
  mutating func duration(at start: Int) throws(MarbleError) -> Bool {
    guard group == nil, MarbleSymbol.isDigit(scalars[start]), start == 0 || scalars[start - 1] == " " else {
      return false
    }
    let end: Int
    switch grammar {
    case .flowrun:
      end = wordEnd(from: start)
      let last = scalars[end - 1]
      guard last == "s" || last == "m" || last == "f" else { return false }
    case .rxjs:
      guard let match = rxjsDurationEnd(from: start) else { return false }
      end = match
    }
    let frames: Int
    if grammar == .flowrun, let whole = wholeFrames(start..<end, bareAllowed: false) {
      frames = whole
    } else {
      let literal: DurationLiteral
      do {
        literal = try DurationLiteral(parsing: text(start..<end))
      } catch {
        if error.isSyntax { return false }
        throw MarbleError(error.message, offset: start)
      }
      frames = try convert(literal, at: start)
    }
    let (target, overflow) = cursor.addingReportingOverflow(frames)
    if overflow || target > limits.frames {
      throw MarbleError("marble is longer than the limit of \(limits.frames) frames", offset: start)
    }
    cursor = target
    index = end
    return true
  }

  /// The end of an RxJS duration `[0-9]+(\.[0-9]+)?(ms|s|m)` followed by a space, if one starts here.
  func rxjsDurationEnd(from start: Int) -> Int? {
    var i = start
    while i < scalars.count, MarbleSymbol.isDigit(scalars[i]) { i += 1 }
    if i + 1 < scalars.count, scalars[i] == ".", MarbleSymbol.isDigit(scalars[i + 1]) {
      i += 1
      while i < scalars.count, MarbleSymbol.isDigit(scalars[i]) { i += 1 }
    }
    for unit in ["ms", "s", "m"] {
      let unitScalars = Array(unit.unicodeScalars)
      let after = i + unitScalars.count
      guard after < scalars.count, Array(scalars[i..<after]) == unitScalars, scalars[after] == " " else { continue }
      return after
    }
    return nil
  }

  func convert(_ literal: DurationLiteral, at offset: Int) throws(MarbleError) -> Int {
    do {
      return try literal.frames(tick: tick)
    } catch {
      throw MarbleError(error.message, offset: offset)
    }
  }

  /// `'…'`: a quoted value token.
  mutating func quoted(at start: Int) throws(MarbleError) {
    var end = start + 1
    while end < scalars.count, scalars[end] != "'" { end += 1 }
    guard end < scalars.count else { throw MarbleError("unterminated quoted value", offset: start) }
    if end == start + 1 { throw MarbleError("empty quoted value", offset: start) }
    let token = text(start + 1..<end)
    if mode == .subscription {
      throw MarbleError("'\(token)' is not allowed in a subscription marble", offset: start)
    }
    try emit(.value(token: token, quoted: true), at: start)
    try occupy(group == nil ? 1 : end - start + 1, at: start)
    index = end + 1
  }

  /// A one-character value token.
  mutating func value(_ scalar: Unicode.Scalar, at start: Int) throws(MarbleError) {
    if MarbleSymbol.isUnprintable(scalar) {
      let code = String(scalar.value, radix: 16, uppercase: true)
      throw MarbleError(
        "unexpected character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) in marble",
        offset: start)
    }
    let token = String(scalar)
    if mode == .subscription {
      throw MarbleError("'\(token)' is not allowed in a subscription marble", offset: start)
    }
    try emit(.value(token: token, quoted: false), at: start)
    try occupy(1, at: start)
    index += 1
  }
}
