"""`flowrun diagram <file> --format html` in a real headless Chromium.

For a few teaching flows: the page loads with no request but its own file:// document and no
JavaScript error; the slider (mouse and keyboard) and the step buttons move the current frame;
and at every frame the page shows exactly that frame's events (checked against the text
diagram) and lists exactly that frame's deliveries (checked against `flowrun trace`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from flowrun_text import TextDiagram, Trace, parse_text_diagram, parse_trace, split_scenarios, squash

FLOWS = [
    "scenarios/login/enable-button.yaml",   # one scenario, quiet frames, a property bound twice
    "scenarios/hud/two-commands.yaml",      # groups (tt), a rejected execution, lanes #1 #2
    "scenarios/login/command.yaml",         # two scenarios on one page, CJK values, 15 frames
    "scenarios/paging/refresh-and-next-page.yaml",  # 22 frames, 28 lanes, a signal subscribed three times
    "scenarios/network/cancel.yaml",        # ▲ … ✕ lanes, a shared node with its subscribers, log pairs
    "scenarios/search/search-as-you-type.yaml --steps",  # a lane per step, dropped values, inner requests
]


@dataclass
class Scenario:
    index: int
    trace: Trace
    diagram: TextDiagram

    @property
    def last(self) -> int:
        return self.diagram.frames - 1

    def busy(self) -> list[int]:
        """The frames the step buttons stop at: a delivery or an event happens there."""
        frames = self.trace.busy_frames()
        for lane in self.diagram.lanes:
            frames |= {f for f in range(self.diagram.frames) if lane.events(f)}
        return sorted(frames)


@dataclass
class Flow:
    path: str
    page: Path
    scenarios: list[Scenario]


@pytest.fixture(scope="module", params=FLOWS, ids=lambda p: Path(p.split(" ")[0]).stem + ("-steps" if "--steps" in p else ""))
def flow(request, run_flowrun, artifacts) -> Flow:
    path, *flags = request.param.split(" ")
    page = artifacts / (path.removeprefix("scenarios/").removesuffix(".yaml").replace("/", "-") + "".join(flags) + ".html")
    run_flowrun("diagram", path, "--format", "html", "-o", str(page), *flags)
    traces = split_scenarios(run_flowrun("trace", path, *flags), path)
    diagrams = split_scenarios(run_flowrun("diagram", path, "--format", "text", *flags), path)
    assert len(traces) == len(diagrams)
    scenarios = [Scenario(i, parse_trace(t), parse_text_diagram(d)) for i, (t, d) in enumerate(zip(traces, diagrams))]
    return Flow(path, page, scenarios)


# MARK: - Reading the page

SNAPSHOT = """
var section = document.querySelectorAll("section.scenario")[arguments[0]];
function shown(el) { return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden"; }
var views = Array.prototype.filter.call(section.querySelectorAll(".view"), shown);
var view = views[0];
var svg = view.querySelector("svg");
var cursor = svg.querySelector("rect.cursor");
var panels = Array.prototype.filter.call(section.querySelectorAll(".trace .frame"), shown);
var lanes = Array.prototype.map.call(svg.querySelectorAll("g.lane"), function (lane) {
  return {
    name: lane.dataset.lane,
    active: lane.classList.contains("active"),
    current: Array.prototype.map.call(lane.querySelectorAll(".mark.current"), function (mark) {
      var box = mark.getBBox();
      return {frame: mark.dataset.frame, title: mark.querySelector("title").textContent, x: box.x + box.width / 2};
    })
  };
});
return {
  frame: section.dataset.frame,
  slider: section.querySelector(".slider").value,
  now: section.querySelector(".now").textContent,
  panels: panels.map(function (p) { return p.dataset.frame; }),
  items: panels.length !== 1 ? [] : Array.prototype.map.call(panels[0].querySelectorAll("li"), function (li) {
    var depth = /(?:^| )d(\\d)(?: |$)/.exec(li.className);
    return {depth: depth ? Number(depth[1]) : -1, text: li.innerText};
  }),
  quiet: panels.length === 1 && panels[0].querySelector(".quiet") !== null && shown(panels[0].querySelector(".quiet")),
  cursor: cursor ? Number(cursor.getAttribute("x")) + Number(cursor.getAttribute("width")) / 2 : null,
  views: views.map(function (v) { return v.dataset.view; }),
  lanes: lanes
};
"""

_TITLE = re.compile(r"^frame (\d+) \(([^)]*)\): (.*)$", re.S)


def label_key(label: str) -> str:
    """A mark's label for comparison with the legend. An inner marble (`!cold "----(u|)"`) is
    compared by shape only: the tooltip names its values with the inner marble's own letters,
    the legend with the legend's (a known quirk of the lane labels, not of the page)."""
    if label.startswith('!cold "'):
        return re.sub(r"[A-Za-z0-9]", "v", label)
    return label


def snapshot(driver, scenario: Scenario) -> dict:
    return driver.execute_script(SNAPSHOT, scenario.index)


def section(driver, scenario: Scenario):
    return driver.find_elements(By.CSS_SELECTOR, "section.scenario")[scenario.index]


_WHAT = re.compile(r" (?=next |set |current |completed|error |dropped |execute)")


def trace_event_names(scenario: Scenario, frame: int) -> set[str]:
    """The nodes that receive an event at `frame`, by the trace: a line's name is everything
    before what happened (`query › debounce 300ms next "swift"`). A value a step dropped names
    the step's lane."""
    names = set()
    for delivery in scenario.trace.deliveries(frame):
        if not delivery.is_event():
            continue
        names.add(_WHAT.split(delivery.name_and_what, maxsplit=1)[0])
    return names


def check_frame(driver, scenario: Scenario, frame: int, where: str = "") -> None:
    """The section of `scenario` shows `frame` and nothing else."""
    state = snapshot(driver, scenario)
    context = f"scenario {scenario.index}, frame {frame}{where}"
    assert state["frame"] == str(frame), f"{context}: the page is at frame {state['frame']}"
    assert state["slider"] == str(frame), f"{context}: the slider is at {state['slider']}"
    header = scenario.trace.headers.get(frame)
    if header:
        assert state["now"] == header, f"{context}: shows {state['now']!r}, the trace says {header!r}"
    else:
        assert re.fullmatch(rf"frame {frame} \(.+\)", state["now"]), f"{context}: shows {state['now']!r}"

    # The deliveries listed beside the lanes are the trace's lines of that frame.
    assert state["panels"] == [str(frame)], f"{context}: visible delivery panels {state['panels']}"
    expected = [(d.depth, d.text) for d in scenario.trace.deliveries(frame)]
    listed = [(min(item["depth"], 8), squash(item["text"])) for item in state["items"]]
    assert listed == [(min(depth, 8), text) for depth, text in expected], (
        f"{context}: listed deliveries differ from `flowrun trace`:\n  page:  {listed}\n  trace: {expected}")
    assert state["quiet"] == (not expected), f"{context}: 'Nothing happens' shown = {state['quiet']}"

    # The highlighted marks are exactly the events of that frame, lane by lane.
    lanes = state["lanes"]
    rows = scenario.diagram.lanes
    assert len(lanes) == len(rows), f"{context}: {len(lanes)} lanes drawn, the text diagram has {len(rows)}"
    assert len(state["views"]) == 1, f"{context}: {len(state['views'])} drawings shown"
    for lane, row in zip(lanes, rows):
        if not row.name.startswith("↳"):  # a nested lane is named by what it is, linked by its parent's node
            assert row.name.replace(" #", "#").startswith(lane["name"]), f"lane {lane['name']!r} is row {row.name!r}"
        symbols = row.events(frame)
        current = lane["current"]
        assert len(current) == len(symbols), (
            f"{context}: lane {row.name!r} highlights {len(current)} marks {[m['title'] for m in current]}, "
            f"the text diagram shows {row.tokens[frame]!r}")
        labels = Counter()
        for mark in current:
            match = _TITLE.match(mark["title"])
            assert match and int(match.group(1)) == frame == int(mark["frame"]), f"{context}: mark {mark}"
            labels[label_key(match.group(3))] += 1
        wanted = Counter(label_key(scenario.diagram.legend[s]) for s in symbols if s in scenario.diagram.legend)
        assert not (wanted - labels), f"{context}: lane {row.name!r} highlights {dict(labels)}, expected {dict(wanted)}"
        for mark in current:
            assert abs(mark["x"] - state["cursor"]) <= 12, (
                f"{context}: the frame cursor (x {state['cursor']}) is not over mark {mark['title']!r} (x {mark['x']})")

    # The lanes highlighted are those with an event in the frame or reached by its deliveries.
    reached = trace_event_names(scenario, frame)
    expected_active = [row.name for lane, row in zip(lanes, rows) if row.events(frame) or lane["name"] in reached]
    active = [row.name for lane, row in zip(lanes, rows) if lane["active"]]
    assert active == expected_active, f"{context}: active lanes {active}, expected {expected_active}"


def button(driver, scenario: Scenario, step: str):
    return section(driver, scenario).find_element(By.CSS_SELECTOR, f'button[data-step="{step}"]')


def slider(driver, scenario: Scenario):
    return section(driver, scenario).find_element(By.CSS_SELECTOR, "input.slider")


def frame_of(driver, scenario: Scenario) -> int:
    return int(snapshot(driver, scenario)["frame"])


# MARK: - Tests


def test_loads_with_no_network_and_no_errors(flow, visit):
    url = flow.page.as_uri()
    page = visit(url)
    assert page.requests == [url], f"the page made requests besides its own document: {page.requests}"
    assert page.resources == [], f"resources loaded: {page.resources}"
    assert page.errors() == [], "JavaScript errors on load"
    # A page that several libraries draw differently holds one drawing per library (the file's
    # own shown first, the others hidden behind the library switch).
    sections = [s for s in page.driver.find_elements(By.CSS_SELECTOR, "section.scenario") if s.is_displayed()]
    assert len(sections) == len(flow.scenarios), "one section per scenario of the file"
    for scenario in flow.scenarios:
        check_frame(page.driver, scenario, 0, " (on load)")


def test_step_buttons_walk_the_busy_frames(flow, visit):
    page = visit(flow.page.as_uri())
    driver = page.driver
    for scenario in flow.scenarios:
        busy = scenario.busy()
        visited = []
        for _ in range(len(busy) + 1):
            button(driver, scenario, "next").click()
            frame = frame_of(driver, scenario)
            if visited and visited[-1] == frame:
                break
            visited.append(frame)
            check_frame(driver, scenario, frame, " (after ▶)")
        assert visited == [f for f in busy if f > 0], f"▶ visited {visited}, the busy frames are {busy}"
        back = []
        for _ in range(len(busy) + 1):
            button(driver, scenario, "prev").click()
            frame = frame_of(driver, scenario)
            if back and back[-1] == frame:
                break
            back.append(frame)
            check_frame(driver, scenario, frame, " (after ◀)")
        assert back == [f for f in reversed(busy) if f < visited[-1]], f"◀ visited {back}"
        button(driver, scenario, "last").click()
        check_frame(driver, scenario, scenario.last, " (after »)")
        button(driver, scenario, "first").click()
        check_frame(driver, scenario, 0, " (after «)")
    assert page.errors() == []


def test_slider_follows_the_mouse(flow, visit):
    page = visit(flow.page.as_uri())
    driver = page.driver
    for scenario in flow.scenarios:
        element = slider(driver, scenario)
        width = element.size["width"]
        thumb = 16  # Chromium's range thumb; its centre runs from thumb/2 to width - thumb/2
        targets = sorted({scenario.last, scenario.last // 2, 1, scenario.busy()[len(scenario.busy()) // 2], 0})
        for target in targets:
            x = thumb / 2 + (width - thumb) * target / scenario.last
            ActionChains(driver).move_to_element_with_offset(element, int(round(x - width / 2)), 0).click().perform()
            check_frame(driver, scenario, target, " (slider clicked)")
        # Drag the thumb from the end back to the start.
        ActionChains(driver).move_to_element_with_offset(element, width // 2 - thumb // 2, 0).click_and_hold() \
            .move_by_offset(-(width - thumb), 0).release().perform()
        check_frame(driver, scenario, 0, " (slider dragged)")
    assert page.errors() == []


def test_keyboard_moves_the_frame(flow, visit):
    page = visit(flow.page.as_uri())
    driver = page.driver
    for scenario in flow.scenarios:
        element = slider(driver, scenario)
        # Arrow keys on the slider: one frame at a time, through every frame.
        for frame in range(1, scenario.last + 1):
            element.send_keys(Keys.ARROW_RIGHT)
            check_frame(driver, scenario, frame, " (→ on the slider)")
        element.send_keys(Keys.ARROW_RIGHT)
        check_frame(driver, scenario, scenario.last, " (→ on the slider at the end)")
        element.send_keys(Keys.ARROW_LEFT)
        check_frame(driver, scenario, scenario.last - 1, " (← on the slider)")
        element.send_keys(Keys.HOME)
        check_frame(driver, scenario, 0, " (Home on the slider)")
        element.send_keys(Keys.END)
        check_frame(driver, scenario, scenario.last, " (End on the slider)")
        element.send_keys(Keys.HOME)
        # Arrow keys elsewhere in the section (a focused step button): busy frame to busy frame.
        busy = scenario.busy()
        first = button(driver, scenario, "first")
        first.send_keys(Keys.ARROW_RIGHT)
        check_frame(driver, scenario, busy[1] if len(busy) > 1 else 0, " (→ on a button)")
        first.send_keys(Keys.ARROW_LEFT)
        check_frame(driver, scenario, 0, " (← on a button)")
    assert page.errors() == []


def test_sections_move_independently(visit, run_flowrun, artifacts):
    path = "scenarios/login/command.yaml"
    page_file = artifacts / "login-command-sections.html"
    run_flowrun("diagram", path, "--format", "html", "-o", str(page_file))
    flow = Flow(path, page_file, [
        Scenario(i, parse_trace(t), parse_text_diagram(d)) for i, (t, d) in enumerate(zip(
            split_scenarios(run_flowrun("trace", path), path),
            split_scenarios(run_flowrun("diagram", path, "--format", "text"), path)))])
    assert len(flow.scenarios) == 2
    page = visit(flow.page.as_uri())
    first, second = flow.scenarios[:2]
    button(page.driver, second, "last").click()
    check_frame(page.driver, second, second.last)
    check_frame(page.driver, first, 0, " (untouched while the other section moved)")


def test_screenshot_of_a_mid_run_frame(flow, visit, artifacts):
    page = visit(flow.page.as_uri())
    driver = page.driver
    scenario = flow.scenarios[0]
    busy = scenario.busy()
    middle = busy[len(busy) // 2]
    element = slider(driver, scenario)
    element.send_keys(Keys.HOME)
    for _ in range(middle):
        element.send_keys(Keys.ARROW_RIGHT)
    check_frame(driver, scenario, middle)
    driver.execute_script("document.querySelector('section.scenario').scrollIntoView()")
    png = artifacts / (flow.page.stem + f"-frame{middle}.png")
    height = driver.execute_script("return document.body.scrollHeight")
    driver.set_window_size(1400, min(max(height + 40, 800), 4000))
    try:
        assert section(driver, scenario).screenshot(str(png))
    finally:
        driver.set_window_size(1400, 1000)
    assert png.stat().st_size > 20_000, f"{png} looks blank"
    print(f"screenshot: {png}")


# Draws each character in the font its element uses and compares it with a character no font
# has (a private-use code point): the same pixels mean the character would show as a box.
MISSING_GLYPHS = """
var probe = arguments[0] || null;
var canvas = document.createElement("canvas");
canvas.width = 48; canvas.height = 48;
var context = canvas.getContext("2d", {willReadFrequently: true});
function pixels(text, font) {
  context.clearRect(0, 0, 48, 48);
  context.font = "32px " + font;
  context.fillStyle = "#000";
  context.fillText(text, 4, 36);
  return Array.prototype.join.call(context.getImageData(0, 0, 48, 48).data, ",");
}
var seen = {};
var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
var pairs = [];
for (var node = walker.nextNode(); node; node = walker.nextNode()) {
  var parent = node.parentElement;
  if (!parent || parent.closest("script, style")) { continue; }
  var font = getComputedStyle(parent).fontFamily;
  Array.from(node.textContent + (probe || "")).forEach(function (ch) {
    if (ch.charCodeAt(0) < 128 || /\\s/.test(ch)) { return; }
    var key = ch + "\\u0000" + font;
    if (!seen[key]) { seen[key] = true; pairs.push([ch, font]); }
  });
}
var missing = [];
pairs.forEach(function (pair) {
  if (pixels(pair[0], pair[1]) === pixels("\\uE000", pair[1])) { missing.push(pair[0] + " in " + pair[1]); }
});
return {checked: pairs.length, missing: missing};
"""


def test_every_character_has_a_glyph(flow, visit):
    page = visit(flow.page.as_uri())
    result = page.driver.execute_script(MISSING_GLYPHS)
    assert result["checked"] > 0
    assert result["missing"] == [], (
        f"characters drawn as boxes (no font has them): {''.join(sorted({m.split(' in ')[0] for m in result['missing']}))} "
        f"({len(result['missing'])} character/font pairs); "
        "install the fonts: apt-get install -y fonts-dejavu-core fonts-wqy-zenhei")


# MARK: - The detectors catch what they are meant to catch


def test_detectors_see_requests_and_errors(visit, artifacts):
    bad = artifacts / "detector-check.html"
    bad.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>bad</title>"
        "<link rel='stylesheet' href='http://127.0.0.1:9/style.css'></head><body>"
        "<p>A private-use character:</p><img src='http://127.0.0.1:9/logo.png'>"
        "<script>console.error('logged'); undefinedFunction();</script></body></html>")
    page = visit(bad.as_uri())
    assert any("127.0.0.1:9/style.css" in url for url in page.requests), page.requests
    assert any("127.0.0.1:9/logo.png" in url for url in page.requests), page.requests
    errors = page.errors()
    assert any("undefinedFunction" in e for e in errors), errors
    assert any("logged" in e for e in errors), errors
    glyphs = page.driver.execute_script(MISSING_GLYPHS, "\U0010FFFD")
    assert glyphs["missing"], "the glyph check does not see a private-use character as missing"


def test_every_step_checkbox_switches_the_drawing(visit, run_flowrun, artifacts):
    """A page drawn without --steps has both drawings: the checkbox shows every step's lane (the
    frame stays), and the lanes and deliveries then agree with `diagram --steps` and
    `trace --steps`."""
    path = "scenarios/search/search-as-you-type.yaml"
    page_file = artifacts / "search-as-you-type-plain.html"
    run_flowrun("diagram", path, "--format", "html", "-o", str(page_file))
    def scenario(*flags):
        trace = split_scenarios(run_flowrun("trace", path, *flags), path)[0]
        diagram = split_scenarios(run_flowrun("diagram", path, "--format", "text", *flags), path)[0]
        return Scenario(0, parse_trace(trace), parse_text_diagram(diagram))
    plain, stepped = scenario(), scenario("--steps")
    page = visit(page_file.as_uri())
    driver = page.driver
    toggle = section(driver, plain).find_element(By.CSS_SELECTOR, "input.steps")
    assert not toggle.is_selected()
    button(driver, plain, "next").click()
    frame = frame_of(driver, plain)
    check_frame(driver, plain, frame, " (nodes only)")
    toggle.click()
    check_frame(driver, stepped, frame, " (every step)")
    # The drop of the repeated query is a stop of ▶ with every step drawn.
    for _ in range(20):
        if frame_of(driver, stepped) >= 12:
            break
        button(driver, stepped, "next").click()
    check_frame(driver, stepped, 12, " (distinctUntilChanged dropped \"swift\")")
    items = snapshot(driver, stepped)["items"]
    assert any('dropped "swift" (same as before)' in item["text"] for item in items), items
    toggle.click()
    check_frame(driver, plain, 12, " (back to the nodes)")
    assert page.errors() == []
