"""`flowrun playground FILE` in a real headless Chromium.

The server runs on 127.0.0.1 with a free port (`--port 0`) on a copy of the login flow. Typing a
change to a marble redraws the diagram and the diffs; a broken edit marks the diagnostic at its
line; Save writes the file atomically and refuses when the file changed on disk; the page asks
nothing of any other machine. The update latency (keystroke to redrawn diagram) is measured and
written to the artifacts (playground-latency.json).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PACKAGE

LOGIN = PACKAGE / "scenarios/login/enable-button.yaml"


class Playground:
    def __init__(self, flowrun: Path, file: Path, port: int = 0):
        self.file = file
        self.process = subprocess.Popen(
            [str(flowrun), "playground", str(file), "--port", str(port)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=file.parent)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise AssertionError(f"the playground did not start: {line!r} {self.process.stderr.read()!r}")
        self.url = match.group(0)
        self.port = int(match.group(1))

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=HANG_GUARD)


@pytest.fixture
def playground(flowrun, tmp_path):
    file = tmp_path / "enable-button.yaml"
    shutil.copy(LOGIN, file)
    server = Playground(flowrun, file)
    yield server
    server.stop()


# Seconds to wait for the page before giving up: a guard against a page that never redraws, not
# a measure (a redraw comes well under a second after typing stops).
HANG_GUARD = 60.0


def renders(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.renders || '0'"))


def drawn_since(driver, before: int) -> bool:
    """The page has redrawn since `before` redraws, from the text now in the editor (a slow
    typist, or a busy machine, may get a redraw of the text half typed first)."""
    return renders(driver) > before and driver.execute_script(
        "return window.flowrunPlayground.text === document.getElementById('source').value")


def wait_for(driver, condition, timeout: float = HANG_GUARD, what: str = "the page"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what}")


def source(driver):
    return driver.find_element(By.ID, "source")


def select(driver, start: int, end: int) -> None:
    driver.execute_script("var s = document.getElementById('source'); s.focus(); s.setSelectionRange(arguments[0], arguments[1]);",
                          start, end)


def type_at(driver, text_before: str, old: str, new: str) -> float:
    """Selects the first `old` after `text_before` in the editor and types `new` over it; returns
    the time of the last keystroke."""
    value = source(driver).get_attribute("value")
    start = value.index(old, value.index(text_before))
    select(driver, start, start + len(old))
    source(driver).send_keys(new)
    return time.perf_counter()


def lane_titles(driver, lane: str) -> list[str]:
    return driver.execute_script("""
      var view = Array.prototype.filter.call(document.querySelectorAll("#diagram .view"), function (v) { return !v.hidden; })[0];
      var lane = view.querySelector('g.lane[data-lane="' + arguments[0] + '"]');
      return lane ? Array.prototype.map.call(lane.querySelectorAll(".mark title"), function (t) { return t.textContent; }) : null;
    """, lane)


def outside_requests(driver, origin: str) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
        elif message["method"] == "Network.webSocketCreated":
            urls.append(message["params"]["url"])
    return [url for url in urls if not (url.startswith(origin) or url.startswith("data:"))]


def test_page_loads_from_the_local_server_only(playground, visit):
    page = visit(playground.url)
    assert page.errors() == []
    assert all(url.startswith(playground.url) or url.startswith("data:") for url in page.requests), page.requests
    driver = page.driver
    assert source(driver).get_attribute("value") == LOGIN.read_text()
    assert renders(driver) == 1
    assert driver.execute_script("return document.body.dataset.status") == "passed"
    lines = len(LOGIN.read_text().split("\n"))
    assert len(driver.find_elements(By.CSS_SELECTOR, "#gutter .ln")) == lines
    # The diagram has the HTML page's controls.
    for control in ("input.slider", 'button[data-step="next"]', "input.steps"):
        assert driver.find_elements(By.CSS_SELECTOR, f"#diagram section.scenario {control}"), control


def test_typing_a_marble_change_redraws_the_diagram(playground, visit, artifacts):
    page = visit(playground.url)
    driver = page.driver
    assert any('"1"' in title for title in lane_titles(driver, "accountText"))
    before = renders(driver)
    typed = type_at(driver, "accountText:", "-a---b-b--", "-b---b-b--")
    wait_for(driver, lambda: drawn_since(driver, before), what="a redraw after typing")
    redrawn = time.perf_counter()
    titles = lane_titles(driver, "accountText")
    assert titles[0].startswith("frame 1 ") and titles[0].endswith(': "123"'), titles
    # The icon URL now follows "123": its expectation fails, and the diff says so.
    assert driver.execute_script("return document.body.dataset.status") == "failed"
    report = driver.find_element(By.ID, "report").text
    assert "expectation 'vm.iconUrl' failed" in report, report
    assert driver.execute_script("return document.body.dataset.dirty") == "yes"
    assert playground.file.read_text() == LOGIN.read_text(), "an edit stays in the page until saved"
    assert outside_requests(driver, playground.url) == []
    assert page.errors() == []

    # The latency, keystroke to redrawn diagram: as seen from outside (Selenium polling the
    # page) and inside the page (input event to the frame after the redraw), over several edits.
    outside = [(redrawn - typed) * 1000]
    for marble in ["-b---a-b--", "-a---a-b--", "-a---b-a--", "-a---b-b--"]:
        value = source(driver).get_attribute("value")
        start = value.index('"', value.index("accountText:")) + 1
        before = renders(driver)
        select(driver, start, start + len(marble))
        source(driver).send_keys(marble)
        typed = time.perf_counter()
        wait_for(driver, lambda: drawn_since(driver, before), what="a redraw")
        outside.append((time.perf_counter() - typed) * 1000)
    stats = wait_for(driver, lambda: driver.execute_script(
        "var s = window.flowrunPlayground; return s.latencies.length >= 5 ? s : null;"), what="the page's latencies")
    result = {
        "flow": "scenarios/login/enable-button.yaml",
        "debounce_ms": 250,
        "keystroke_to_redrawn_ms_outside": [round(x, 1) for x in outside],
        "keystroke_to_redrawn_ms_in_page": [round(x, 1) for x in stats["latencies"]],
        "server_render_ms": [round(x, 1) for x in stats["serverMilliseconds"]],
    }
    result["median_in_page_ms"] = round(statistics.median(stats["latencies"]), 1)
    result["median_server_ms"] = round(statistics.median(stats["serverMilliseconds"][1:]), 1)
    (artifacts / "playground-latency.json").write_text(json.dumps(result, indent=2) + "\n")
    print("playground latency:", json.dumps(result))
    assert driver.execute_script("return document.body.dataset.status") == "passed"
    # Typing is debounced: the redraw comes after the pause, not at each key.
    assert all(latency >= 250 for latency in stats["latencies"]), stats["latencies"]


def test_a_broken_edit_shows_the_diagnostic_at_its_line(playground, visit):
    page = visit(playground.url)
    driver = page.driver
    text = LOGIN.read_text()
    line = text[: text.index("accountText:")].count("\n") + 1
    before = renders(driver)
    type_at(driver, "accountText:", "-a---b-b--", "-a---(b-b--")
    wait_for(driver, lambda: drawn_since(driver, before), what="a redraw after a broken edit")
    assert driver.execute_script("return document.body.dataset.status") == "error"
    marked = driver.find_element(By.CSS_SELECTOR, f'#gutter .ln[data-line="{line}"]')
    assert "error" in marked.get_attribute("class").split(), marked.get_attribute("class")
    assert "(" in marked.get_attribute("title") or "group" in marked.get_attribute("title"), marked.get_attribute("title")
    marked_lines = [element.get_attribute("data-line") for element in driver.find_elements(By.CSS_SELECTOR, "#gutter .ln.error")]
    assert marked_lines[0] == str(line), marked_lines
    problem = driver.find_element(By.CSS_SELECTOR, "#problems .problem.error")
    assert "unclosed group in marble" in problem.text, problem.text
    assert problem.text.startswith(f"{playground.file}:{line}:"), problem.text
    # Clicking the diagnostic puts the caret on its line.
    problem.click()
    caret = driver.execute_script("var s = document.getElementById('source'); return s.value.slice(0, s.selectionStart).split('\\n').length;")
    assert caret == line
    # Fixing the edit clears the mark.
    before = renders(driver)
    type_at(driver, "accountText:", "-a---(b-b--", "-a---b-b--")
    wait_for(driver, lambda: drawn_since(driver, before), what="a redraw after the fix")
    assert driver.find_elements(By.CSS_SELECTOR, "#gutter .ln.error") == []
    assert driver.execute_script("return document.body.dataset.status") == "passed"
    assert page.errors() == []


TWO_DOCUMENTS = """\
flowrun: 1
name: first document
signals:
  a: { hot: "-x-" }
