public import FlowrunCore

/// A legend entry the printer had to invent for a value no token could name.
public struct LegendEntry: Sendable, Equatable {
  /// How the entry is written under the diagram.
  public enum Kind: Sendable, Equatable {
    /// `x = <value>`.
    case value
    /// `x = !cold "<marble>"`: a signal value printed as its own marble, with `errorValue` set
    /// when its error differs from the marble's error value.
    case signal(marble: String, errorValue: Value?)
  }

  /// The legend key (`x`, or `v1` for a quoted `'v1'` token).
  public var key: String
  /// The value the key stands for.
  public var value: Value
  public var kind: Kind

  public init(key: String, value: Value, kind: Kind) {
    self.key = key
    self.value = value
    self.kind = kind
  }
}

/// The text of one frame (or, in the rxjs grammar, of a group spanning several frames).
public struct MarbleCell: Sendable, Equatable {
  /// The frame the cell starts at, relative to `^`.
  public var frame: Int
  /// `-`, a token, `^`, or a group such as `(ab)` or `(^a)`.
  public var text: String
  /// How many frames the cell occupies: 1, or an rxjs group's character count.
  public var span: Int

  public init(frame: Int, text: String, span: Int) {
    self.frame = frame
    self.text = text
    self.span = span
  }
}

/// A printed marble.
public struct PrintedMarble: Sendable, Equatable {
  /// The marble text: the cells joined.
  public var text: String
  /// The cells in order, one per frame in the flowrun grammar.
  public var cells: [MarbleCell]
  /// Entries invented for this marble, in the order their keys were assigned.
  public var newEntries: [LegendEntry]
  /// The error value, when the marble errs with a value other than the printer's `errorValue`.
  public var errorValue: Value?
  /// False when the rxjs grammar cannot place an event at its frame (a group's extra frames
  /// overlap the next event), here or in a signal entry's marble; then that event, and all after
  /// it, are printed later than they happened, as early as the grammar allows.
  public var isExact: Bool
}

/// Prints recorded events as marble text that parses back to the same events (marbles.md
/// §Printing actual events).
///
/// A printer keeps the fresh keys it assigned, so several marbles printed by one printer share
/// one legend and never reuse a key for a different value.
public struct MarblePrinter: Sendable {
  public let grammar: MarbleGrammar
  public let legend: Legend
  /// The value a `#` stands for.
  public let errorValue: Value
  /// Every entry assigned so far, across calls.
  public private(set) var assigned: [LegendEntry] = []

  /// Each known value's token: legend keys (legend order) and assigned keys.
  private var tokens: [ValueKey: String] = [:]
  /// Every key of the legend and every assigned key.
  private var keys: Set<String> = []
  /// One-character strings printed as themselves, by this call or an earlier one.
  private var reserved: Set<String> = []
  private var freshIndex = 0
  /// Whether a signal entry assigned by the current call could not be printed exactly.
  private var innerInexact = false

  public init(grammar: MarbleGrammar = .flowrun, legend: Legend = Legend(), errorValue: Value = .string("error")) {
    self.grammar = grammar
    self.legend = legend
    self.errorValue = errorValue
    for entry in legend.visibleEntries {
      keys.insert(entry.key)
      let key = ValueKey(value: entry.value)
      if tokens[key] == nil, let token = MarblePrinter.token(forKey: entry.key) {
        tokens[key] = token
      }
    }
  }

  /// Prints `events` (sorted by frame, or sorted here keeping same-frame order); `showZero`
  /// prints `^` even without negative frames; `through` pads with `-` up to that frame.
  public mutating func print(_ events: [Recorded], showZero: Bool = false, through: Int? = nil) -> PrintedMarble {
    let firstNew = assigned.count
    innerInexact = false
    reserve(events)
    let laid = layout(MarblePrinter.sorted(events), showZero: showZero, through: through)
    var text = ""
    text.reserveCapacity(laid.cells.count)
    for cell in laid.cells { text += cell.text }
    return PrintedMarble(
      text: text,
      cells: laid.cells,
      newEntries: Array(assigned[firstNew...]),
      errorValue: laid.errorValue,
      isExact: laid.exact && !innerInexact
    )
  }

