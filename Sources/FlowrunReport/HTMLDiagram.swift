import FlowrunMarbles
import FlowrunScenario

/// One self-contained HTML page per file: for each scenario its description, the marble lanes
/// (the SVG diagram), and a frame slider with step buttons that walks the run, highlighting the
/// current frame's events and the lanes they reached, with the frame's deliveries from the
/// trace listed beside. No network: the style and script are inline, no external font.
public struct HTMLDiagram: Sendable {
  public let models: [DiagramModel]
  /// The library `models` were read in, and the same file drawn under the other libraries
  /// whose drawing differs (libraries.md): the page lets the reader switch between them.
  public let library: String
  public let variants: [(library: String, models: [DiagramModel])]

  public init(_ models: [DiagramModel], library: String = "rxjs", variants: [(library: String, models: [DiagramModel])] = []) {
    self.models = models
    self.library = library
    self.variants = variants
  }

  public func render() -> String {
    let title = models.first?.scenario.path ?? "flowrun"
    var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<title>\(escape(title)) · flowrun</title>\n<style>\n\(HTMLDiagram.style)</style>\n</head>\n<body>\n"
    out += "<header><h1>\(escape(title))</h1><p class=\"meta\">drawn by flowrun diagram --format html</p></header>\n"
    guard !variants.isEmpty else {
      for (index, model) in models.enumerated() {
        out += section(model, index: index)
      }
      out += "<script>\n\(HTMLDiagram.script)</script>\n</body>\n</html>\n"
      return out
    }
    let drawings = [(library: library, models: models)] + variants
    out += "<nav class=\"libraries\" role=\"group\" aria-label=\"Read the scenario as\">Read as:\n"
    for drawing in drawings {
      let pressed = drawing.library == library ? "true" : "false"
      out += "<button type=\"button\" data-library=\"\(escape(drawing.library))\" aria-pressed=\"\(pressed)\">"
      out += "\(escape(drawing.library))</button>\n"
    }
    out += "</nav>\n"
    var index = 0
    for drawing in drawings {
      let hidden = drawing.library == library ? "" : " hidden"
      out += "<div class=\"library\" data-library=\"\(escape(drawing.library))\"\(hidden)>\n"
      for model in drawing.models {
        out += section(model, index: index)
        index += 1
      }
      out += "</div>\n"
    }
    out += "<style>\n\(HTMLDiagram.libraryStyle)</style>\n"
    out += "<script>\n\(HTMLDiagram.script)\(HTMLDiagram.libraryScript)</script>\n</body>\n</html>\n"
    return out
  }

  static let libraryStyle = """
    nav.libraries { margin: 12px 24px 0; display: flex; gap: 6px; align-items: center; }
    nav.libraries button { font-size: 14px; padding: 3px 10px; cursor: pointer; }
    nav.libraries button[aria-pressed="true"] { background: #263238; color: #fff; }
    """

  /// Shows the drawing of the library whose button was pressed.
  static let libraryScript = """
    (function () {
      "use strict";
      var buttons = document.querySelectorAll("nav.libraries button");
      buttons.forEach(function (button) {
        button.addEventListener("click", function () {
          buttons.forEach(function (other) { other.setAttribute("aria-pressed", String(other === button)); });
          document.querySelectorAll("div.library").forEach(function (drawing) {
            drawing.hidden = drawing.dataset.library !== button.dataset.library;
          });
        });
      });
    })();

    """

