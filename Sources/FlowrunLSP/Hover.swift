import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunScenario
import FlowrunYAML

/// `textDocument/hover`: a marble character's frame, time and value; a step key's summary and
/// reference link; a name's definition.
enum Hover {
  static func hover(_ document: OpenDocument, at position: Position, options: LanguageServer.Options) -> JSONValue {
    let index = document.index
    let offset = index.lines.byteOffset(of: position)
    if let site = index.marble(at: offset), let answer = MarbleHover(index: index, site: site).describe(at: offset) {
      return result(answer.text, range: answer.range)
    }
    if let step = index.step(at: offset) {
      return result(stepText(step, base: options.referenceBase), range: index.range(of: step.node))
    }
    if let use = index.nameUse(at: offset), let text = nameText(use, index: index) {
      return result(text, range: index.lines.range(use.start, use.end))
    }
    return .null
  }

  private static func result(_ markdown: String, range: TextRange) -> JSONValue {
    ["contents": ["kind": "markdown", "value": .string(markdown)], "range": range.json]
  }

  // MARK: - Steps

  static func stepText(_ key: ScenarioIndex.StepKey, base: String?) -> String {
    let steps = ScenarioVocabulary.steps(named: key.name, library: key.library)
    guard let step = steps.first(where: { $0.role == key.role }) ?? steps.first else { return "**`\(key.name)`**" }
    var title = "**`\(step.name)`** — \(step.role.rawValue)"
    if step.isAlias { title += ", alias of `\(step.canonical)`" }
    if let owner = step.library ?? step.aliasLibrary { title += " · \(owner.title)" }
    var lines = [title, ""]
    lines.append(step.summary)
    if let library = key.library, library != .rxjs, !step.isLibraryRow {
      lines.append("")
      lines.append("`library: \(library.rawValue)` reads this key with its default meaning.")
    }
    if !step.extras.isEmpty {
      lines.append("")
      lines.append("Extra keys: " + step.extras.map { "`\($0)`" }.joined(separator: ", "))
    }
    lines.append("")
    lines.append("[Reference](\(referenceLink(for: step, base: base)))")
    return lines.joined(separator: "\n")
  }

  /// The step's entry in the reference: `sources.md#hot`, `operators.md#debounce`.
  static func referenceLink(for step: ScenarioVocabulary.Step, base: String?) -> String {
    if step.isLibraryRow {
      // A library's meaning is a row of docs/libraries.md, beside docs/reference/.
      return (base.map { $0 + "../" } ?? "docs/") + "libraries.md"
    }
    let page = step.role == .source ? "sources.md" : "operators.md"
    return (base ?? "docs/reference/") + page + "#" + step.name.lowercased()
  }

  // MARK: - Names

  static func nameText(_ use: ScenarioIndex.NameUse, index: ScenarioIndex) -> String? {
    guard let declaration = index.declaration(named: use.name, document: use.document) else { return nil }
    var lines: [String] = []
    if let member = use.member {
      lines.append("**`\(use.name).\(member)`** — \(memberSummary(member, of: declaration.kind))")
      lines.append("")
    }
    lines.append("\(declaration.kind.rawValue) **`\(declaration.name)`**")
    lines.append("```yaml")
    lines.append(definitionText(declaration, index: index))
    lines.append("```")
    return lines.joined(separator: "\n")
  }

  /// The declaration's lines as written (at most 20).
  private static func definitionText(_ declaration: ScenarioIndex.Declaration, index: ScenarioIndex) -> String {
    let first = index.lines.position(ofByte: declaration.key.start.offset).line
    let last = index.lines.position(ofByte: max(declaration.value.end.offset - 1, declaration.key.start.offset)).line
    let shown = min(last, first + 19)
    let indent = index.lines.lineText(first).prefix { $0 == " " }.count
    var text = (first...shown).map { String(index.lines.lineText($0).dropFirst(indent)) }
    if shown < last { text.append("…") }
    return text.joined(separator: "\n")
  }

  private static func memberSummary(_ member: String, of kind: ScenarioIndex.DeclarationKind) -> String {
    switch (kind, member) {
    case (.command, "executing"): "true while an execution runs; starts false"
    case (.command, "enabled"):
      "whether an execution may start now (the enabled signal, and not executing unless concurrent)"
    case (.command, "executions"): "one inner signal per execution"
    case (.command, "values"): "the executions' values (executions switched to latest)"
    case (.command, "errors"): "each failed execution's error, as a value"
    case (.service, "calls"): "the input of every call"
    case (_, "subscriptions"): "the subscription log (expect only)"
    default: "not a member of a \(kind.rawValue)"
    }
  }
}

/// What a marble character means: its frame, its time, and its value.
struct MarbleHover {
  let index: ScenarioIndex
  let site: ScenarioIndex.MarbleSite

  struct Answer {
    var text: String
    var range: TextRange
  }