  /// A subscription log entry: `--^---!`, `^--` (never unsubscribed) or `(^!)`.
  public static func subscription(subscribe: Int, unsubscribe: Int?) -> String {
    var text = String(repeating: "-", count: max(0, subscribe))
    guard let unsubscribe, unsubscribe >= subscribe else { return text + "^" }
    if unsubscribe == subscribe { return text + "(^!)" }
    text += "^"
    text += String(repeating: "-", count: unsubscribe - subscribe - 1)
    return text + "!"
  }

  // MARK: - Tokens

  /// How a legend key is written as a token: bare when it is one plain character, else quoted.
  static func token(forKey key: String) -> String? {
    let scalars = key.unicodeScalars
    if scalars.count == 1, let scalar = scalars.first, !MarbleSymbol.isReserved(scalar) { return key }
    if key.isEmpty || scalars.contains("'") { return nil }
    return "'" + key + "'"
  }

  /// The legend key (the legend's or one assigned so far) a value prints as, without the
  /// quotes of a token such as `'v1'`; nil when it prints as itself or has not been printed.
  public func key(for value: Value) -> String? {
    guard let token = tokens[ValueKey(value: value)] else { return nil }
    return token.hasPrefix("'") ? String(token.dropFirst().dropLast()) : token
  }

  /// The token a value prints as itself (rule 2), if it has one.
  func selfToken(_ value: Value) -> String? {
    let text: String
    switch value {
    case .string(let s):
      let scalars = s.unicodeScalars
      guard scalars.count == 1, let scalar = scalars.first, !MarbleSymbol.isReserved(scalar),
        !MarbleSymbol.isDigit(scalar)
      else { return nil }
      text = s
    case .int(let i) where (0...9).contains(i):
      text = String(i)
    case .double(let d) where d >= 0 && d <= 9 && d == d.rounded(.towardZero):
      text = String(Int(d))
    default:
      return nil
    }
    return keys.contains(text) ? nil : text
  }

  /// Marks every one-character string of `events` (inner signals included) that prints as
  /// itself, so that no fresh key takes its character.
  mutating func reserve(_ events: [Recorded]) {
    var pending = [events]
    var seen = Set<ObjectIdentifier>()
    while let list = pending.popLast() {
      for recorded in list {
        guard case .next(let value) = recorded.event, tokens[ValueKey(value: value)] == nil else { continue }
        if case .string = value, let token = selfToken(value) {
          reserved.insert(token)
        } else if case .signal(let signal) = value, let inner = signal.events,
          seen.insert(ObjectIdentifier(signal)).inserted
        {
          pending.append(inner)
        }
      }
    }
  }

  /// The next fresh key: a–z, A–Z, then `v1`, `v2`…, skipping keys and reserved characters.
  mutating func freshKey() -> String {
    while true {
      let index = freshIndex
      freshIndex += 1
      let key: String
      if index < 26 {
        key = String(Unicode.Scalar(UInt8(97 + index)))
      } else if index < 52 {
        key = String(Unicode.Scalar(UInt8(65 + index - 26)))
      } else {
        key = "v\(index - 51)"
      }
      if !keys.contains(key), !reserved.contains(key) { return key }
    }
  }

  /// The token of a value: a legend key, itself, or a fresh key (recorded in `assigned`).
  mutating func token(for value: Value) -> String {
    let valueKey = ValueKey(value: value)
    if let token = tokens[valueKey] { return token }
    if let token = selfToken(value) { return token }
    let key = freshKey()
    let token = MarblePrinter.token(forKey: key) ?? key
    keys.insert(key)
    tokens[valueKey] = token
    guard case .signal(let signal) = value, let inner = signal.events else {
      assigned.append(LegendEntry(key: key, value: value, kind: .value))
      return token
    }
    let position = assigned.count
    assigned.append(LegendEntry(key: key, value: value, kind: .value))
    let laid = layout(MarblePrinter.sorted(inner), showZero: false, through: nil)
    let marble = laid.cells.map(\.text).joined()
    if !laid.exact { innerInexact = true }
    assigned[position].kind = .signal(marble: marble, errorValue: laid.errorValue)
    return token
  }

  // MARK: - Layout

  /// One frame's content before layout: `count` tokens of the flat token list from `start`.
  struct Slot {
    var frame: Int
    var caret: Bool
    var start: Int
    var count: Int
  }

  static func sorted(_ events: [Recorded]) -> [Recorded] {
    var isSorted = true
    for index in events.indices.dropFirst() where events[index - 1].frame > events[index].frame {
      isSorted = false
      break
    }
    if isSorted { return events }
    return events.enumerated()
      .sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
      .map(\.element)
  }

