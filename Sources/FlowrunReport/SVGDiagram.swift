import FlowrunDiagnostics
import FlowrunMarbles
import FlowrunScenario
import FlowrunYAML

/// Draws diagrams as one self-contained SVG in the visual language of marble diagrams: a
/// horizontal arrow per lane, values as labelled circles, completion as a vertical bar, an error
/// as a cross, same-frame events stacked, a time axis in frames and real time, the legend below.
///
/// The bytes depend only on the models: integer coordinates, no clock, no random source.
public struct SVGDiagram: Sendable {
  public let models: [DiagramModel]
  /// Whether each scenario's name and path are drawn above its lanes.
  public var header = true

  public init(_ models: [DiagramModel], header: Bool = true) {
    self.models = models
    self.header = header
  }

  // MARK: - Geometry

  static let frameWidth = 34
  static let laneHeight = 34
  static let stackStep = 24
  static let radius = 11
  static let margin = 20
  static let charWidth = 8
  /// A nested lane (a subscriber, an inner signal): shorter, with smaller marks.
  static let nestedHeight = 24
  static let nestedRadius = 8
  /// The most columns a drawing has: past that, the middle of a long run is folded.
  static let maxColumns = 600

  /// The palette values are drawn in, chosen per token so a token has one colour everywhere.
  static let palette = [
    "#8ecae6", "#ffb703", "#90be6d", "#f4a3c0", "#c3a6ff", "#f9844a", "#4cc9f0", "#e9c46a",
    "#b5e48c", "#ff99c8", "#a0c4ff", "#ffd6a5",
  ]

  static func color(_ token: String) -> String {
    let sum = token.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
    return palette[sum % palette.count]
  }

  public func render() -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + element()
  }

  /// The `<svg>` element alone, for embedding in a page.
  func element(id: String? = nil) -> String {
    var body = ""
    var y = SVGDiagram.margin
    var width = 480
    for model in models {
      let drawn = SVGDrawing(model: model, top: y, header: header)
      body += drawn.svg
      y = drawn.bottom + SVGDiagram.margin * 2
      width = max(width, drawn.width)
    }
    let height = y - SVGDiagram.margin
    var out = ""
    out +=
      "<svg\(id.map { " id=\"\($0)\"" } ?? "") xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\""
    out += " viewBox=\"0 0 \(width) \(height)\" font-family=\"Menlo, Consolas, 'DejaVu Sans Mono', monospace\""
    out += " font-size=\"12\">\n"
    out += "<title>\(escape(models.map { $0.scenario.name }.joined(separator: " / ")))</title>\n"
    out += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"8\""
    out += " markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n"
    out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
    out += body
    out += "</svg>\n"
    return out
  }
}

/// Escapes text for XML content and attributes.
func escape(_ text: String) -> String {
  var out = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "&": out += "&amp;"
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    case "\"": out += "&quot;"
    case "\n", "\t": out += " "
    default:
      if scalar.value < 0x20 { continue }
      out.unicodeScalars.append(scalar)
    }
  }
  return out
}

/// One scenario's diagram at a vertical offset.
struct SVGDrawing {
  let model: DiagramModel
  var svg = ""
  var bottom = 0
  var width = 0
  /// The x of every frame's column (folded frames share their fold's column).
  var frameX: [Int] = []
  /// The columns: the first frame of each, how many frames it spans, its x, and whether it
  /// folds frames that have events (a run too long to draw whole).
  var columnSpans: [(frame: Int, count: Int, x: Int, hidesEvents: Bool)] = []
  /// The vertical extent of the axis and lanes.
  var lanesTop = 0
  var lanesBottom = 0

  typealias G = SVGDiagram

