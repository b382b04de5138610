#!/usr/bin/env python3
"""Takes the screenshots of `flowrun playground` shown in the README (docs/playground*.png) with
headless Chromium. Usage, after `swift build`: python3 scripts/playground-screenshots.py

Needs chromium, chromium-driver and the Python package selenium (as Tests/Browser does). The
playground edits a copy of the search flow in a temporary directory: nothing is saved.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

PACKAGE = Path(__file__).resolve().parents[1]
FLOWRUN = Path(os.environ.get("FLOWRUN_BIN") or PACKAGE / ".build/debug/flowrun")


def main() -> None:
    directory = Path(tempfile.mkdtemp())
    scenario = directory / "search-as-you-type.yaml"
    shutil.copy(PACKAGE / "scenarios/search/search-as-you-type.yaml", scenario)
    server = subprocess.Popen([str(FLOWRUN), "playground", scenario.name, "--port", "0"],
                              cwd=directory, stdout=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", server.stdout.readline()).group(0)
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                         "--window-size=1800,1000", "--force-device-scale-factor=1"]:
            options.add_argument(argument)
        options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
        driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
        try:
            driver.get(url)
            driver.find_element(By.CSS_SELECTOR, "#diagram input.steps").click()
            driver.execute_script("document.querySelector('#diagram section.scenario').flowrunShow(12);"
                                  "document.querySelector('#diagram .controls').scrollIntoView();")
            driver.save_screenshot(str(PACKAGE / "docs/playground.png"))
            # A broken marble: the diagnostic at its line.
            source = driver.find_element(By.ID, "source")
            value = source.get_attribute("value")
            start = value.index("-abc----dc")
            driver.execute_script("arguments[0].focus(); arguments[0].setSelectionRange(arguments[1], arguments[2]);",
                                  source, start, start + len("-abc"))
            source.send_keys("-ab(c")
            deadline = time.monotonic() + 10
            while driver.execute_script("return document.body.dataset.status") != "error":
                assert time.monotonic() < deadline, "no redraw"
                time.sleep(0.05)
            # The status changes before the diagnostics are painted: let the page finish drawing.
            time.sleep(1.0)
            driver.execute_script("document.querySelector('.output-pane').scrollTop = 0;")
            driver.save_screenshot(str(PACKAGE / "docs/playground-diagnostic.png"))
        finally:
            driver.quit()
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(directory)
    print("wrote docs/playground.png and docs/playground-diagnostic.png", file=sys.stderr)


if __name__ == "__main__":
    main()
