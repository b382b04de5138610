import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunScenario
import FlowrunYAML

/// The columns of a diagram: which frames are drawn, how wide each is, and which runs of quiet
/// frames are folded into one `…` column. Shared by the text and SVG diagrams.
struct DiagramColumns {
  struct Column {
    /// The first frame of the column; a folded column spans `count` frames.
    var frame: Int
    var count: Int
    var width: Int
    /// A fold of frames that have events (only when nothing else fits).
    var hidesEvents = false
    var isFold: Bool { count > 1 }
  }

  var columns: [Column]

  /// Lays out frames `0...lastFrame`, each as wide as its widest cell, folding runs of at least
  /// `foldRuns` frames without events (nil: no folding). With `maxColumns`, shorter quiet runs
  /// fold too until the columns fit, and if even that is too many, the middle of the run folds
  /// into one column, events and all (a diagram of 200,000 busy frames stays small).
  init(model: DiagramModel, cells: [[Int: String]], foldRuns: Int?, maxColumns: Int? = nil) {
    columns = DiagramColumns.layout(model: model, cells: cells, foldRuns: foldRuns)
    guard let maxColumns, columns.count > maxColumns else { return }
    for runs in [4, 2] where columns.count > maxColumns && runs < (foldRuns ?? .max) {
      columns = DiagramColumns.layout(model: model, cells: cells, foldRuns: runs)
    }
    guard columns.count > maxColumns else { return }
    let head = columns.prefix(maxColumns / 2)
    let tail = columns.suffix(maxColumns / 2)
    let first = head.last.map { $0.frame + $0.count } ?? 0
    let count = (tail.first?.frame ?? model.lastFrame + 1) - first
    let middle = Column(frame: first, count: count, width: "…\(count)".count, hidesEvents: true)
    columns = Array(head) + [middle] + Array(tail)
  }

  private static func layout(model: DiagramModel, cells: [[Int: String]], foldRuns: Int?) -> [Column] {
    let busy = model.framesWithEvents
    var columns: [Column] = []
    var frame = 0
    while frame <= model.lastFrame {
      if let foldRuns, !busy.contains(frame) {
        var end = frame
        while end + 1 <= model.lastFrame, !busy.contains(end + 1) { end += 1 }
        let count = end - frame + 1
        if count >= foldRuns, frame > 0 {
          columns.append(Column(frame: frame, count: count, width: "…\(count)".count))
          frame = end + 1
          continue
        }
      }
      let width = cells.map { ($0[frame] ?? "-").displayColumns }.max() ?? 1
      columns.append(Column(frame: frame, count: 1, width: max(1, width)))
      frame += 1
    }
    return columns
  }

  var width: Int { columns.reduce(0) { $0 + $1.width } }
}

/// Draws a ``DiagramModel`` as text: a frame ruler with real time, the lanes grouped by kind,
/// the legend; 100 columns wide at most, folding quiet stretches into `…` and splitting the
/// frames into blocks when even that does not fit.
public struct TextDiagram: Sendable {
  public let model: DiagramModel
  public var maxWidth = 100

  public init(_ model: DiagramModel) {
    self.model = model
  }

  /// The text of one lane at each frame: a token, or a group `(ab)` of same-frame events. A
  /// value the lane's step dropped is not an event of the lane: not drawn in text.
  static func cells(_ lane: DiagramModel.Lane) -> [Int: String] {
    var tokens: [Int: [String]] = [:]
    for mark in lane.marks where mark.kind != .dropped { tokens[mark.frame, default: []].append(mark.token) }
    return tokens.mapValues { $0.count == 1 ? $0[0] : "(" + $0.joined() + ")" }
  }

  /// The lane's title: its name, with ✓ or ✗ and the row's role for an expectation.
  static func label(_ lane: DiagramModel.Lane) -> String {
    guard let passed = lane.passed else { return lane.name }
    return (passed ? "✓ " : "✗ ") + lane.name + (lane.role.map { " (\($0))" } ?? "")
  }