  func describe(at offset: Int) -> Answer? {
    guard let text = site.node.scalarValue, let info = index.documentInfo(site.document) else { return nil }
    let scalars = Array(text.unicodeScalars)
    guard let n = scalarIndex(at: offset, count: scalars.count) else { return nil }
    var parser = MarbleParser(grammar: info.grammar, tick: info.tick)
    parser.consumerMarks = LibraryProfile.of(info.library).consumersPull
    var range = characterRange(n, length: 1)
    let character = String(scalars[n])
    var lines: [String] = []
    let frame: Int?
    switch site.kind {
    case .subscription:
      frame = absoluteFrame(before: n, scalars: scalars, parser: parser)
    case .hot, .cold, .expectation:
      let parsed: ParsedMarble
      do throws(MarbleError) {
        parsed =
          switch site.kind {
          case .hot: try parser.parseHot(text)
          case .cold: try parser.parseCold(text)
          default: try parser.parseExpectation(text)
          }
      } catch {
        return Answer(text: "`\(character)` — the marble does not read: \(error.message)", range: range)
      }
      if let item = parsed.items.first(where: { covers($0, n) }) {
        range = characterRange(item.offset, length: length(of: item))
        let time = timeText(item.frame, info: info)
        switch item.kind {
        case .value(let token, let quoted):
          lines.append("**`\(quoted ? "'\(token)'" : token)`** at \(time)")
          lines.append("")
          lines.append(valueText(token: token, quoted: quoted, info: info))
        case .completed:
          lines.append("**`|`** completed at \(time)")
        case .error:
          lines.append("**`#`** error at \(time)")
          lines.append("")
          lines.append("error value: " + errorText(info: info))
        }
        return Answer(text: lines.joined(separator: "\n"), range: range)
      }
      let zero = parsed.zeroOffset.flatMap { absoluteFrame(before: $0, scalars: scalars, parser: parser) } ?? 0
      frame = absoluteFrame(before: n, scalars: scalars, parser: parser).map { $0 - zero }
    }
    let time = frame.map { timeText($0, info: info) } ?? "an unknown frame"
    switch character {
    case "^": lines.append(site.kind == .subscription ? "**`^`** subscribed at \(time)" : "**`^`** frame 0 (\(time))")
    case "!": lines.append("**`!`** unsubscribed at \(time)")
    case "-": lines.append("**`-`** nothing at \(time)")
    case "," where parser.consumerMarks:
      lines.append("**`,`** at \(time): the consumer's next pull waits for the next frame (`library: async`)")
    case ";" where parser.consumerMarks:
      lines.append("**`;`** the iterating task is cancelled at \(time); the lane ends `(;|)` (`library: async`)")
    case " ": lines.append("alignment space (no time); the next symbol is at \(time)")
    case "(", ")": lines.append("**`\(character)`** group at \(time): its events share one frame")
    default: lines.append("**`\(character)`** at \(time)")
    }
    return Answer(text: lines.joined(separator: "\n"), range: range)
  }

  /// The index in the value of the scalar at byte `offset`; nil outside the text (on a quote).
  private func scalarIndex(at offset: Int, count: Int) -> Int? {
    guard count > 0 else { return nil }
    let file = index.file
    let first = file.location(ofScalarOffset: 0, in: site.node).offset
    guard offset >= first else { return nil }
    // Most marbles are written without escapes: the source bytes are the value's.
    let end = file.location(ofScalarOffset: count, in: site.node).offset
    if end - first == site.node.scalarValue?.utf8.count, offset < end {
      return String(decoding: index.lines.bytes[first..<offset], as: UTF8.self).unicodeScalars.count
    }
    var previous: Int?
    for n in 0..<count {
      let place = file.location(ofScalarOffset: n, in: site.node).offset
      if place == offset { return n }
      if place > offset { return previous }
      previous = n
    }
    return offset < end ? previous : nil
  }

  private func characterRange(_ n: Int, length: Int) -> TextRange {
    let file = index.file
    return index.lines.range(
      file.location(ofScalarOffset: n, in: site.node).offset,
      file.location(ofScalarOffset: n + length, in: site.node).offset)
  }

  private func covers(_ item: MarbleItem, _ n: Int) -> Bool {
    item.offset <= n && n < item.offset + length(of: item)
  }

  private func length(of item: MarbleItem) -> Int {
    if case .value(let token, true) = item.kind { return token.unicodeScalars.count + 2 }
    return 1
  }

  /// The frame, counted from the marble's start, at which the symbol at `n` would be read:
  /// the prefix before it, its terminal symbols read as time only, then one value.
  private func absoluteFrame(before n: Int, scalars: [Unicode.Scalar], parser: MarbleParser) -> Int? {
    var prefix = ""
    var depth = 0
    var quoted = false
    for scalar in scalars[0..<n] {
      if scalar == "'" { quoted.toggle() }
      if quoted || scalar == "'" {
        prefix.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "(": depth += 1
      case ")": depth -= 1
      default: break
      }
      switch scalar {
      case "^", "|", "#": prefix += depth > 0 ? "x" : "-"
      case "!": prefix += depth > 0 ? "x" : (parser.grammar == .rxjs ? "" : "-")
      default: prefix.unicodeScalars.append(scalar)
      }
    }
    if quoted { return nil }
    prefix += depth > 0 ? "x)" : "x"
    guard let parsed = try? parser.parseCold(prefix), let last = parsed.items.last else { return nil }
    return last.frame
  }

  private func timeText(_ frame: Int, info: ScenarioIndex.Document) -> String {
    "frame \(frame) · \(info.tick.realTime(frames: frame)) (tick \(info.tick))"
  }

  private func valueText(token: String, quoted: Bool, info: ScenarioIndex.Document) -> String {
    if let value = site.localLegend?[token] {
      return "value: `\(index.sourceText(of: value))` (this marble's `values`)"
    }
    if let value = info.values?[token] {
      return "value: `\(index.sourceText(of: value))` (the file's `values`)"
    }
    if !quoted, token.unicodeScalars.count == 1, let digit = Int(token) {
      return "value: `\(digit)` (a digit not in the legend is that integer)"
    }
    return "value: `\"\(token)\"` (not in the legend: the string itself)"
  }

  private func errorText(info: ScenarioIndex.Document) -> String {
    if let error = site.localError { return "`\(index.sourceText(of: error))` (this marble's `error`)" }
    if let error = info.error { return "`\(index.sourceText(of: error))` (the file's `error`)" }
    return "`\"error\"` (the default)"
  }
}
