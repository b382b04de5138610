import FlowrunMarbles
import FlowrunScenario

/// One self-contained HTML page per file: for each scenario its description, the marble lanes
/// (the SVG diagram), and a frame slider with step buttons that walks the run, highlighting the
/// current frame's events and the lanes they reached, with the frame's deliveries from the
/// trace listed beside. With the models drawn with steps too, a checkbox switches between the
/// two drawings. No network: the style and script are inline, no external font.
///
/// The page stays small for long runs: a deliveries panel only for the frames that have
/// deliveries, the columns' positions rather than one per frame, real time computed in the page.
public struct HTMLDiagram: Sendable {
  public let models: [DiagramModel]
  /// The same runs drawn with every step (``DiagramModel/Options/steps``), one per model, for
  /// the page's "every step" checkbox; empty for a page without it.
  public let stepModels: [DiagramModel]
  /// Whether the page opens with every step drawn.
  public var showSteps = false
  /// The library `models` were read in, and the same file drawn under the other libraries
  /// whose drawing differs (libraries.md): the page lets the reader switch between them.
  public var library = "rxjs"
  public var variants: [(library: String, models: [DiagramModel])] = []

  public init(_ models: [DiagramModel]) {
    self.models = models
    self.stepModels = []
  }

  public init(_ models: [DiagramModel], steps: [DiagramModel], showSteps: Bool) {
    self.models = models
    self.stepModels = steps
    self.showSteps = showSteps
  }