  /// The cell of `lane` at a column: its token, `-` while the lane lives, blank before a
  /// subscription lane's start and after its end.
  static func cell(_ lane: DiagramModel.Lane, _ cells: [Int: String], _ column: DiagramColumns.Column) -> String {
    if let start = lane.start, column.frame + column.count - 1 < start { return "" }
    if let end = lane.end, column.frame > end { return "" }
    return column.isFold ? "…" : cells[column.frame] ?? "-"
  }

  public func render() -> String {
    let scenario = model.scenario
    var out = scenario.name + "\n"
    let status = model.result.status.rawValue
    out += "\(scenario.path)  ·  tick \(scenario.tick.literal.text)  ·  frames 0–\(model.lastFrame)  ·  \(status)\n"
    if let description = scenario.description?.trimmingTrailingNewlines, !description.isEmpty {
      out +=
        "\n"
        + description.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") + "\n"
    }
    let lanes = model.lanes
    let cells = lanes.map(TextDiagram.cells)
    let labelWidth = max(9, min(30, (lanes.map { TextDiagram.label($0).displayColumns + 2 * $0.depth }.max() ?? 0)) + 4)
    let noteWidth = lanes.compactMap { $0.note.map { $0.displayColumns + 2 } }.max() ?? 0
    let room = max(20, maxWidth - labelWidth - noteWidth)
    var layout = DiagramColumns(model: model, cells: cells, foldRuns: nil)
    for fold in [8, 4, 2] where layout.width > room {
      layout = DiagramColumns(model: model, cells: cells, foldRuns: fold)
    }
    // Split into blocks that fit.
    var blocks: [[DiagramColumns.Column]] = [[]]
    var used = 0
    for column in layout.columns {
      if used + column.width > room, !blocks[blocks.count - 1].isEmpty {
        blocks.append([])
        used = 0
      }
      blocks[blocks.count - 1].append(column)
      used += column.width
    }
    for block in blocks {
      out += "\n"
      out += ruler(block, labelWidth: labelWidth)
      for group in DiagramModel.Group.allCases {
        let indices = lanes.indices.filter { lanes[$0].group == group }
        guard !indices.isEmpty else { continue }
        out += group.rawValue + "\n"
        for index in indices {
          let lane = lanes[index]
          let indent = String(repeating: " ", count: 2 + 2 * lane.depth)
          // A title too long for the label column wraps onto lines of its own, the lane after
          // its last part.
          let parts = TextDiagram.label(lane).wrapped(to: labelWidth - 2 - indent.count)
          for part in parts.dropLast() { out += indent + part + "\n" }
          var line = (indent + (parts.last ?? "")).displayPadded(to: labelWidth)
          for column in block {
            line += TextDiagram.cell(lane, cells[index], column).displayPadded(to: column.width)
          }
          if let note = lane.note {
            // After a lane that ended early, the note still starts after the last column.
            line = (lane.end == nil ? line.trimmingTrailingSpaces : line) + "  " + note
          }
          out += line.trimmingTrailingSpaces + "\n"
        }
      }
    }
    let legend = model.legend.map { "\($0.key) = \($0.value)" }
    if !legend.isEmpty {
      out += "\n" + wrap("legend: ", legend)
    }
    out += wrap("symbols: ", symbols(cells, folded: layout.columns.contains(where: \.isFold)))
    return out
  }

  /// The symbols the lanes use, explained.
  private func symbols(_ cells: [[Int: String]], folded: Bool) -> [String] {
    let all = cells.flatMap(\.values).joined()
    var items = ["- nothing"]
    if all.contains("(") { items.append("(ab) same frame") }
    if all.contains("|") { items.append("| completed") }
    if all.contains("#") { items.append("# error") }
    if all.contains("^") { items.append("^ subscribed") }
    if all.contains("!") { items.append("! unsubscribed") }
    let lanes = model.lanes
    if lanes.contains(where: { $0.marks.contains { $0.kind == .started } }) { items.append("▲ subscribed") }
    if lanes.contains(where: { $0.marks.contains { $0.kind == .disposed } }) { items.append("✕ disposed") }
    if lanes.contains(where: { $0.marks.contains { $0.kind == .rejected } }) { items.append("✕ execution rejected") }
    if lanes.contains(where: { $0.marks.contains { $0.kind == .cancelled } }) { items.append("; task cancelled") }
    if lanes.contains(where: { $0.marks.contains { $0.kind == .pulled } }) {
      items.append("• the consumer calls next()")
    }
    if folded { items.append("…N N quiet frames") }
    return items
  }

