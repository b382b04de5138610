import FlowrunDiagnostics

/// Where the cursor is in a scenario file, read from the text around it, so that completion
/// works while the line being typed is not YAML yet (`  sig` under `signals:` is not, until
/// its colon is written).
///
/// Block structure comes from indentation, read from the top of the document down to the
/// cursor: each line's leading key and list markers (`- `) open a node that lasts while later
/// lines are indented deeper. Flow collections (`{ hot: "-a` and `[a, b`) are read on the
/// cursor's own line.
struct CompletionContext: Equatable {
  /// One step of the path from the document's root: a key, or an item of a list.
  enum Segment: Equatable {
    case key(String)
    /// An item; `position` counts the items before it in its list.
    case item(position: Int)
  }

  enum Place: Equatable {
    /// Writing a key of the mapping at `path`; `siblings` are the keys it already has.
    case key(siblings: [String])
    /// Writing a new item of the list at `path` (after `- `), as a scalar or a first key.
    case item(position: Int)
    /// Writing the value of the node at `path` (its last segment is the key).
    case value
    /// Writing inside a quoted string, the value of the node at `path`; `tag` is `!cold`, …
    case quoted(tag: String?)
  }

  var path: [Segment]
  var place: Place
  /// The UTF-16 length of the word before the cursor, which completion replaces.
  var partialLength: Int

  /// Reads the context at `character` (UTF-16) of 0-based `line`; nil inside a comment.
  init?(lines: LineIndex, line: Int, character: Int) {
    let text = lines.lineText(line)
    let prefix = String(decoding: Array(text.utf16.prefix(character)), as: UTF16.self)
    let scan = LineScan(prefix)
    if scan.inComment { return nil }
    let partial = scan.quote == nil ? String(prefix.reversed().prefix { Self.isWordCharacter($0) }.reversed()) : ""
    partialLength = partial.utf16.count
    let head = String(prefix.dropLast(partial.count))

    var stack = Self.stack(above: line, lines: lines)
    let shape = LineShape(reading: head)
    stack.enter(shape)
    let body = shape.body
    if let quote = scan.quote {
      // The line's own key is on the stack; a flow key after it (`{ hot: "…`) owns the string.
      var before = LineShape(reading: String(prefix[..<quote.start])).body
      if let colon = Self.keyEnd(in: before) { before = before[before.index(after: colon)...] }
      let owner = Self.lastKey(in: String(before))
      path = stack.path + (owner.map { [.key($0)] } ?? [])
      place = .quoted(tag: quote.tag)
      return
    }
    guard let colon = Self.keyEnd(in: body) else {
      if !shape.markerIndents.isEmpty, body.isEmpty, case .item(let position)? = stack.frames.last?.segment {
        stack.frames.removeLast()
        path = stack.path
        place = .item(position: position)
      } else {
        path = stack.path
        place = .key(siblings: stack.frames.last?.childKeys ?? [])
      }
      return
    }
    path = stack.path  // ends with the line's key, entered above
    let rest = body[body.index(after: colon)...]
    // Inside a flow collection on this line, the innermost open one decides.
    guard let open = LineScan.innermostOpen(rest) else {
      place = .value
      return
    }
    if let outer = Self.lastKey(in: String(rest[..<open.index])) { path.append(.key(outer)) }
    let entry =
      rest[rest.index(after: open.index)...].split(separator: ",", omittingEmptySubsequences: false).last ?? ""
    let trimmed = entry.drop { $0 == " " }
    if open.bracket == "[" {
      place = .value
    } else if let inner = Self.keyEnd(in: trimmed) {
      path.append(.key(String(trimmed[..<inner])))
      place = .value
    } else {
      place = .key(siblings: [])
    }
  }

  /// Word characters of names, steps and dotted targets.
  static func isWordCharacter(_ character: Character) -> Bool {
    if let ascii = character.asciiValue {
      switch ascii {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "$"):
        return true
      default:
        return false
      }
    }
    return character.isLetter || character.isNumber || character == "_" || character == "." || character == "$"
  }

  /// The colon ending a leading `key:` of `body` (followed by a space or the end).
  static func keyEnd(in body: Substring) -> Substring.Index? {
    var index = body.startIndex
    while index < body.endIndex, isWordCharacter(body[index]) { index = body.index(after: index) }
    guard index > body.startIndex, index < body.endIndex, body[index] == ":" else { return nil }
    let after = body.index(after: index)
    return after == body.endIndex || body[after] == " " ? index : nil
  }

  /// The last `key:` written in `text` (before a quote or a bracket).
  private static func lastKey(in text: String) -> String? {
    let characters = Array(text)
    var end = characters.count - 1
    while end >= 0, characters[end] == " " || characters[end] == "{" || characters[end] == "[" { end -= 1 }
    // A tag before a quote: `x: !cold "…`.
    if end >= 0, characters[end] != ":" {
      var start = end
      while start > 0, characters[start - 1] != " " { start -= 1 }
      if characters[start] == "!" {
        end = start - 1
        while end >= 0, characters[end] == " " { end -= 1 }
      }
    }
    guard end >= 0, characters[end] == ":" else { return nil }
    var start = end
    while start > 0, isWordCharacter(characters[start - 1]) { start -= 1 }
    return start < end ? String(characters[start..<end]) : nil
  }

  /// The open nodes after the lines of the cursor's document above `line`.
  private static func stack(above line: Int, lines: LineIndex) -> IndentStack {
    var first = line
    while first > 0, !lines.lineText(first - 1).hasPrefix("---") { first -= 1 }
    var stack = IndentStack()
    for number in first..<line {
      let text = lines.lineText(number)
      guard let shape = LineShape(text) else { continue }
      stack.enter(shape)
    }
    return stack
  }
}

