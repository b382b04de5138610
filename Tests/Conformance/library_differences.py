#!/usr/bin/env python3
"""Checks the marble evidence of docs/libraries.md (Tests/FlowrunScenarioTests/Libraries/differences.yaml).

usage: python3 Tests/Conformance/library_differences.py [--flowrun PATH] [--dialects] [--keep DIR] [--id ID]

For every row it writes scenario files and runs flowrun on them:
- `<id>.default.yaml`: the row's scenario without `library:` (with `default_signals` replacing
  signals where given), expecting the row's `default` marbles;
- `<id>.equivalent.yaml`: the scenario with `equivalent_signals`, in the default catalogue,
  expecting the library's marbles (a spelling today's flowrun already runs with that meaning);
- with --dialects, `<id>.<library>.yaml`: the scenario with `library: <library>`, expecting the
  library's marbles, or, for a `load_error` row, a load error whose message names the key.

Prints one line per file that does not agree and `library-differences: N passed, N failed`.
Exits 0 when every file agrees, 1 otherwise, 2 when the table or flowrun cannot be read.
Needs PyYAML (`python3 -m pip install pyyaml`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "Tests", "FlowrunScenarioTests", "Libraries", "differences.yaml")

try:
    import yaml
except ImportError:  # pragma: no cover - reported to the user
    print("library_differences: PyYAML is missing: python3 -m pip install pyyaml", file=sys.stderr)
    sys.exit(2)


TAG_MARK = "\u2063flowrun-tag:"


class TableLoader(yaml.SafeLoader):
    """PyYAML's safe loader that keeps flowrun's `!cold` and `!hot` legend values (signal values)."""


def _tagged(tag: str):
    def construct(loader: yaml.SafeLoader, node: yaml.Node) -> str:
        return TAG_MARK + tag + ":" + loader.construct_scalar(node)

    return construct


for _tag in ("cold", "hot"):
    TableLoader.add_constructor("!" + _tag, _tagged(_tag))


def _restore_tags(text: str) -> str:
    """JSON strings holding a tagged value become `!cold "…"` / `!hot "…"` again (JSON is YAML)."""
    pattern = re.compile(r'"%s(cold|hot):((?:[^"\\]|\\.)*)"' % re.escape(json.dumps(TAG_MARK)[1:-1]))
    return pattern.sub(lambda m: "!%s \"%s\"" % (m.group(1), m.group(2)), text)


def scenario_text(row: dict, name: str, signals: dict | None, expect: dict, library: str | None) -> str:
    """A whole scenario file (JSON is YAML) for one column of a row."""
    body: dict[str, Any] = {"flowrun": 1, "name": name}
    if library:
        body["library"] = library
    scenario = dict(row.get("scenario") or {})
    if signals:
        merged = dict(scenario.get("signals") or {})
        merged.update(signals)
        scenario["signals"] = merged
    body.update(scenario)
    if expect:
        body["expect"] = expect
    return _restore_tags(json.dumps(body, ensure_ascii=True, indent=1)) + "\n"


def files_for(row: dict, dialects: bool) -> list[tuple[str, str, str]]:
    """(file name, column, text) for every column of the row that can run."""
    rid, library = row["id"], row["library"]
    expect = row.get("expect") or {}
    out = []
    if "default" in expect:
        out.append(("%s.default.yaml" % rid, "default",
                    scenario_text(row, "%s (default)" % rid, row.get("default_signals"), expect["default"], None)))
    if "equivalent_signals" in row and library in expect:
        out.append(("%s.equivalent.yaml" % rid, "equivalent",
                    scenario_text(row, "%s (equivalent in the default catalogue)" % rid,
                                  row["equivalent_signals"], expect[library], None)))
    if dialects:
        if "load_error" in row:
            out.append(("%s.%s.yaml" % (rid, library), "load error",
                        scenario_text(row, "%s (%s)" % (rid, library), None, {}, library)))
        elif row.get("dialect") == "default" and "default" in expect:
            # Proposed rows: the dialect keeps the default's meaning of the key (spec's letter).
            out.append(("%s.%s.yaml" % (rid, library), library,
                        scenario_text(row, "%s (%s)" % (rid, library), None, expect["default"], library)))
        elif library in expect:
            out.append(("%s.%s.yaml" % (rid, library), library,
                        scenario_text(row, "%s (%s)" % (rid, library), None, expect[library], library)))
    return out


def find_flowrun(explicit: str | None) -> str:
    if explicit:
        return explicit
    candidate = os.path.join(ROOT, ".build", "debug", "flowrun")
    if os.path.exists(candidate):
        return candidate
    found = shutil.which("flowrun")
    if found:
        return found
    print("library_differences: flowrun not found: build it or pass --flowrun PATH", file=sys.stderr)
    sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Checks the marble evidence of docs/libraries.md.")
    parser.add_argument("--flowrun", metavar="PATH")
    parser.add_argument("--dialects", action="store_true", help="also run each row under its library")
    parser.add_argument("--keep", metavar="DIR", help="write the scenarios into DIR and keep them")
    parser.add_argument("--id", action="append", help="only these rows")
    args = parser.parse_args(argv)

    with open(TABLE, encoding="utf-8") as f:
        rows = yaml.load(f, Loader=TableLoader)
    ids = [row["id"] for row in rows]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        print("library_differences: duplicate ids: %s" % ", ".join(duplicates), file=sys.stderr)
        return 2
    if args.id:
        rows = [row for row in rows if row["id"] in args.id]

    flowrun = find_flowrun(args.flowrun)
    cleanup = None
    if args.keep:
        directory = os.path.abspath(args.keep)
        os.makedirs(directory, exist_ok=True)
    else:
        cleanup = tempfile.TemporaryDirectory(prefix="library-differences-")
        directory = cleanup.name
    columns: dict[str, tuple[dict, str]] = {}
    for row in rows:
        for name, column, text in files_for(row, args.dialects):
            path = os.path.join(directory, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            columns[path] = (row, column)

    proc = subprocess.run([flowrun, "--reporter", "json", "--color", "never", directory],
                          capture_output=True, text=True)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        print("library_differences: flowrun printed no JSON report (exit %d):\n%s%s"
              % (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:]), file=sys.stderr)
        return 2

    failed = 0
    seen = 0
    for entry in report.get("scenarios", []):
        path = os.path.abspath(entry.get("path", ""))
        if path not in columns:
            continue
        seen += 1
        row, column = columns[path]
        status = entry.get("status")
        messages = [d.get("message", "") for d in entry.get("diagnostics", [])]
        if column == "load error":
            ok = status not in ("passed", "failed") and any(row["load_error"] in m for m in messages)
        else:
            ok = status == "passed"
        if ok:
            continue
        failed += 1
        print("DIFFERENCE %s [%s] %s" % (row["id"], column, status))
        for message in messages:
            print("  %s" % message)
        for exp in entry.get("expectations", []):
            if exp.get("status") != "passed":
                print("  %s: expected %s" % (exp.get("target"), exp.get("expected")))
                print("  %s  actual   %s" % (" " * len(str(exp.get("target"))), exp.get("actual")))
    missing = len(columns) - seen
    if missing:
        print("library_differences: flowrun reported %d of %d files" % (seen, len(columns)))
        failed += missing
    print("rows: %d, files: %d" % (len(rows), len(columns)))
    print("library-differences: %d passed, %d failed" % (len(columns) - failed, failed))
    if cleanup:
        cleanup.cleanup()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
