"""The language server of `flowrun lsp`, driven end to end by pytest-lsp's client.

Needs `python3 -m pip install pytest pytest-lsp` (pytest-lsp brings pygls and lsprotocol) and a
built flowrun (`swift build`), found at $FLOWRUN_BIN or <package>/.build/debug/flowrun.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

PACKAGE = Path(__file__).resolve().parents[2]
FLOWRUN = Path(os.environ.get("FLOWRUN_BIN") or PACKAGE / ".build/debug/flowrun")


def pytest_configure(config):
    if not os.access(FLOWRUN, os.X_OK):
        pytest.exit(f"no flowrun executable at {FLOWRUN}: run `swift build` or set FLOWRUN_BIN", returncode=3)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[str(FLOWRUN), "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=pytest_lsp.client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


# A server that waits 3 s after the last change (`--debounce 3000`, 15 times the default): for
# the test that changes are coalesced, whose burst of changes must reach the server within the
# debounce however busy the machine is.
@pytest_lsp.fixture(config=ClientServerConfig(server_command=[str(FLOWRUN), "lsp", "--debounce", "3000"]))
async def patient_client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=pytest_lsp.client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def check(tmp_path):
    """Runs `flowrun check` on a text and returns its diagnostics as (line, column, severity,
    message), 1-based, columns in Unicode scalars, as the command prints them."""

    def run(text: str) -> list[tuple[int, int, str, str]]:
        path = tmp_path / "scenario.yaml"
        path.write_text(text, encoding="utf-8")
        done = subprocess.run(
            [str(FLOWRUN), "check", "--color", "never", str(path)], capture_output=True, text=True,
            env={k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "CI", "GITHUB_ACTIONS")},
        )
        found = []
        prefix = f"{path}:"
        for line in done.stdout.splitlines():
            line = line.strip()
            if not line.startswith(prefix):
                continue
            place, severity, message = line[len(prefix):].split(": ", 2)
            if severity in ("error", "warning"):
                row, column = place.split(":")
                found.append((int(row), int(column), severity, message))
        return found

    return run