  /// The frame numbers (every fifth frame, where they fit) and their real time below. A time
  /// at a whole second keeps its place before the others (frame 10 of a 100 ms tick is "1s",
  /// and the "500ms" of frame 5 gives way when both do not fit).
  private func ruler(_ block: [DiagramColumns.Column], labelWidth: Int) -> String {
    var frames = "frame".padded(to: labelWidth)
    var column = labelWidth
    var timeLabels: [(column: Int, text: String, whole: Bool)] = []
    for item in block {
      if item.isFold {
        let text = "…\(item.count)"
        if frames.count < column { frames = frames.padded(to: column) + text }
      } else if item.frame % 5 == 0 || item.frame == block.first?.frame {
        let frameText = String(item.frame)
        if frames.count < column || column == labelWidth { frames = frames.padded(to: column) + frameText }
        let time = model.scenario.tick.realTime(frames: item.frame)
        timeLabels.append(
          (column, time.replacingSpaces, time.hasSuffix(" s") && !time.contains(".") || column == labelWidth))
      }
      column += item.width
    }
    // Whole seconds first, then the others where they fit, each a space apart from its neighbours.
    var placed: [(column: Int, text: String)] = []
    for whole in [true, false] {
      for label in timeLabels where label.whole == whole {
        let end = label.column + label.text.count
        let fits = placed.allSatisfy { other in
          end < other.column || other.column + other.text.count < label.column
        }
        if fits { placed.append((label.column, label.text)) }
      }
    }
    var times = "time".padded(to: labelWidth)
    for label in placed.sorted(by: { $0.column < $1.column }) {
      times = times.padded(to: label.column) + label.text
    }
    return frames + "\n" + times + "\n"
  }

  private func wrap(_ prefix: String, _ items: [String]) -> String {
    var out = ""
    var line = prefix
    for (index, item) in items.enumerated() {
      let text = item + (index + 1 < items.count ? "," : "")
      if line.displayColumns + text.displayColumns + 1 > maxWidth, line != prefix {
        out += line.trimmingTrailingSpaces + "\n"
        line = String(repeating: " ", count: prefix.count)
      }
      line += text + " "
    }
    return out + line.trimmingTrailingSpaces + "\n"
  }
}

extension String {
  var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }

  /// Padded with spaces to `width` terminal columns (a wide character counts 2).
  func displayPadded(to width: Int) -> String {
    let columns = displayColumns
    return columns >= width ? self : self + String(repeating: " ", count: width - columns)
  }

  /// The text in lines of at most `width` columns, broken after a space where one is near
  /// enough, else anywhere.
  func wrapped(to width: Int) -> [String] {
    guard displayColumns > width, width > 4 else { return [self] }
    var lines: [String] = []
    var rest = Substring(self)
    while String(rest).displayColumns > width {
      var cut = rest.startIndex
      var columns = 0
      var lastSpace: String.Index?
      while cut < rest.endIndex, columns + String(rest[cut]).displayColumns <= width {
        if rest[cut] == " " { lastSpace = cut }
        columns += String(rest[cut]).displayColumns
        cut = rest.index(after: cut)
      }
      if let lastSpace, rest.distance(from: rest.startIndex, to: lastSpace) > width / 2 { cut = lastSpace }
      lines.append(String(rest[..<cut]).trimmingTrailingSpaces)
      rest = rest[cut...].drop { $0 == " " }
    }
    if !rest.isEmpty { lines.append(String(rest)) }
    return lines
  }

  /// `1.5 s` → `1.5s`, so a time label is one word.
  var replacingSpaces: String {
    replacing(" ", with: "")
  }
}