/// The nodes open at a line: the root, then each key and list item whose block holds it.
struct IndentStack {
  struct Frame {
    /// The column of the key, or of the `- ` marker.
    var column: Int
    var segment: CompletionContext.Segment
    /// The keys written directly in this node's mapping so far.
    var childKeys: [String] = []
  }

  var frames: [Frame] = [Frame(column: -1, segment: .key(""))]

  var path: [CompletionContext.Segment] { frames.dropFirst().map(\.segment) }

  /// Closes the nodes that `shape`'s line is not inside, then opens its items and its key.
  mutating func enter(_ shape: LineShape) {
    let column = shape.markerIndents.first ?? shape.contentColumn
    var nextPosition = 0
    while frames.count > 1, let top = frames.last, top.column >= column {
      // A list may sit at its key's own column (`key:` then `- a` below it).
      if top.column == column, !shape.markerIndents.isEmpty, case .key = top.segment { break }
      if top.column == column, case .item(let position) = top.segment, !shape.markerIndents.isEmpty {
        nextPosition = position + 1
      }
      frames.removeLast()
    }
    for (number, indent) in shape.markerIndents.enumerated() {
      frames.append(Frame(column: indent, segment: .item(position: number == 0 ? nextPosition : 0)))
    }
    if let key = shape.key {
      frames[frames.count - 1].childKeys.append(key)
      frames.append(Frame(column: shape.contentColumn, segment: .key(key)))
    }
  }
}

/// A line's indentation structure: the columns of its list markers, where its content starts,
/// and its leading key.
struct LineShape {
  var markerIndents: [Int] = []
  var contentColumn: Int
  var key: String?
  /// The text after the indentation and the markers.
  var body: Substring

  /// Nil for blank lines, comments and document markers.
  init?(_ text: String) {
    self.init(reading: text)
    if body.isEmpty && markerIndents.isEmpty || body.hasPrefix("#") || body.hasPrefix("---") || body.hasPrefix("...") {
      return nil
    }
  }

  /// Reads any text, the cursor's line before the cursor included.
  init(reading text: String) {
    var column = text.prefix { $0 == " " }.count
    var body = Substring(text.dropFirst(column))
    while body.hasPrefix("- ") || body == "-" {
      markerIndents.append(column)
      body = body.dropFirst(min(2, body.count))
      column += 2
      while body.hasPrefix(" ") {
        body = body.dropFirst()
        column += 1
      }
    }
    contentColumn = column
    self.body = body
    if let colon = CompletionContext.keyEnd(in: body) { key = String(body[..<colon]) }
  }
}

/// Quotes and comments of the text before the cursor on its line.
struct LineScan {
  struct Quote {
    var start: String.Index
    var tag: String?
  }

  /// The quoted string the text ends in, if any.
  var quote: Quote?
  var inComment = false

  init(_ text: String) {
    var index = text.startIndex
    var previous: Character = " "
    while index < text.endIndex {
      let character = text[index]
      if let open = quote {
        let delimiter = text[open.start]
        if character == "\\", delimiter == "\"" {
          index = text.index(after: index)
          if index < text.endIndex { index = text.index(after: index) }
          continue
        }
        if character == delimiter { quote = nil }
      } else if character == "\"" || character == "'" {
        let before = text[..<index].reversed().drop { $0 == " " }
        let word = String(before.prefix { !$0.isWhitespace }.reversed())
        quote = Quote(start: index, tag: word.hasPrefix("!") ? word : nil)
      } else if character == "#", previous == " " {
        inComment = true
        return
      }
      previous = character
      index = text.index(after: index)
    }
  }

  /// The innermost `{` or `[` left open in `text` (outside quotes).
  static func innermostOpen(_ text: Substring) -> (bracket: Character, index: Substring.Index)? {
    var stack: [(Character, Substring.Index)] = []
    var quote: Character?
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if let open = quote {
        if character == open { quote = nil }
      } else {
        switch character {
        case "\"", "'": quote = character
        case "{", "[": stack.append((character, index))
        case "}", "]": if !stack.isEmpty { stack.removeLast() }
        default: break
        }
      }
      index = text.index(after: index)
    }
    return stack.last.map { (bracket: $0.0, index: $0.1) }
  }
}
