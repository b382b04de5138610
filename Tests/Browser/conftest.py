"""Fixtures of the browser tests: the built flowrun, a headless Chromium driven by chromedriver
(Selenium), and a directory for the pages and screenshots.

Needs (Debian/Ubuntu):
    apt-get install -y chromium chromium-driver fonts-dejavu-core fonts-wqy-zenhei
    python3 -m pip install selenium pytest
and a built flowrun (`swift build`), found at $FLOWRUN_BIN or <package>/.build/debug/flowrun.
A missing piece stops the run with these lines: nothing is skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2]
APT_LINE = "apt-get install -y chromium chromium-driver fonts-dejavu-core fonts-wqy-zenhei"
PIP_LINE = "python3 -m pip install selenium pytest"

# Installed before any script of the page runs: records uncaught errors, unhandled promise
# rejections and console.error calls, in case the driver's browser log misses one.
ERROR_RECORDER = """
window.__flowrunErrors = [];
window.addEventListener("error", function (e) {
  window.__flowrunErrors.push("error: " + (e.message || (e.target && (e.target.src || e.target.href)) || e));
}, true);
window.addEventListener("unhandledrejection", function (e) {
  window.__flowrunErrors.push("unhandled rejection: " + e.reason);
});
(function () {
  var original = console.error;
  console.error = function () {
    window.__flowrunErrors.push("console.error: " + Array.prototype.join.call(arguments, " "));
    return original.apply(console, arguments);
  };
})();
"""


def _find(names: list[str], env: str) -> str | None:
    if os.environ.get(env):
        return os.environ[env]
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def _missing() -> list[str]:
    problems = []
    try:
        import selenium  # noqa: F401
    except ImportError:
        problems.append(f"the Python package selenium is missing: {PIP_LINE}")
    if not _find(["chromium", "chromium-browser", "google-chrome"], "CHROMIUM"):
        problems.append(f"chromium is missing: {APT_LINE}")
    if not _find(["chromedriver"], "CHROMEDRIVER"):
        problems.append(f"chromedriver is missing (Debian package chromium-driver): {APT_LINE}")
    return problems


def pytest_configure(config):
    problems = _missing()
    if problems:
        pytest.exit("browser tests cannot run:\n  " + "\n  ".join(problems), returncode=3)


@pytest.fixture(scope="session")
def flowrun() -> Path:
    binary = Path(os.environ.get("FLOWRUN_BIN") or PACKAGE / ".build/debug/flowrun")
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no flowrun executable at {binary}: run `swift build` or set FLOWRUN_BIN", pytrace=False)
    return binary


@pytest.fixture(scope="session")
def run_flowrun(flowrun):
    def run(*arguments: str) -> str:
        done = subprocess.run(
            [str(flowrun), *arguments], cwd=PACKAGE, capture_output=True, text=True,
            env={k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "CI", "GITHUB_ACTIONS", "FORCE_COLOR")},
        )
        assert done.returncode == 0, f"flowrun {' '.join(arguments)} exited {done.returncode}:\n{done.stderr}"
        return done.stdout
    return run


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Pages and screenshots, kept after the run: $FLOWRUN_BROWSER_ARTIFACTS or .build/browser."""
    directory = Path(os.environ.get("FLOWRUN_BROWSER_ARTIFACTS") or PACKAGE / ".build/browser")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.fixture(scope="session")
def driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _find(["chromium", "chromium-browser", "google-chrome"], "CHROMIUM")
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update",
                     "--disable-default-apps", "--disable-sync", "--lang=en-US"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
    service = Service(executable_path=_find(["chromedriver"], "CHROMEDRIVER"))
    browser = webdriver.Chrome(options=options, service=service)
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ERROR_RECORDER})
    yield browser
    browser.quit()


class Visit:
    """One page load: the URLs the page asked for and the errors it reported."""

    def __init__(self, driver, url: str):
        driver.get_log("performance")  # drain what earlier pages left
        driver.get_log("browser")
        driver.get(url)
        driver.execute_script("return document.readyState")
        self.requests: list[str] = []
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                self.requests.append(message["params"]["request"]["url"])
            elif message["method"] == "Network.webSocketCreated":
                self.requests.append(message["params"]["url"])
        self.resources = driver.execute_script(
            "return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
        self.driver = driver

    def errors(self) -> list[str]:
        logged = [f"{e['level']}: {e['message']}" for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        recorded = self.driver.execute_script("return window.__flowrunErrors || ['error recorder not installed']")
        return logged + list(recorded)


@pytest.fixture
def visit(driver):
    return lambda url: Visit(driver, url)