  private func section(_ model: DiagramModel, index: Int) -> String {
    let scenario = model.scenario
    let drawing = SVGDrawing(model: model, top: SVGDiagram.margin, header: false)
    let id = "s\(index)"
    var out = "<section class=\"scenario\" id=\"\(id)\" aria-labelledby=\"\(id)-title\">\n"
    out += "<h2 id=\"\(id)-title\">\(escape(scenario.name))</h2>\n"
    out += "<p class=\"meta\">\(escape(scenario.path)) · tick \(escape(scenario.tick.literal.text)) · "
    out += "<span class=\"status \(model.result.status.rawValue)\">\(model.result.status.rawValue)</span></p>\n"
    if let description = scenario.description, !description.isEmpty {
      out += "<pre class=\"description\">\(escapeLines(description.trimmingTrailingNewlines))</pre>\n"
    }
    let last = model.lastFrame
    out += "<div class=\"controls\" role=\"group\" aria-label=\"Walk through the frames\">\n"
    out += button("first", "«", "First frame")
    out += button("prev", "◀", "Previous frame with events")
    out += "<input type=\"range\" class=\"slider\" min=\"0\" max=\"\(last)\" value=\"0\" step=\"1\""
    out += " aria-label=\"Frame\">\n"
    out += button("next", "▶", "Next frame with events")
    out += button("last", "»", "Last frame")
    out += "<output class=\"now\" aria-live=\"polite\">frame 0</output>\n</div>\n"
    out += "<div class=\"body\">\n<div class=\"lanes\">\n"
    out += SVGDiagram([model], header: false).element(id: "\(id)-svg")
    out += "</div>\n<aside class=\"trace\" aria-label=\"Deliveries in this frame\">\n"
    out += "<h3>What happens in this frame</h3>\n"
    var byFrame: [Int: [(Int, TraceRenderer.Line)]] = [:]
    for (offset, line) in model.trace.lines.enumerated() {
      byFrame[line.frame ?? 0, default: []].append((offset, line))
    }
    for frame in 0...last {
      out += "<div class=\"frame\" data-frame=\"\(frame)\"\(frame == 0 ? "" : " hidden")>\n"
      let lines = byFrame[frame] ?? []
      if lines.isEmpty { out += "<p class=\"quiet\">Nothing happens in this frame.</p>\n" }
      var inSetup = false
      var open = false
      for (_, line) in lines {
        let isSetup = line.frame == nil
        if !open || isSetup != inSetup {
          if open { out += "</ol>\n" }
          out += isSetup ? "<h4>setup, before any scheduled action</h4>\n<ol>\n" : (open || frame == 0 ? "<h4>frame \(frame)</h4>\n<ol>\n" : "<ol>\n")
          open = true
          inSetup = isSetup
        }
        let lane = line.lane.map { " data-lane=\"\(escape($0))\"" } ?? ""
        out += "<li class=\"d\(min(line.depth, 8))\"\(lane)>"
        out += (line.depth > 0 ? "→ " : "") + "<b>\(escape(line.name))</b> \(escape(line.what))"
        if let via = line.via { out += " <span class=\"via\">(\(escape(via)))</span>" }
        out += "</li>\n"
      }
      if open { out += "</ol>\n" }
      out += "</div>\n"
    }
    out += "</aside>\n</div>\n"
    let times = (0...last).map { "\"\(scenario.tick.realTime(frames: $0))\"" }.joined(separator: ",")
    let busy = Set(model.trace.lines.map { $0.frame ?? 0 }).union(model.framesWithEvents).sorted()
    out += "<script type=\"application/json\" class=\"data\">{\"x\":["
    out += drawing.frameX.map(String.init).joined(separator: ",")
    out += "],\"top\":\(drawing.lanesTop),\"bottom\":\(drawing.lanesBottom),\"times\":[\(times)],"
    out += "\"busy\":[\(busy.map(String.init).joined(separator: ","))]}</script>\n"
    out += "</section>\n"
    return out
  }

  private func button(_ step: String, _ symbol: String, _ label: String) -> String {
    "<button type=\"button\" data-step=\"\(step)\" aria-label=\"\(label)\" title=\"\(label)\">\(symbol)</button>\n"
  }

