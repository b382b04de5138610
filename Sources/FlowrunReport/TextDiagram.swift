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
    var isFold: Bool { count > 1 }
  }

  var columns: [Column]

  /// Lays out frames `0...lastFrame`, each as wide as its widest cell, folding runs of at least
  /// `foldRuns` frames without events (nil: no folding).
  init(model: DiagramModel, cells: [[Int: String]], foldRuns: Int?) {
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
    self.columns = columns
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

  /// The text of one lane at each frame: a token, or a group `(ab)` of same-frame events.
  static func cells(_ lane: DiagramModel.Lane) -> [Int: String] {
    var tokens: [Int: [String]] = [:]
    for mark in lane.marks { tokens[mark.frame, default: []].append(mark.token) }
    return tokens.mapValues { $0.count == 1 ? $0[0] : "(" + $0.joined() + ")" }
  }

  static func label(_ lane: DiagramModel.Lane) -> String {
    guard let passed = lane.passed else { return lane.name }
    return (passed ? "✓ " : "✗ ") + lane.name + (lane.role.map { " (\($0))" } ?? "")
  }

  public func render() -> String {
    let scenario = model.scenario
    var out = scenario.name + "\n"
    let status = model.result.status.rawValue
    out += "\(scenario.path)  ·  tick \(scenario.tick.literal.text)  ·  frames 0–\(model.lastFrame)  ·  \(status)\n"
    if let description = scenario.description?.trimmingTrailingNewlines, !description.isEmpty {
      out += "\n" + description.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") + "\n"
    }
    let lanes = model.lanes
    let cells = lanes.map(TextDiagram.cells)
    let labelWidth = max(9, min(30, (lanes.map { TextDiagram.label($0).count }.max() ?? 0)) + 4)
    let noteWidth = lanes.compactMap { $0.note.map { $0.count + 2 } }.max() ?? 0
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
          var line = "  " + TextDiagram.label(lanes[index]).truncated(to: labelWidth - 4)
          line = line.padded(to: labelWidth)
          for column in block {
            let text = column.isFold ? "…" : cells[index][column.frame] ?? "-"
            line += text + String(repeating: " ", count: max(0, column.width - text.displayColumns))
          }
          if let note = lanes[index].note { line = line.trimmingTrailingSpaces + "  " + note }
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
    if all.contains("✕") { items.append("✕ execution rejected") }
    if folded { items.append("…N N quiet frames") }
    return items
  }

  /// The frame numbers (every fifth frame, where they fit) and their real time below.
  private func ruler(_ block: [DiagramColumns.Column], labelWidth: Int) -> String {
    var frames = "frame".padded(to: labelWidth)
    var times = "time".padded(to: labelWidth)
    var column = labelWidth
    for item in block {
      if item.isFold {
        let text = "…\(item.count)"
        if frames.count < column { frames = frames.padded(to: column) + text }
      } else if item.frame % 5 == 0 || item.frame == block.first?.frame {
        let frameText = String(item.frame)
        if frames.count < column || column == labelWidth { frames = frames.padded(to: column) + frameText }
        let time = model.scenario.tick.realTime(frames: item.frame).replacingSpaces
        if times.count < column || (times.count == column && column == labelWidth) {
          times = times.padded(to: column) + time
        }
      }
      column += item.width
    }
    return frames + "\n" + times + "\n"
  }

  private func wrap(_ prefix: String, _ items: [String]) -> String {
    var out = ""
    var line = prefix
    for (index, item) in items.enumerated() {
      let text = item + (index + 1 < items.count ? "," : "")
      if line.count + text.count + 1 > maxWidth, line != prefix {
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

  func truncated(to width: Int) -> String {
    count <= width ? self : String(prefix(max(0, width - 1))) + "…"
  }

  /// `1.5 s` → `1.5s`, so a time label is one word.
  var replacingSpaces: String {
    replacing(" ", with: "")
  }
}