  init(model: DiagramModel, top: Int, header: Bool = true) {
    self.model = model
    let lanes = model.lanes
    let cells = lanes.map(TextDiagram.cells)
    let columns = DiagramColumns(model: model, cells: cells, foldRuns: 10, maxColumns: G.maxColumns).columns
    let labelChars = lanes.map { TextDiagram.label($0).displayColumns + 2 * $0.depth }.max() ?? 10
    let labelColumns = min(36, max(12, labelChars))
    let left = G.margin + labelColumns * G.charWidth + 16
    // x of each column's centre.
    let xs = columns.indices.map { left + G.frameWidth / 2 + $0 * G.frameWidth }
    let right = left + G.frameWidth / 2 + columns.count * G.frameWidth + 10
    for (index, column) in columns.enumerated() {
      frameX += repeatElement(xs[index], count: column.count)
      columnSpans.append((column.frame, column.count, xs[index], column.hidesEvents))
    }
    width = max(right + G.margin, 640)
    var y = top
    svg += "<g class=\"scenario\">\n"
    if header {
      // Long titles wrap at the drawing's width (16 px bold is about 10 px a column).
      for line in model.scenario.name.wrapped(to: (width - 2 * G.margin) / 10) {
        svg += text(G.margin, y + 14, line, size: 16, weight: "bold")
        y += 20
      }
      y += 2
      let status = model.result.status.rawValue
      let meta = "\(model.scenario.path) · tick \(model.scenario.tick.literal.text) · \(status)"
      for line in meta.wrapped(to: (width - 2 * G.margin) / 7) {
        svg += text(G.margin, y + 12, line, size: 12, fill: "#666")
        y += 16
      }
      y += 10
    }

    // The time axis: a tick per frame, frame numbers and real time every fifth frame.
    svg += "<g class=\"axis\">\n"
    svg += text(G.margin, y + 10, "frame", fill: "#666")
    svg += text(G.margin, y + 24, "time", fill: "#666")
    for (index, column) in columns.enumerated() {
      let cx = xs[index]
      if column.isFold {
        svg += text(cx, y + 10, "…\(column.count)", anchor: "middle", fill: column.hidesEvents ? "#b00020" : "#999")
        continue
      }
      if column.frame % 5 == 0 || index == 0 {
        svg += text(cx, y + 10, String(column.frame), anchor: "middle", fill: "#333")
        svg += text(
          cx, y + 24, model.scenario.tick.realTime(frames: column.frame), anchor: "middle", size: 10,
          fill: "#666")
      }
    }
    lanesTop = y - 4
    y += 32
    svg += line(left, y, right, y, stroke: "#bbb")
    for (index, column) in columns.enumerated() where !column.isFold {
      let long = column.frame % 5 == 0
      svg += line(xs[index], y - (long ? 5 : 3), xs[index], y, stroke: "#bbb")
    }
    svg += "</g>\n"
    y += 10

    let geometry = LaneGeometry(columns: columns, xs: xs, left: left, right: right, labelColumns: labelColumns)
    for group in DiagramModel.Group.allCases {
      let indices = lanes.indices.filter { lanes[$0].group == group }
      guard !indices.isEmpty else { continue }
      svg += text(G.margin, y + 16, group.rawValue, size: 13, weight: "bold", fill: "#333")
      y += 24
      for index in indices {
        let drawn = drawLane(lanes[index], geometry, top: y)
        svg += drawn.svg
        y += drawn.height
      }
      y += 6
    }

    lanesBottom = y
    // The legend.
    y += 8
    if !model.legend.isEmpty {
      svg += text(G.margin, y + 12, "legend", size: 13, weight: "bold", fill: "#333")
      y += 22
      var lx = G.margin
      let maxRight = max(right, 640)
      for entry in model.legend {
        let label = "= \(entry.value)"
        let w = 24 + label.displayColumns * G.charWidth + 14
        if lx + w > maxRight, lx > G.margin {
          lx = G.margin
          y += 26
        }
        svg += circle(lx + 10, y + 8, token: entry.key, r: 9)
        svg += text(lx + 24, y + 12, label)
        lx += w
      }
      y += 26
    }
    svg += "</g>\n"
    bottom = y
  }

  /// Where the lanes are drawn: the columns, their centres, the arrows' ends, the label column.
  struct LaneGeometry {
    var columns: [DiagramColumns.Column]
    var xs: [Int]
    var left: Int
    var right: Int
    var labelColumns: Int
  }