  private func escapeLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }
      .joined(separator: "\n")
  }

  static let style = """
    body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #222; background: #fafafa; }
    header { padding: 12px 24px; background: #263238; color: #fff; }
    header h1 { font-size: 18px; margin: 0; } header .meta { color: #b0bec5; margin: 2px 0 0; }
    .scenario { margin: 16px 24px 32px; padding: 16px; background: #fff; border: 1px solid #ddd; border-radius: 6px; }
    .scenario h2 { margin: 0 0 4px; font-size: 17px; }
    .meta { color: #666; margin: 0 0 8px; }
    .status.passed { color: #2b7a0b; } .status.failed, .status.error { color: #b00020; }
    .description { white-space: pre-wrap; background: #f5f5f5; padding: 8px 12px; border-radius: 4px; font-size: 13px; }
    .controls { display: flex; gap: 6px; align-items: center; margin: 10px 0; position: sticky; top: 0; background: #fff; padding: 6px 0; z-index: 1; }
    .controls button { font-size: 15px; min-width: 36px; padding: 3px 8px; cursor: pointer; }
    .controls button:focus-visible, .controls input:focus-visible { outline: 3px solid #1e88e5; outline-offset: 2px; }
    .slider { flex: 1; max-width: 520px; }
    .now { font-family: Menlo, Consolas, monospace; min-width: 150px; }
    .body { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
    .lanes { overflow-x: auto; max-width: 100%; }
    .trace { flex: 1; min-width: 320px; font-family: Menlo, Consolas, monospace; font-size: 12px; position: sticky; top: 56px; }
    .trace h3 { font: bold 14px system-ui, sans-serif; margin: 0 0 6px; }
    .trace h4 { font: 600 12px system-ui, sans-serif; color: #555; margin: 8px 0 2px; }
    .trace ol { list-style: none; margin: 0; padding: 0; }
    .trace li { padding: 1px 4px; border-radius: 3px; }
    .trace li:hover { background: #fff3c4; }
    .trace .via { color: #777; } .trace .quiet { color: #888; }
    .d1 { margin-left: 1.5em; } .d2 { margin-left: 3em; } .d3 { margin-left: 4.5em; } .d4 { margin-left: 6em; }
    .d5 { margin-left: 7.5em; } .d6 { margin-left: 9em; } .d7 { margin-left: 10.5em; } .d8 { margin-left: 12em; }
    svg .mark.current circle, svg .mark.current path, svg .mark.current line { stroke: #d81b60; stroke-width: 3; }
    svg .lane.active > text:first-child { font-weight: bold; fill: #d81b60; }
    svg .cursor { fill: #ffe082; opacity: 0.45; }

    """

  static let script = """
    (function () {
      "use strict";
      var NS = "http://www.w3.org/2000/svg";
      document.querySelectorAll("section.scenario").forEach(function (section) {
        var data = JSON.parse(section.querySelector("script.data").textContent);
        var svg = section.querySelector("svg");
        var slider = section.querySelector(".slider");
        var now = section.querySelector(".now");
        var cursor = document.createElementNS(NS, "rect");
        cursor.setAttribute("class", "cursor");
        cursor.setAttribute("width", "30");
        cursor.setAttribute("y", String(data.top));
        cursor.setAttribute("height", String(data.bottom - data.top));
        svg.insertBefore(cursor, svg.querySelector("g.scenario"));
        function show(frame) {
          frame = Math.max(0, Math.min(data.x.length - 1, frame));
          slider.value = String(frame);
          now.textContent = "frame " + frame + " (" + data.times[frame] + ")";
          cursor.setAttribute("x", String(data.x[frame] - 15));
          var lanes = {};
          section.querySelectorAll(".trace .frame").forEach(function (panel) {
            var current = Number(panel.dataset.frame) === frame;
            panel.hidden = !current;
            if (current) {
              panel.querySelectorAll("li[data-lane]").forEach(function (li) { lanes[li.dataset.lane] = true; });
            }
          });
          svg.querySelectorAll(".mark").forEach(function (mark) {
            mark.classList.toggle("current", Number(mark.dataset.frame) === frame);
          });
          svg.querySelectorAll(".lane").forEach(function (lane) {
            var marked = lane.querySelector(".mark.current") !== null;
            lane.classList.toggle("active", marked || lanes[lane.dataset.lane] === true);
          });
          section.dataset.frame = String(frame);
        }
        function step(direction) {
          var frame = Number(slider.value);
          var busy = data.busy.filter(function (f) { return direction > 0 ? f > frame : f < frame; });
          if (busy.length === 0) { return; }
          show(direction > 0 ? busy[0] : busy[busy.length - 1]);
        }
        slider.addEventListener("input", function () { show(Number(slider.value)); });
        section.querySelectorAll("button[data-step]").forEach(function (button) {
          button.addEventListener("click", function () {
            var kind = button.dataset.step;
            if (kind === "first") { show(0); }
            if (kind === "last") { show(data.x.length - 1); }
            if (kind === "next") { step(1); }
            if (kind === "prev") { step(-1); }
          });
        });
        section.addEventListener("keydown", function (event) {
          if (event.target === slider) { return; }
          if (event.key === "ArrowRight") { step(1); event.preventDefault(); }
          if (event.key === "ArrowLeft") { step(-1); event.preventDefault(); }
        });
        show(0);
      });
    })();

    """
}