  /// Lays sorted events out as cells.
  mutating func layout(
    _ events: [Recorded], showZero: Bool, through: Int?
  ) -> (cells: [MarbleCell], errorValue: Value?, exact: Bool) {
    var slots: [Slot] = []
    var texts: [String] = []
    texts.reserveCapacity(events.count)
    var errorValue: Value?
    let first = min(events.first?.frame ?? 0, 0)
    let caret = showZero || first < 0
    var caretPlaced = !caret
    for recorded in events {
      if !caretPlaced, recorded.frame >= 0 {
        caretPlaced = true
        if recorded.frame > 0 { slots.append(Slot(frame: 0, caret: true, start: texts.count, count: 0)) }
      }
      let text: String
      switch recorded.event {
      case .next(let value): text = token(for: value)
      case .completed: text = "|"
      case .error(let value):
        text = "#"
        if value != self.errorValue, errorValue == nil { errorValue = value }
      }
      if let last = slots.last, last.frame == recorded.frame {
        slots[slots.count - 1].count += 1
      } else {
        slots.append(Slot(frame: recorded.frame, caret: recorded.frame == 0 && caret, start: texts.count, count: 1))
      }
      texts.append(text)
    }
    if !caretPlaced { slots.append(Slot(frame: 0, caret: true, start: texts.count, count: 0)) }

    var cells: [MarbleCell] = []
    cells.reserveCapacity(min(max(0, (events.last?.frame ?? 0).subtractingClamped(first) + 1), 4 * slots.count + 16))
    var cursor = first
    var exact = true
    for slot in slots {
      cursor = Self.advance(&cells, from: cursor, to: slot.frame)
      if slot.frame < cursor { exact = false }
      let cell = cellText(slot, texts[slot.start..<slot.start + slot.count])
      cells.append(MarbleCell(frame: cursor, text: cell.text, span: cell.span))
      cursor += cell.span
    }
    if let through, through < .max {
      cursor = Self.advance(&cells, from: cursor, to: through + 1)
    }
    return (cells, errorValue, exact)
  }

  /// Gaps longer than this many frames print as one time progression (` 20000f `), so that an
  /// event at a huge frame does not print (or allocate) a dash per frame.
  static let longestDashRun = 10_000

  /// Appends empty frames from `cursor` up to `frame` (dashes, or one time progression for a
  /// long gap) and returns the new cursor.
  static func advance(_ cells: inout [MarbleCell], from cursor: Int, to frame: Int) -> Int {
    guard cursor < frame else { return cursor }
    let gap = frame.subtractingClamped(cursor)
    if gap > longestDashRun {
      cells.append(MarbleCell(frame: cursor, text: " \(gap)f ", span: gap))
      return frame
    }
    var cursor = cursor
    while cursor < frame {
      cells.append(MarbleCell(frame: cursor, text: "-", span: 1))
      cursor += 1
    }
    return cursor
  }

  /// The text of one slot and the frames it occupies in this grammar.
  func cellText(_ slot: Slot, _ tokens: ArraySlice<String>) -> (text: String, span: Int) {
    if tokens.count == 1, !slot.caret, let only = tokens.first { return (only, 1) }
    if tokens.isEmpty { return ("^", 1) }
    var text = "("
    if slot.caret { text += "^" }
    for token in tokens { text += token }
    text += ")"
    return (text, grammar == .rxjs ? text.unicodeScalars.count : 1)
  }
}

extension PrintedMarble {
  /// The marble with the cancellation of the iterating task (`;`, `library: async`) at `frame`,
  /// first in that frame's cell: `(;|)`.
  public func cancelling(at frame: Int?) -> PrintedMarble {
    guard let frame else { return self }
    var marble = self
    if let index = marble.cells.firstIndex(where: { $0.frame == frame }) {
      let text = marble.cells[index].text
      marble.cells[index].text = text == "-" ? ";" : text.hasPrefix("(") ? "(;" + text.dropFirst() : "(;" + text + ")"
    } else {
      var next = marble.cells.last.map { $0.frame + $0.span } ?? 0
      guard next <= frame else { return self }
      while next < frame {
        marble.cells.append(MarbleCell(frame: next, text: "-", span: 1))
        next += 1
      }
      marble.cells.append(MarbleCell(frame: frame, text: ";", span: 1))
    }
    marble.text = marble.cells.map(\.text).joined()
    return marble
  }
}