  /// One lane at `top`: its title (wrapped to the label column), its arrow (from the ▲ to the ✕
  /// of a subscription lane), its marks; returns the SVG and the height it took.
  func drawLane(_ lane: DiagramModel.Lane, _ geometry: LaneGeometry, top: Int) -> (svg: String, height: Int) {
    let (columns, xs) = (geometry.columns, geometry.xs)
    let nested = lane.depth > 0
    let indent = nested ? 2 * lane.depth * G.charWidth : 0
    let radius = nested ? G.nestedRadius : G.radius
    let laneHeight = nested ? G.nestedHeight : G.laneHeight
    let stack = Dictionary(grouping: lane.marks, by: \.frame).values.map(\.count).max() ?? 1
    let titleLines = TextDiagram.label(lane).wrapped(to: geometry.labelColumns - 2 * lane.depth)
    let height = laneHeight + max((stack - 1) * G.stackStep, (titleLines.count - 1) * 14)
    let cy = top + laneHeight / 2
    var out = "<g class=\"lane\(nested ? " nested" : "")\" data-lane=\"\(escape(lane.traceName))\">\n"
    var fill = "#222"
    if let passed = lane.passed { fill = passed ? "#2b7a0b" : "#b00020" }
    var ty = cy + 4
    for part in titleLines {
      out += text(G.margin + 8 + indent, ty, part, size: nested ? 11 : nil, fill: nested ? "#555" : fill)
      ty += 14
    }
    if let note = lane.note {
      out += text(G.margin + 8 + indent, ty - 2, note, size: 9, fill: "#888")
    }
    var position: [Int: Int] = [:]
    for (index, column) in columns.enumerated() where !column.isFold { position[column.frame] = index }
    func x(of frame: Int) -> Int { frame < frameX.count ? frameX[frame] : geometry.right }
    let from = lane.start.map { x(of: $0) } ?? geometry.left
    let to = lane.end.map { x(of: $0) } ?? geometry.right
    let dashed = lane.note == "not subscribed"
    out +=
      "<line x1=\"\(from)\" y1=\"\(cy)\" x2=\"\(to)\" y2=\"\(cy)\" stroke=\"#555\" stroke-width=\"\(nested ? "1" : "1.5")\""
    out += dashed ? " stroke-dasharray=\"4 4\"" : ""
    out += lane.end == nil ? " marker-end=\"url(#arrow)\"/>\n" : "/>\n"
    if let end = lane.end,
      !lane.marks.contains(where: {
        $0.frame == end && ($0.kind == .disposed || $0.kind == .completed || $0.kind == .error)
      })
    {
      // The lane completed in the frame of its last value: a short bar closes it.
      out += line(to + radius + 3, cy - radius + 2, to + radius + 3, cy + radius - 2, stroke: "#222", width: 2)
    }
    for (index, column) in columns.enumerated() where column.isFold && xs[index] > from && xs[index] < to {
      let x = xs[index]
      out += "<path d=\"M\(x - 6),\(cy + 7) L\(x - 2),\(cy - 7) M\(x + 2),\(cy + 7) L\(x + 6),\(cy - 7)\""
      out += " stroke=\"#999\" stroke-width=\"1.5\" fill=\"none\"/>\n"
    }
    if let parting = lane.parting {
      // Where the code parts from the model: a caret under the lane at that frame.
      let x = x(of: parting)
      let y = cy + radius + 3
      out += "<g class=\"parting\" data-frame=\"\(parting)\"><title>"
      out += escape("frame \(parting): the code parts from the model") + "</title>"
      out += "<path d=\"M\(x),\(y) L\(x - 5),\(y + 7) L\(x + 5),\(y + 7) Z\" fill=\"#b00020\"/></g>\n"
    }
    var stackIndex: [Int: Int] = [:]
    for mark in lane.marks {
      guard let column = position[mark.frame] else { continue }
      let x = xs[column]
      let tip = "frame \(mark.frame) (\(model.scenario.tick.realTime(frames: mark.frame))): \(mark.label)"
      if mark.kind == .dropped {
        // Not an event of the lane: a faint ghost of the value, off the stack.
        out += "<g class=\"drop\" data-frame=\"\(mark.frame)\"><title>\(escape(tip))</title>"
        out +=
          "<circle cx=\"\(x)\" cy=\"\(cy)\" r=\"\(radius)\" fill=\"#fff\" stroke=\"#999\" stroke-dasharray=\"3 2\"/>"
        out += text(
          x, cy + 4, String(mark.token.trimmingCharacters(in: "'").prefix(3)), anchor: "middle", size: 10, fill: "#999")
        out += line(x - radius - 2, cy + radius + 2, x + radius + 2, cy - radius - 2, stroke: "#999")
        out += "</g>\n"
        continue
      }
      let level = stackIndex[mark.frame, default: 0]
      stackIndex[mark.frame] = level + 1
      let y = cy + level * G.stackStep
      if level > 0 {
        out += line(x, y - G.stackStep + radius, x, y - radius, stroke: "#999")
      }
      out += "<g class=\"mark\" data-frame=\"\(mark.frame)\"><title>\(escape(tip))</title>"
      switch mark.kind {
      case .value:
        out += circle(x, y, token: mark.token, r: radius)
      case .completed:
        out += line(x, y - radius, x, y + radius, stroke: "#222", width: 3)
      case .error:
        out += line(x - 8, y - 8, x + 8, y + 8, stroke: "#b00020", width: 3)
        out += line(x - 8, y + 8, x + 8, y - 8, stroke: "#b00020", width: 3)
      case .rejected:
        out += "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"9\" fill=\"#fff\" stroke=\"#b00020\" stroke-width=\"1.5\"/>"
        out += line(x - 5, y - 5, x + 5, y + 5, stroke: "#b00020", width: 2)
        out += line(x - 5, y + 5, x + 5, y - 5, stroke: "#b00020", width: 2)
      case .subscribed:
        out += "<path d=\"M\(x),\(y - 9) L\(x + 8),\(y + 7) L\(x - 8),\(y + 7) z\" fill=\"#444\"/>"
      case .started:
        out += "<path d=\"M\(x),\(y - 8) L\(x + 7),\(y + 6) L\(x - 7),\(y + 6) z\" fill=\"#2b7a0b\"/>"
      case .unsubscribed:
        out += line(x, y - 10, x, y + 4, stroke: "#444", width: 3)
        out += "<circle cx=\"\(x)\" cy=\"\(y + 9)\" r=\"2\" fill=\"#444\"/>"
      case .disposed:
        out += line(x - 6, y - 6, x + 6, y + 6, stroke: "#8a1c1c", width: 3)
        out += line(x - 6, y + 6, x + 6, y - 6, stroke: "#8a1c1c", width: 3)
      case .dropped:
        break
      case .pulled:
        out += "<path d=\"M\(x),\(y - 6) L\(x + 5),\(y + 4) L\(x - 5),\(y + 4) z\" fill=\"#1f5fa8\"/>"
      case .cancelled:
        out += "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"8\" fill=\"#fff\" stroke=\"#8a5a00\" stroke-width=\"2\"/>"
        out += line(x - 5, y + 5, x + 5, y - 5, stroke: "#8a5a00", width: 2)
      }
      out += "</g>\n"
    }
    out += "</g>\n"
    return (out, height)
  }