expect:
  a: "-x-"
---
flowrun: 1
name: second document
signals:
  b: { hot: "-y-" }
expect:
  b: "-y-"
"""


def test_a_broken_document_keeps_its_last_diagram(flowrun, tmp_path, visit):
    file = tmp_path / "two.yaml"
    file.write_text(TWO_DOCUMENTS)
    server = Playground(flowrun, file)
    try:
        page = visit(server.url)
        driver = page.driver
        titles = lambda: driver.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('#diagram section.scenario'),"
            " function (s) { return s.querySelector('h2').textContent + (s.classList.contains('stale') ? ' (stale)' : ''); });")
        wait_for(driver, lambda: titles() == ["first document", "second document"], what="both diagrams")
        # Breaking the second document keeps its diagram, faded, after the first one's.
        before = renders(driver)
        type_at(driver, "b:", '"-y-"', '"-y-("')
        wait_for(driver, lambda: renders(driver) > before, what="a redraw after a broken edit")
        assert driver.execute_script("return document.body.dataset.status") == "error"
        assert titles() == ["first document", "second document (stale)"]
        # Breaking the first one instead: its diagram stays before the second's.
        before = renders(driver)
        type_at(driver, "b:", '"-y-("', '"-y-"')
        wait_for(driver, lambda: renders(driver) > before, what="a redraw after the fix")
        assert titles() == ["first document", "second document"]
        before = renders(driver)
        type_at(driver, "a:", '"-x-"', '"-x-("')
        wait_for(driver, lambda: renders(driver) > before, what="a redraw after a broken edit")
        assert titles() == ["first document (stale)", "second document"]
        assert page.errors() == []
    finally:
        server.stop()


def test_save_writes_the_file_atomically(playground, visit):
    page = visit(playground.url)
    driver = page.driver
    before = renders(driver)
    type_at(driver, "accountText:", "-a---b-b--", "-a---b-b-b")
    wait_for(driver, lambda: drawn_since(driver, before), what="a redraw")
    saves = lambda: int(driver.execute_script("return document.body.dataset.saves || '0'"))
    driver.find_element(By.ID, "save").click()
    wait_for(driver, lambda: saves() == 1, what="the save")
    expected = source(driver).get_attribute("value")
    assert playground.file.read_text() == expected
    assert "-a---b-b-b" in expected
    assert driver.find_element(By.ID, "state").text == "saved"
    assert sorted(os.listdir(playground.file.parent)) == [playground.file.name], "no temporary file is left"
    # Ctrl-S saves too.
    type_at(driver, "passwordText:", "---b------", "---b-----b")
    source(driver).send_keys(Keys.CONTROL, "s")
    wait_for(driver, lambda: saves() == 2, what="the Ctrl-S save")
    assert "---b-----b" in playground.file.read_text()
    assert outside_requests(driver, playground.url) == []


def test_save_refuses_when_the_file_changed_on_disk(playground, visit):
    page = visit(playground.url)
    driver = page.driver
    elsewhere = LOGIN.read_text().replace("tick: 100ms", "tick: 200ms")
    playground.file.write_text(elsewhere)
    type_at(driver, "accountText:", "-a---b-b--", "-a---b----")
    driver.find_element(By.ID, "save").click()
    wait_for(driver, lambda: driver.execute_script("return document.body.dataset.saves") == "1", what="the refusal")
    state = driver.find_element(By.ID, "state")
    assert "changed on disk" in state.text and "refused" in state.get_attribute("class")
    assert playground.file.read_text() == elsewhere, "the file changed elsewhere is kept"
    assert "-a---b----" in source(driver).get_attribute("value"), "the edits stay in the page"


def test_a_taken_port_is_reported(playground, flowrun):
    done = subprocess.run([str(flowrun), "playground", str(playground.file), "--port", str(playground.port)],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert f"port {playground.port} on 127.0.0.1 is already in use" in done.stderr, done.stderr
    assert "--port" in done.stderr


def test_screenshot_of_the_playground(playground, visit, artifacts):
    page = visit(playground.url)
    driver = page.driver
    driver.set_window_size(1500, 950)
    try:
        driver.find_element(By.CSS_SELECTOR, "#diagram input.steps").click()
        driver.find_element(By.CSS_SELECTOR, '#diagram button[data-step="next"]').click()
        driver.find_element(By.CSS_SELECTOR, '#diagram button[data-step="next"]').click()
        png = artifacts / "playground.png"
        assert driver.save_screenshot(str(png))
        assert png.stat().st_size > 50_000, f"{png} looks blank"
        print(f"screenshot: {png}")
    finally:
        driver.set_window_size(1400, 1000)
