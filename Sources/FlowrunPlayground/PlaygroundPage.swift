import FlowrunDiagnostics
import FlowrunReport
import Foundation

/// The playground's one page: the scenario's YAML in an editor with line numbers on the left;
/// on the right the diagnostics (each at its line), the failed expectations' diffs and the
/// diagrams with the frame slider and step controls of `flowrun diagram --format html`, redrawn
/// 250 ms after the last keystroke. Edits stay in the page until Save (or Ctrl-S).
///
/// Self-contained: the style and scripts are inline, no font or image is fetched, the page asks
/// only its own server for anything.
struct PlaygroundPage {
  var path: String
  var text: String
  var base: String
  var canSave: Bool
  var result: PlaygroundRender

  func render() -> String {
    let state: [String: String] = ["path": path, "base": base, "canSave": canSave ? "yes" : "no"]
    let stateJSON = (try? JSONEncoder().encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    let renderJSON = (try? JSONEncoder().encode(result)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<link rel=\"icon\" href=\"data:,\">\n"
    out += "<title>\(escapeHTML(path)) · flowrun playground</title>\n"
    out += "<style>\n\(HTMLDiagram.style)\(PlaygroundPage.style)</style>\n</head>\n<body class=\"playground\">\n"
    out += "<header><h1>flowrun playground</h1><p class=\"meta\"><span id=\"path\">\(escapeHTML(path))</span>"
    out += " · <span id=\"status\" class=\"status\"></span> · <span id=\"timing\"></span></p></header>\n"
    out += "<main class=\"split\">\n<section class=\"pane editor-pane\" aria-label=\"Scenario\">\n"
    out +=
      "<div class=\"toolbar\"><button type=\"button\" id=\"save\" title=\"Write the file (Ctrl-S)\"\(canSave ? "" : " disabled")>Save</button>"
    out +=
      "<span id=\"state\" aria-live=\"polite\">\(canSave ? "saved" : "not saved: no file (start with flowrun playground FILE)")</span></div>\n"
    out += "<div class=\"editor\"><div class=\"gutter\" id=\"gutter\" aria-hidden=\"true\"></div>"
    out += "<textarea id=\"source\" spellcheck=\"false\" autocapitalize=\"off\" autocomplete=\"off\" wrap=\"off\""
    out += " aria-label=\"Scenario YAML\">\(escapeHTML(text))</textarea></div>\n</section>\n"
    out += "<section class=\"pane output-pane\" aria-label=\"Result\">\n"
    out += "<div id=\"problems\" class=\"problems\" aria-live=\"polite\"></div>\n"
    out += "<pre id=\"report\" class=\"report\"></pre>\n"
    out += "<div id=\"diagram\"></div>\n</section>\n</main>\n"
    out += "<script type=\"application/json\" id=\"playground-state\">\(escapeScript(stateJSON))</script>\n"
    out += "<script type=\"application/json\" id=\"playground-render\">\(escapeScript(renderJSON))</script>\n"
    out += "<script>\n\(HTMLDiagram.script)\(PlaygroundPage.script)</script>\n</body>\n</html>\n"
    return out
  }

  private func escapeHTML(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }

  /// JSON inside a `<script>` element: `</` cannot end it early.
  private func escapeScript(_ json: String) -> String {
    json.replacingOccurrences(of: "</", with: "<\\/")
  }

  static let style = """
    body.playground { height: 100vh; display: flex; flex-direction: column; }
    body.playground header { flex: none; }
    .split { flex: 1; display: flex; min-height: 0; }
    .pane { min-width: 0; overflow: auto; }
    .editor-pane { flex: 0 0 40%; display: flex; flex-direction: column; border-right: 1px solid #ccc; background: #fff; }
    .output-pane { flex: 1; padding: 0 8px 24px; }
    .toolbar { display: flex; gap: 10px; align-items: center; padding: 6px 10px; border-bottom: 1px solid #ddd; }
    .toolbar button { font-size: 14px; padding: 3px 14px; cursor: pointer; }
    #state { color: #555; font-size: 13px; } #state.dirty { color: #8a5300; } #state.refused { color: #b00020; font-weight: 600; }
    .editor { flex: 1; display: flex; min-height: 0; font: 13px/18px Menlo, Consolas, "DejaVu Sans Mono", monospace; }
    .gutter { flex: none; overflow: hidden; padding: 6px 0; background: #f3f3f3; color: #999; text-align: right; user-select: none; }
    .gutter .ln { padding: 0 8px 0 12px; height: 18px; }
    .gutter .ln.error { background: #b00020; color: #fff; font-weight: bold; }
    .gutter .ln.warning { background: #f4a300; color: #fff; }
    #source { flex: 1; resize: none; border: 0; outline: none; padding: 6px 8px; margin: 0; font: inherit; line-height: 18px;
      white-space: pre; overflow: auto; tab-size: 2; color: #222; background: #fff; }
    .problems:empty, .report:empty { display: none; }
    #diagram.stale, #diagram section.scenario.stale { opacity: 0.4; }
    .problems { margin: 10px 16px 0; }
    .problem { display: block; width: 100%; text-align: left; border: 1px solid #e4b4bc; border-left: 4px solid #b00020;
      background: #fff5f6; padding: 6px 10px; margin: 4px 0; font: 12px/1.4 Menlo, Consolas, monospace; white-space: pre-wrap; cursor: pointer; }
    .problem.warning { border-color: #f0d49a; border-left-color: #f4a300; background: #fffaf0; }
    .report { margin: 10px 16px 0; padding: 8px 12px; background: #fff; border: 1px solid #ddd; border-radius: 4px;
      font: 12px/1.4 Menlo, Consolas, "DejaVu Sans Mono", monospace; white-space: pre; overflow-x: auto; }
    body.playground .status.error, body.playground .status.failed { color: #ff8a80; }
    body.playground header .status.passed { color: #a5d6a7; }

    """

  static let script = """
    (function () {
      "use strict";
      var source = document.getElementById("source");
      var gutter = document.getElementById("gutter");
      var problems = document.getElementById("problems");
      var report = document.getElementById("report");
      var diagram = document.getElementById("diagram");
      var stateLabel = document.getElementById("state");
      var statusLabel = document.getElementById("status");
      var timing = document.getElementById("timing");
      var saveButton = document.getElementById("save");
      var state = JSON.parse(document.getElementById("playground-state").textContent);
      var saved = source.value;
      var sequence = 0;
      var timer = null;
      var lastInput = null;
      // The document of each section shown (PlaygroundRender.sectionDocuments).
      var shownDocuments = [];
      // What the page has drawn, for tests and measurements: the count of redraws, the text of
      // the last one, and the latencies.
      var stats = window.flowrunPlayground = {renders: 0, text: source.value, latencies: [], serverMilliseconds: []};
      var marks = {};

      function lineCount() { return source.value.split("\\n").length; }
      function drawGutter() {
        var count = lineCount();
        if (gutter.childElementCount !== count) {
          var html = "";
          for (var line = 1; line <= count; line += 1) {
            html += '<div class="ln" data-line="' + line + '">' + line + "</div>";
          }
          gutter.innerHTML = html;
        }
        Object.keys(marks).forEach(function (line) {
          var element = gutter.querySelector('.ln[data-line="' + line + '"]');
          if (element) {
            element.className = "ln " + marks[line].severity;
            element.title = marks[line].message;
          }
        });
        gutter.scrollTop = source.scrollTop;
      }
      function setDirty() {
        var dirty = source.value !== saved;
        if (!stateLabel.classList.contains("refused") || !dirty) {
          stateLabel.textContent = dirty ? "unsaved changes" : (state.canSave === "yes" ? "saved" : stateLabel.textContent);
          stateLabel.className = dirty ? "dirty" : "";
        }
        document.body.dataset.dirty = dirty ? "yes" : "no";
      }
      function jumpTo(line, column) {
        var lines = source.value.split("\\n");
        var offset = 0;
        for (var index = 0; index < line - 1 && index < lines.length; index += 1) { offset += lines[index].length + 1; }
        offset += Math.max(0, column - 1);
        source.focus();
        source.setSelectionRange(offset, offset);
        source.scrollTop = Math.max(0, (line - 5) * 18);
        drawGutter();
      }
      function escape(text) {
        return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
      }
      function show(render) {
        // Keep each section's frame and "every step" choice across redraws, by document.
        var oldSections = Array.prototype.slice.call(diagram.querySelectorAll("section.scenario"));
        var kept = {};
        var sectionOf = {};
        oldSections.forEach(function (section, index) {
          var number = index < shownDocuments.length ? shownDocuments[index] : index;
          var toggle = section.querySelector("input.steps");
          kept[number] = {frame: Number(section.dataset.frame || 0), steps: toggle ? toggle.checked : false};
          sectionOf[number] = section;
        });
        marks = {};
        problems.innerHTML = render.problems.map(function (problem, index) {
          var line = String(problem.line);
          if (!marks[line] || problem.severity === "error") { marks[line] = problem; }
          return '<button type="button" class="problem ' + escape(problem.severity) + '" data-index="' + index +
            '" data-line="' + problem.line + '" data-column="' + problem.column + '">' + escape(problem.text) + "</button>";
        }).join("");
        gutter.querySelectorAll(".ln").forEach(function (element) { element.className = "ln"; element.title = ""; });
        drawGutter();
        report.textContent = render.report;
        // A text that does not load keeps the last diagram, faded, until it loads again.
        diagram.classList.toggle("stale", !render.html && diagram.childElementCount > 0);
        if (render.html || diagram.childElementCount === 0) {
          diagram.innerHTML = render.html;
          window.flowrunDiagram(diagram);
          var documents = (render.sectionDocuments || []).slice();
          // A document whose edit broke it keeps its last diagram, faded, in its place.
          (render.brokenDocuments || []).forEach(function (number) {
            var old = sectionOf[number];
            if (!old) { return; }
            old.classList.add("stale");
            if (old.id.indexOf("-kept") < 0) { old.id += "-kept"; }
            var sections = diagram.querySelectorAll("section.scenario");
            var at = documents.findIndex(function (other) { return other > number; });
            if (at < 0) {
              diagram.appendChild(old);
              documents.push(number);
            } else {
              sections[at].parentNode.insertBefore(old, sections[at]);
              documents.splice(at, 0, number);
            }
          });
          shownDocuments = documents;
        }
        diagram.querySelectorAll("section.scenario").forEach(function (section, index) {
          if (section.classList.contains("stale")) { return; }
          var old = kept[index < shownDocuments.length ? shownDocuments[index] : index];
          if (!old) { return; }
          var toggle = section.querySelector("input.steps");
          if (toggle && toggle.checked !== old.steps) { toggle.click(); }
          if (old.frame > 0 && section.flowrunShow) { section.flowrunShow(old.frame); }
        });
        statusLabel.textContent = render.status;
        statusLabel.className = "status " + render.status;
        timing.textContent = "drawn in " + Math.round(render.milliseconds) + " ms";
        stats.renders += 1;
        stats.serverMilliseconds.push(render.milliseconds);
        document.body.dataset.renders = String(stats.renders);
        document.body.dataset.status = render.status;
      }
      function request() {
        var mine = ++sequence;
        var text = source.value;
        var started = lastInput;
        fetch("/render", {method: "POST", body: text, headers: {"X-Flowrun-Playground": "1", "Content-Type": "text/plain; charset=utf-8"}})
          .then(function (response) { return response.json(); })
          .then(function (render) {
            if (mine !== sequence) { return; }
            stats.text = text;
            show(render);
            if (started !== null) {
              // Keystroke to redrawn diagram, measured once the browser has laid it out.
              requestAnimationFrame(function () { stats.latencies.push(performance.now() - started); });
            }
          })
          .catch(function (error) {
            if (mine !== sequence) { return; }
            problems.innerHTML = '<p class="problem error">cannot reach the playground server: ' + escape(String(error)) + "</p>";
          });
      }
      source.addEventListener("input", function () {
        lastInput = performance.now();
        setDirty();
        drawGutter();
        clearTimeout(timer);
        timer = setTimeout(request, 250);
      });
      source.addEventListener("scroll", function () { gutter.scrollTop = source.scrollTop; });
      source.addEventListener("keydown", function (event) {
        if (event.key === "Tab") {
          event.preventDefault();
          var start = source.selectionStart;
          source.setRangeText("  ", start, source.selectionEnd, "end");
          source.dispatchEvent(new Event("input"));
        }
        if ((event.ctrlKey || event.metaKey) && event.key === "s") {
          event.preventDefault();
          save();
        }
      });
      problems.addEventListener("click", function (event) {
        var target = event.target.closest(".problem");
        if (target && target.dataset.line) { jumpTo(Number(target.dataset.line), Number(target.dataset.column)); }
      });
      function save() {
        if (state.canSave !== "yes") { return; }
        var text = source.value;
        saveButton.disabled = true;
        fetch("/save", {method: "POST", body: JSON.stringify({text: text, base: state.base}),
                        headers: {"X-Flowrun-Playground": "1", "Content-Type": "application/json"}})
          .then(function (response) { return response.json(); })
          .then(function (reply) {
            saveButton.disabled = false;
            if (reply.saved) {
              state.base = reply.base;
              saved = text;
              stateLabel.className = "";
              setDirty();
              stateLabel.textContent = source.value === saved ? "saved" : "unsaved changes";
            } else {
              stateLabel.textContent = reply.message;
              stateLabel.className = "refused";
            }
            document.body.dataset.saves = String(Number(document.body.dataset.saves || 0) + 1);
          })
          .catch(function (error) {
            saveButton.disabled = false;
            stateLabel.textContent = "not saved: " + error;
            stateLabel.className = "refused";
          });
      }
      saveButton.addEventListener("click", save);
      window.addEventListener("beforeunload", function (event) {
        if (source.value !== saved) { event.preventDefault(); event.returnValue = ""; }
      });
      drawGutter();
      setDirty();
      show(JSON.parse(document.getElementById("playground-render").textContent));
    })();

    """
}