  func circle(_ x: Int, _ y: Int, token: String, r: Int) -> String {
    let label = token.trimmingCharacters(in: "'")
    let columns = label.displayColumns
    let size = columns <= 1 ? 12 : columns == 2 ? 10 : 8
    var out = "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"\(r)\" fill=\"\(SVGDiagram.color(token))\" stroke=\"#333\""
    out += " stroke-width=\"1.2\"/>"
    out += text(x, y + size / 3 + 1, String(label.prefix(3)), anchor: "middle", size: size, weight: "bold")
    return out
  }

  func line(_ x1: Int, _ y1: Int, _ x2: Int, _ y2: Int, stroke: String, width: Int = 1) -> String {
    "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" stroke=\"\(stroke)\" stroke-width=\"\(width)\"/>\n"
  }

  func text(
    _ x: Int, _ y: Int, _ content: String, anchor: String? = nil, size: Int? = nil, weight: String? = nil,
    fill: String? = nil
  ) -> String {
    var out = "<text x=\"\(x)\" y=\"\(y)\""
    if let anchor { out += " text-anchor=\"\(anchor)\"" }
    if let size { out += " font-size=\"\(size)\"" }
    if let weight { out += " font-weight=\"\(weight)\"" }
    if let fill { out += " fill=\"\(fill)\"" }
    return out + ">" + escape(content) + "</text>\n"
  }
}

extension String {
  func trimmingCharacters(in character: Character) -> String {
    var text = Substring(self)
    while text.first == character { text.removeFirst() }
    while text.last == character { text.removeLast() }
    return String(text)
  }
}
