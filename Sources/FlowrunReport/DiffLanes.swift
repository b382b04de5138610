import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunYAML

/// Expected and actual cells laid out column by column under a frame ruler: a frame is as wide
/// as its wider cell, counted in display columns (a wide character such as `雨` takes two), so
/// that the lanes, the ruler and the caret line up in a terminal.
struct DiffLanes {
  /// One frame's cells and where they start.
  struct Column {
    var frame: Int
    /// The frames the wider cell spans (more than one for a long gap or an rxjs group).
    var span: Int
    /// The display column the frame starts at.
    var start: Int
    var width: Int
    var expected: String
    var actual: String
    /// The model's cell, when code answered the expectation (`ExpectationResult.model`).
    var model = ""
  }

  /// The frames in order.
  private(set) var columns: [Column] = []
  /// The display columns of the whole lanes.
  private(set) var width = 0

  /// Whether the lanes have a model lane between expected and actual.
  let hasModel: Bool

  init(expected: [MarbleCell], actual: [MarbleCell], model: [MarbleCell]? = nil) {
    hasModel = model != nil
    var cells: [Int: (expected: String, actual: String, model: String, span: Int)] = [:]
    for cell in expected {
      cells[cell.frame, default: ("", "", "", 1)].expected += cell.text
      cells[cell.frame]!.span = max(cells[cell.frame]!.span, cell.span)
    }
    for cell in actual {
      cells[cell.frame, default: ("", "", "", 1)].actual += cell.text
      cells[cell.frame]!.span = max(cells[cell.frame]!.span, cell.span)
    }
    for cell in model ?? [] {
      cells[cell.frame, default: ("", "", "", 1)].model += cell.text
      cells[cell.frame]!.span = max(cells[cell.frame]!.span, cell.span)
    }
    columns.reserveCapacity(cells.count)
    for (frame, cell) in cells.sorted(by: { $0.key < $1.key }) {
      let columnWidth = max(cell.expected.displayColumns, cell.actual.displayColumns, cell.model.displayColumns)
      columns.append(
        Column(
          frame: frame, span: cell.span, start: width, width: columnWidth, expected: cell.expected,
          actual: cell.actual, model: cell.model))
      width += columnWidth
    }
  }

  /// The display column of `frame`: where its cell starts, or just after the last earlier one.
  func column(of frame: Int) -> Int {
    let index = firstIndex(notBefore: frame)
    if index < columns.count, columns[index].frame == frame { return columns[index].start }
    return index == 0 ? 1 : columns[index - 1].start + 1
  }

  /// The index of the first column whose frame is `frame` or later.
  func firstIndex(notBefore frame: Int) -> Int {
    var low = 0
    var high = columns.count
    while low < high {
      let middle = (low + high) / 2
      if columns[middle].frame < frame { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The columns to show so that at most `limit` display columns are drawn, with the one at
  /// `focus` (a display column) and some before it in view; all of them when they fit.
  func window(around focus: Int, limit: Int) -> Range<Int> {
    guard width > limit, !columns.isEmpty else { return columns.indices }
    let lead = limit / 4
    let from = max(0, min(focus - lead, width - limit))
    var first = columns.firstIndex { $0.start >= from } ?? columns.count - 1
    var end = first
    while end < columns.count, columns[end].start + columns[end].width <= from + limit { end += 1 }
    // A cell wider than the window is shown whole rather than not at all.
    let focused = min(firstIndex(notBefore: frameAt(column: focus)), columns.count - 1)
    first = min(first, focused)
    end = max(end, focused + 1)
    return first..<end
  }

  /// The frame of the column that covers display column `column`.
  private func frameAt(column: Int) -> Int {
    var low = 0
    var high = columns.count
    while low < high {
      let middle = (low + high) / 2
      if columns[middle].start + columns[middle].width <= column { low = middle + 1 } else { high = middle }
    }
    return low < columns.count ? columns[low].frame : columns[columns.count - 1].frame
  }

  /// The ruler and both lanes over `range`; `…` marks where frames are cut off (a leading one
  /// moves the lanes one column right; a lane ending before the cut has no trailing one).
  func render(_ range: Range<Int>) -> (ruler: String, expected: String, actual: String) {
    let lanes = renderLanes(range)
    return (lanes.ruler, lanes.expected, lanes.actual)
  }

  /// The ruler and the three lanes over `range` (the model lane is empty without a model).
  func renderLanes(_ range: Range<Int>) -> (ruler: String, expected: String, actual: String, model: String) {
    let before = columns[..<range.lowerBound]
    let after = columns[range.upperBound...]
    let cutBefore = !before.isEmpty
    let offset = (range.isEmpty ? 0 : columns[range.lowerBound].start) - (cutBefore ? 1 : 0)
    var ruler = ""
    var rulerWidth = 0
    var expected = cutBefore ? "…" : ""
    var actual = cutBefore ? "…" : ""
    var model = cutBefore && hasModel ? "…" : ""
    for column in columns[range] {
      let start = column.start - offset
      // A label needs a space before it, unless it is the first.
      if column.frame >= 0, column.frame % 5 == 0, ruler.isEmpty ? rulerWidth <= start : rulerWidth < start {
        let label = String(column.frame)
        ruler += String(repeating: " ", count: start - rulerWidth) + label
        rulerWidth = start + label.count
      }
      expected += column.expected + String(repeating: " ", count: column.width - column.expected.displayColumns)
      actual += column.actual + String(repeating: " ", count: column.width - column.actual.displayColumns)
      if hasModel { model += column.model + String(repeating: " ", count: column.width - column.model.displayColumns) }
    }
    while model.last == " " { model.removeLast() }
    if after.contains(where: { !$0.model.isEmpty }) { model += "…" }
    while expected.last == " " { expected.removeLast() }
    while actual.last == " " { actual.removeLast() }
    if after.contains(where: { !$0.expected.isEmpty }) { expected += "…" }
    if after.contains(where: { !$0.actual.isEmpty }) { actual += "…" }
    return (ruler, expected, actual, model)
  }

  /// The last frame the lanes cover.
  var lastFrame: Int {
    guard let last = columns.last else { return 0 }
    return last.frame + max(last.span, 1) - 1
  }
}
