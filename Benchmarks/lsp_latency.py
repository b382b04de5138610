#!/usr/bin/env python3
"""Latency of `flowrun lsp` on a 2,000-line scenario: hover and completion, answered over
JSON-RPC on the server's standard input and output as an editor sees them.

    swift build -c release && python3 Benchmarks/lsp_latency.py [--flowrun .build/release/flowrun] [--lines 2000]

It writes a scenario of about `--lines` lines (chains of named signals with marbles, properties
and expectations), opens it, waits for its diagnostics, then times (wall clock, request sent to
answer read):

- hover on a marble character, on an operator key and on a name (the first of them after the
  text changed, so it includes reading it);
- completion of an operator and of a signal name right after an edit (`didChange`), which
  includes reading the new text;
- completion while the edited line is not YAML yet (the text is read again without it).

It prints the median and the worst of each, in milliseconds, and exits 1 when a worst case is
at or above --budget (default 50 ms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def scenario(lines: int) -> str:
    out = ["flowrun: 1", "name: Two thousand lines", "tick: 10ms",
           "values: { a: 1, b: 2, c: 3, t: true, f: false }", "signals:"]
    groups = max(1, (lines - 8) // 12)  # 12 lines per group
    for g in range(groups):
        out += [
            f"  input{g}: {{ hot: \"-a--b--c--a--b--c--a--b--c--|\" }}",
            f"  doubled{g}:",
            f"    - from: input{g}",
            f"    - map: '$0 * 2'",
            f"    - filter: '$0 > 1'",
            f"    - distinctUntilChanged",
            f"  delayed{g}:",
            f"    - from: doubled{g}",
            f"    - debounce: 20ms",
            f"    - takeUntil: input{(g + 1) % groups}",
        ]
    out.append("properties:")
    out += [f"  vm.value{g}: delayed{g}" for g in range(groups)]
    out.append("expect:")
    out += [f"  input{g}: \"-a--b--c--a--b--c--a--b--c--|\"" for g in range(groups)]
    return "\n".join(out) + "\n"


class Client:
    def __init__(self, flowrun: str):
        self.process = subprocess.Popen([flowrun, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict:
        length = 0
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("the server closed its output")
            line = line.decode().strip()
            if not line:
                break
            name, value = line.split(":", 1)
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, method: str, params) -> tuple[dict, float]:
        self.next_id += 1
        started = time.perf_counter()
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id:
                return message, (time.perf_counter() - started) * 1000

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, method: str) -> dict:
        while True:
            message = self.receive()
            if message.get("method") == method:
                return message


def position(text: str, needle: str, offset: int, occurrence: int) -> dict:
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    index += offset
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flowrun", default=str(ROOT / ".build/release/flowrun"))
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--budget", type=float, default=50.0)
    arguments = parser.parse_args()

    text = scenario(arguments.lines)
    uri = "file:///tmp/flowrun-lsp-benchmark.yaml"
    client = Client(arguments.flowrun)
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    client.notify("initialized", {})
    started = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    diagnostics = client.wait_for("textDocument/publishDiagnostics")["params"]["diagnostics"]
    opened = (time.perf_counter() - started) * 1000
    if diagnostics:
        raise SystemExit(f"the benchmark scenario does not load: {diagnostics[0]['message']}")
    groups = text.count(": { hot:")

    timings: dict[str, list[float]] = {}

    def timed(name: str, method: str, where: dict) -> dict:
        answer, ms = client.request(method, {"textDocument": {"uri": uri}, "position": where})
        if not answer.get("result"):
            raise SystemExit(f"{name}: no answer at {where}")
        timings.setdefault(name, []).append(ms)
        return answer

    version = 1
    for round_ in range(arguments.repeat):
        g = (round_ * 37) % groups
        # Back to the whole scenario: the first hover reads it again.
        version += 1
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})
        timed("hover: marble character", "textDocument/hover", position(text, 'hot: "-a--b', 10, g))
        timed("hover: operator key", "textDocument/hover", position(text, "- debounce", 4, g))
        timed("hover: name", "textDocument/hover", position(text, "- from: input", 10, g))

        # An edit, then completion at once: the server reads the new text first.
        version += 1
        line = position(text, "    - takeUntil", 0, g)["line"]
        edited = text.split("\n")
        edited[line] = "    - ta"
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": "\n".join(edited)}]})
        timed("completion: operator after an edit", "textDocument/completion", {"line": line, "character": 8})

        version += 1
        edited[line] = "    - takeUntil: inp"
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": "\n".join(edited)}]})
        timed("completion: signal name after an edit", "textDocument/completion", {"line": line, "character": 20})

        # A key being typed is not YAML until its colon: the text is read again without it.
        version += 1
        edited[line] = "    - takeUntil: input0"
        edited.insert(line, "  partial")
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": "\n".join(edited)}]})
        timed("completion: line not YAML yet", "textDocument/completion", {"line": line, "character": 9})

    client.request("shutdown", None)
    client.notify("exit", None)
    client.process.wait()

    print(f"# flowrun lsp on {text.count(chr(10))} lines ({len(text.encode())} bytes), {arguments.repeat} rounds")
    print(f"open to first diagnostics: {opened:.1f} ms")
    print(f"{'request':40} {'median ms':>10} {'worst ms':>10}")
    worst = 0.0
    for name, values in timings.items():
        worst = max(worst, max(values))
        print(f"{name:40} {statistics.median(values):10.2f} {max(values):10.2f}")
    if worst >= arguments.budget:
        print(f"over budget: {worst:.1f} ms >= {arguments.budget} ms", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
