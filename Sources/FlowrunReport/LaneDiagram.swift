public import FlowrunCore
import FlowrunDiagnostics
public import FlowrunMarbles
import FlowrunYAML

/// Labelled marble lanes aligned column by column under a frame ruler (an invariant's names, an
/// explored counterexample's inputs): each frame is as wide as its widest cell.
public struct LaneDiagram: Sendable {
  /// One lane: its label and its events.
  public struct Lane: Sendable {
    public var label: String
    public var events: [Recorded]

    public init(label: String, events: [Recorded]) {
      self.label = label
      self.events = events
    }
  }

  /// The ruler and one line per lane, without indentation.
  public let lines: [String]
  /// Each lane's marble, unpadded (it reads back as an expectation with `legend`).
  public let marbles: [String]
  /// The legend of the values shown: file legend entries used and entries invented.
  public let legend: [(key: String, value: String)]
  /// How wide the labels are, with the gap after them.
  private let labelWidth: Int
  private let columns: [Int: Int]

  /// Lays out `lanes`, each printed through frame `through` with one printer over `legend`
  /// (the file's values), so that a value has one token in every lane.
  public init(
    lanes: [Lane], legend: [(key: String, value: Value)], grammar: MarbleGrammar, errorValue: Value,
    through: Int? = nil
  ) {
    var printer = MarblePrinter(grammar: grammar, legend: Legend(layers: [legend]), errorValue: errorValue)
    let showZero = lanes.contains { ($0.events.first?.frame ?? 0) < 0 }
    let printed = lanes.map { printer.print($0.events, showZero: showZero, through: through) }
    marbles = printed.map(\.text)
    labelWidth = (lanes.map(\.label.displayColumns).max() ?? 0) + 2
    var frames = Set<Int>()
    var cells: [[Int: String]] = []
    for marble in printed {
      var byFrame: [Int: String] = [:]
      for cell in marble.cells {
        byFrame[cell.frame, default: ""] += cell.text
        frames.insert(cell.frame)
      }
      cells.append(byFrame)
    }
    var columns: [Int: Int] = [:]
    var texts = Array(repeating: "", count: lanes.count)
    var ruler = ""
    var column = 0
    for frame in frames.sorted() {
      let width = cells.map { ($0[frame] ?? "").count }.max() ?? 1
      columns[frame] = column
      if frame >= 0, frame % 5 == 0, ruler.count <= column {
        ruler += String(repeating: " ", count: column - ruler.count) + String(frame)
      }
      for index in lanes.indices {
        let text = cells[index][frame] ?? ""
        texts[index] += text + String(repeating: " ", count: width - text.count)
      }
      column += width
    }
    self.columns = columns
    var lines = [String(repeating: " ", count: labelWidth) + ruler]
    for (lane, text) in zip(lanes, texts) {
      var line = lane.label + String(repeating: " ", count: labelWidth - lane.label.displayColumns) + text
      while line.last == " " { line.removeLast() }
      lines.append(line)
    }
    self.lines = lines
    var shown = Set<String>()
    for marble in printed { for cell in marble.cells { shown.insert(cell.text) } }
    let text = shown.joined()
    var entries: [(key: String, value: String)] = []
    var keys = Set<String>()
    for entry in legend where text.contains(entry.key) && keys.insert(entry.key).inserted {
      entries.append((entry.key, ExpectationDiff.describe(entry.value)))
    }
    for entry in printer.assigned where keys.insert(entry.key).inserted {
      switch entry.kind {
      case .value: entries.append((entry.key, ExpectationDiff.describe(entry.value)))
      case .signal(let marble, _): entries.append((entry.key, "!cold \(Value.quoted(marble))"))
      }
    }
    self.legend = entries
  }

  /// The column of `frame` in `lines` (after the labels).
  public func column(of frame: Int) -> Int {
    if let column = columns[frame] { return labelWidth + column }
    let earlier = columns.filter { $0.key < frame }.max { $0.key < $1.key }
    return labelWidth + (earlier?.value ?? -1) + 1
  }

  /// The legend line, or nil when no value needs one.
  public var legendLine: String? {
    legend.isEmpty ? nil : "legend: " + legend.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
  }
}