  public func render() -> String {
    let title = models.first?.scenario.path ?? "flowrun"
    var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<title>\(escape(title)) · flowrun</title>\n<style>\n\(HTMLDiagram.style)</style>\n</head>\n<body>\n"
    out += "<header><h1>\(escape(title))</h1><p class=\"meta\">drawn by flowrun diagram --format html</p></header>\n"
    guard !variants.isEmpty else {
      out += sections()
      out += "<script>\n\(HTMLDiagram.script)flowrunDiagram(document);\n</script>\n</body>\n</html>\n"
      return out
    }
    out += "<nav class=\"libraries\" role=\"group\" aria-label=\"Read the scenario as\">Read as:\n"
    let drawings = [(library: library, models: models)] + variants
    // The first drawing is the scenario's own library's.
    for (number, drawing) in drawings.enumerated() {
      let pressed = number == 0 ? "true" : "false"
      out += "<button type=\"button\" data-library=\"\(escape(drawing.library))\" aria-pressed=\"\(pressed)\">"
      out += "\(escape(drawing.library))</button>\n"
    }
    out += "</nav>\n"
    var index = 0
    for (number, drawing) in drawings.enumerated() {
      let own = number == 0
      out += "<div class=\"library\" data-library=\"\(escape(drawing.library))\"\(own ? "" : " hidden")>\n"
      for (position, model) in drawing.models.enumerated() {
        let stepped = own && position < stepModels.count ? stepModels[position] : nil
        out += section(model, stepped: stepped, index: index)
        index += 1
      }
      out += "</div>\n"
    }
    out += "<style>\n\(HTMLDiagram.libraryStyle)</style>\n"
    out += "<script>\n\(HTMLDiagram.script)flowrunDiagram(document);\n\(HTMLDiagram.libraryScript)</script>\n"
    out += "</body>\n</html>\n"
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

  /// The sections of the scenarios alone, for a page that brings its own head and script
  /// (`flowrunDiagram(element)` sets up the sections inside `element`).
  public func sections() -> String {
    models.indices.map { section(models[$0], stepped: $0 < stepModels.count ? stepModels[$0] : nil, index: $0) }
      .joined()
  }

  private func section(_ model: DiagramModel, stepped: DiagramModel?, index: Int) -> String {
    let scenario = model.scenario
    let id = "s\(index)"
    var out = "<section class=\"scenario\" id=\"\(id)\" aria-labelledby=\"\(id)-title\">\n"
    out += "<h2 id=\"\(id)-title\">\(escape(scenario.name))</h2>\n"
    out += "<p class=\"meta\">\(escape(scenario.path)) · tick \(escape(scenario.tick.literal.text)) · "
    out += "<span class=\"status \(model.result.status.rawValue)\">\(model.result.status.rawValue)</span></p>\n"
    if let description = scenario.description, !description.isEmpty {
      out += "<pre class=\"description\">\(escapeLines(description.trimmingTrailingNewlines))</pre>\n"
    }
    if model.lanes.contains(where: { $0.role == "model" }) {
      out += "<p class=\"meta roles\">A failing expectation the code answers has three rows: "
      out += "<b>expected</b> (the scenario's marble), <b>model</b> (the scenario's declared graph run alone "
      out += "on the same inputs) and <b>code</b> (what the bound code did); the red caret marks the frame "
      out += "where the code parts from the model.</p>\n"
    }
    let last = max(model.lastFrame, stepped?.lastFrame ?? 0)
    out += "<div class=\"controls\" role=\"group\" aria-label=\"Walk through the frames\">\n"
    out += button("first", "«", "First frame")
    out += button("prev", "◀", "Previous frame with events")
    out += "<input type=\"range\" class=\"slider\" min=\"0\" max=\"\(last)\" value=\"0\" step=\"1\""
    out += " aria-label=\"Frame\">\n"
    out += button("next", "▶", "Next frame with events")
    out += button("last", "»", "Last frame")
    out += "<output class=\"now\" aria-live=\"polite\">frame 0</output>\n"
    if stepped != nil {
      out +=
        "<label class=\"steps-toggle\" title=\"A lane for every step of each chain, and the values each step dropped\">"
      out += "<input type=\"checkbox\" class=\"steps\"\(showSteps ? " checked" : "")> every step</label>\n"
    }
    out += "</div>\n"
    out += view(model, id: id, kind: "plain", hidden: stepped != nil && showSteps)
    if let stepped { out += view(stepped, id: id + "-steps", kind: "steps", hidden: !showSteps) }
    out += "</section>\n"
    return out
  }

  /// One drawing of a scenario with its deliveries panels and the data the script walks.
  private func view(_ model: DiagramModel, id: String, kind: String, hidden: Bool) -> String {
    let drawing = SVGDrawing(model: model, top: SVGDiagram.margin, header: false)
    var out = "<div class=\"view\" data-view=\"\(kind)\"\(hidden ? " hidden" : "")>\n"
    out += "<div class=\"body\">\n<div class=\"lanes\">\n"
    out += SVGDiagram([model], header: false).element(id: "\(id)-svg")
    out += "</div>\n<aside class=\"trace\" aria-label=\"Deliveries in this frame\">\n"
    out += "<h3>What happens in this frame</h3>\n"
    // Frames folded away with their events (a very long run) get no panel of their own.
    let folded = drawing.columnSpans.filter(\.hidesEvents).map { $0.frame..<($0.frame + $0.count) }
    func isFolded(_ frame: Int) -> Bool { folded.contains { $0.contains(frame) } }
    var byFrame: [Int: [TraceRenderer.Line]] = [:]
    var foldedLines = Array(repeating: 0, count: folded.count)
    for line in model.trace.lines {
      let frame = line.frame ?? 0
      if let range = folded.firstIndex(where: { $0.contains(frame) }) {
        foldedLines[range] += 1
      } else {
        byFrame[frame, default: []].append(line)
      }
    }
    for frame in byFrame.keys.sorted() {
      out += "<div class=\"frame\" data-frame=\"\(frame)\"\(frame == 0 ? "" : " hidden")>\n"
      out += panel(byFrame[frame] ?? [], frame: frame)
      out += "</div>\n"
    }
    // One panel for every frame without deliveries (the script sets its frame).
    out += "<div class=\"frame quiet-frame\" data-frame=\"0\"\(byFrame[0] == nil ? "" : " hidden")>"
    out += "<p class=\"quiet\">Nothing happens in this frame.</p></div>\n"
    out += "</aside>\n</div>\n"
    let busy = Set(model.trace.lines.map { $0.frame ?? 0 }).union(model.framesWithEvents).filter { !isFolded($0) }
      .sorted()
    out += "<script type=\"application/json\" class=\"data\">{\"columns\":["
    out += drawing.columnSpans.map { "[\($0.frame),\($0.count),\($0.x)]" }.joined(separator: ",")
    out += "],\"folded\":["
    out += folded.indices.map { "[\(folded[$0].lowerBound),\(folded[$0].count),\(foldedLines[$0])]" }.joined(
      separator: ",")
    out +=
      "],\"top\":\(drawing.lanesTop),\"bottom\":\(drawing.lanesBottom),\"tick\":\(model.scenario.tick.nanoseconds),"
    out += "\"busy\":[\(busy.map(String.init).joined(separator: ","))]}</script>\n"
    out += "</div>\n"
    return out
  }

  /// The deliveries of one frame, setup first, each indented by what caused it.
  private func panel(_ lines: [TraceRenderer.Line], frame: Int) -> String {
    var out = ""
    var inSetup = false
    var open = false
    for line in lines {
      let isSetup = line.frame == nil
      if !open || isSetup != inSetup {
        if open { out += "</ol>\n" }
        out +=
          isSetup
          ? "<h4>setup, before any scheduled action</h4>\n<ol>\n"
          : (open || frame == 0 ? "<h4>frame \(frame)</h4>\n<ol>\n" : "<ol>\n")
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
    return out
  }

  private func button(_ step: String, _ symbol: String, _ label: String) -> String {
    "<button type=\"button\" data-step=\"\(step)\" aria-label=\"\(label)\" title=\"\(label)\">\(symbol)</button>\n"
  }

  private func escapeLines(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }
      .joined(separator: "\n")
  }

  /// The page's style sheet (also the playground's).
  public static let style = """
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
    svg .drop.current circle { stroke: #d81b60; }
    .steps-toggle { margin-left: 12px; font-size: 13px; white-space: nowrap; cursor: pointer; }
    .view[hidden] { display: none; }

    """

  /// Defines `flowrunDiagram(root)`, which sets up every section inside `root`: the slider,
  /// the step buttons, the arrow keys, the "every step" checkbox.
  public static let script = """
    window.flowrunDiagram = (function () {
      "use strict";
      var NS = "http://www.w3.org/2000/svg";
      // The tick's real time, as flowrun writes it: 300 ms, 1.5 s.
      function decimal(value, per) {
        var whole = Math.floor(value / per), fraction = value % per;
        if (fraction === 0) { return String(whole); }
        var width = String(per).length - 1;
        while (fraction % 10 === 0) { fraction /= 10; width -= 1; }
        var digits = String(fraction);
        return whole + "." + "0".repeat(width - digits.length) + digits;
      }
      function realTime(frame, tick) {
        var ns = frame * tick;
        return ns >= 1e9 ? decimal(ns, 1e9) + " s" : decimal(ns, 1e6) + " ms";
      }
      function setUp(section) {
        var slider = section.querySelector(".slider");
        var now = section.querySelector(".now");
        var toggle = section.querySelector("input.steps");
        var last = Number(slider.max);
        var views = Array.prototype.map.call(section.querySelectorAll(".view"), function (element) {
          var data = JSON.parse(element.querySelector("script.data").textContent);
          var svg = element.querySelector("svg");
          var cursor = document.createElementNS(NS, "rect");
          cursor.setAttribute("class", "cursor");
          cursor.setAttribute("width", "30");
          cursor.setAttribute("y", String(data.top));
          cursor.setAttribute("height", String(data.bottom - data.top));
          svg.insertBefore(cursor, svg.querySelector("g.scenario"));
          var panels = {};
          element.querySelectorAll(".trace .frame").forEach(function (panel) {
            if (!panel.classList.contains("quiet-frame")) { panels[panel.dataset.frame] = panel; }
          });
          return {element: element, data: data, svg: svg, cursor: cursor, panels: panels,
                  quiet: element.querySelector(".quiet-frame")};
        });
        function visible() {
          return views.filter(function (view) { return !view.element.hidden; })[0] || views[0];
        }
        function xOf(data, frame) {
          var low = 0, high = data.columns.length - 1;
          while (low < high) {
            var middle = (low + high + 1) >> 1;
            if (data.columns[middle][0] <= frame) { low = middle; } else { high = middle - 1; }
          }
          return data.columns[low][2];
        }
        function draw(view, frame) {
          view.cursor.setAttribute("x", String(xOf(view.data, frame) - 15));
          var lanes = {};
          var shown = view.panels[String(frame)] || view.quiet;
          view.element.querySelectorAll(".trace .frame").forEach(function (panel) { panel.hidden = panel !== shown; });
          if (shown === view.quiet) {
            view.quiet.dataset.frame = String(frame);
            var fold = view.data.folded.filter(function (f) { return frame >= f[0] && frame < f[0] + f[1]; })[0];
            view.quiet.firstChild.textContent = fold
              ? "Frames " + fold[0] + "–" + (fold[0] + fold[1] - 1) + " are folded to keep the page small; " +
                "flowrun trace lists their " + fold[2] + " deliveries."
              : "Nothing happens in this frame.";
          }
          shown.querySelectorAll("li[data-lane]").forEach(function (li) { lanes[li.dataset.lane] = true; });
          view.svg.querySelectorAll(".mark, .drop").forEach(function (mark) {
            mark.classList.toggle("current", Number(mark.dataset.frame) === frame);
          });
          view.svg.querySelectorAll(".lane").forEach(function (lane) {
            var marked = lane.querySelector(".mark.current") !== null;
            lane.classList.toggle("active", marked || lanes[lane.dataset.lane] === true);
          });
        }
        function show(frame) {
          frame = Math.max(0, Math.min(last, frame));
          slider.value = String(frame);
          now.textContent = "frame " + frame + " (" + realTime(frame, views[0].data.tick) + ")";
          views.forEach(function (view) { draw(view, frame); });
          section.dataset.frame = String(frame);
        }
        function step(direction) {
          var frame = Number(slider.value);
          var busy = visible().data.busy.filter(function (f) { return direction > 0 ? f > frame : f < frame; });
          if (busy.length === 0) { return; }
          show(direction > 0 ? busy[0] : busy[busy.length - 1]);
        }
        function showSteps(on) {
          views.forEach(function (view) {
            view.element.hidden = views.length > 1 && (view.element.dataset.view === "steps") !== on;
          });
          section.dataset.steps = on ? "on" : "off";
        }
        slider.addEventListener("input", function () { show(Number(slider.value)); });
        section.querySelectorAll("button[data-step]").forEach(function (button) {
          button.addEventListener("click", function () {
            var kind = button.dataset.step;
            if (kind === "first") { show(0); }
            if (kind === "last") { show(last); }
            if (kind === "next") { step(1); }
            if (kind === "prev") { step(-1); }
          });
        });
        section.addEventListener("keydown", function (event) {
          if (event.target === slider || event.target === toggle) { return; }
          if (event.key === "ArrowRight") { step(1); event.preventDefault(); }
          if (event.key === "ArrowLeft") { step(-1); event.preventDefault(); }
        });
        if (toggle) {
          toggle.addEventListener("change", function () { showSteps(toggle.checked); });
          showSteps(toggle.checked);
        }
        section.flowrunShow = show;
        show(0);
      }
      return function (root) {
        root.querySelectorAll("section.scenario").forEach(setUp);
      };
    })();

    """
}
