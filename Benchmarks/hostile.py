#!/usr/bin/env python3
"""The hostile-input corpus against the release build: time and memory of every case.

    python3 Benchmarks/hostile.py [--skip-build] [--flowrun PATH] [--large DIR] [--markdown]

Builds `flowrun` in release (`swift build -c release`), writes the large inputs of
`HostileInputTests` into a directory (`FLOWRUN_HOSTILE_KEEP=DIR swift test --filter
HostileInputTests/generatedInput`: the test's own generator, so both run the same files), then
runs `flowrun --color never --jobs 1 CASE.yaml` on every case of `Tests/Hostile/` and on the
large ones, one at a time, and prints each case's wall-clock time, CPU time (user + system)
and peak resident memory. A case over 5 s of CPU time or 500 MB of peak memory is flagged, and
so is a case that does not exit with 1 and its expected diagnostic; the script then exits 1.

CPU time is what is compared with the limit: on an idle machine it is the wall-clock time of
these single-threaded runs, and on a busy one it does not grow with the load. `--wall` flags
wall-clock times over the limit too.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "Tests/Hostile"
TIME_LIMIT = 5.0
MEMORY_LIMIT_MB = 500.0


def build(skip: bool) -> None:
    if not skip:
        subprocess.run(["swift", "build", "-c", "release", "--product", "flowrun"], cwd=ROOT, check=True,
                       stdout=sys.stderr)


def write_large_inputs(directory: Path, skip_build: bool) -> None:
    """The test writes the inputs (and checks them against the debug build on the way)."""
    if not skip_build:
        subprocess.run(["swift", "build", "--build-tests"], cwd=ROOT, check=True, stdout=sys.stderr)
    env = dict(os.environ, FLOWRUN_HOSTILE_KEEP=str(directory))
    done = subprocess.run(["swift", "test", "--skip-build", "--filter", "HostileInputTests/generatedInput"],
                          cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not any(directory.glob("*.yaml")):
        sys.exit(f"the test wrote no large inputs into {directory}:\n{done.stdout[-3000:]}")


def first_diagnostic(output: str) -> str:
    lines = output.splitlines()
    for line in lines:
        if ": error: " in line or ": warning: " in line:
            return line
    return lines[0] if lines else ""


def run_case(flowrun: Path, path: Path) -> dict:
    expected = path.with_suffix(".expected").read_text(encoding="utf-8").strip()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "CI", "GITHUB_ACTIONS", "FORCE_COLOR")}
    with tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        process = subprocess.Popen([str(flowrun), "--color", "never", "--jobs", "1", str(path)], cwd=path.parent,
                                   stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        output = out.read(1 << 20).decode("utf-8", "replace")
    first = first_diagnostic(output)
    problems = []
    if process.returncode != 1:
        problems.append(f"exit {process.returncode}")
    if expected not in first:
        problems.append(f"diagnostic: {first[:200]!r}")
    return {
        "name": path.stem,
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss / 1024,  # KiB on Linux
        "problems": problems,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flowrun", type=Path, default=ROOT / ".build/release/flowrun",
                        help="the executable to measure (default .build/release/flowrun)")
    parser.add_argument("--skip-build", action="store_true", help="use the builds as they are")
    parser.add_argument("--large", type=Path, metavar="DIR",
                        help="the large inputs already written there (by an earlier run, or FLOWRUN_HOSTILE_KEEP)")
    parser.add_argument("--wall", action="store_true", help="flag wall-clock times over the limit too")
    parser.add_argument("--markdown", action="store_true", help="print every row as a Markdown table")
    args = parser.parse_args(argv)

    build(args.skip_build)
    if not os.access(args.flowrun, os.X_OK):
        sys.exit(f"no flowrun executable at {args.flowrun}")
    with tempfile.TemporaryDirectory(prefix="flowrun-hostile-") as scratch:
        large = args.large
        if large is None:
            large = Path(scratch)
            write_large_inputs(large, args.skip_build)
        committed, generated = sorted(CORPUS.glob("*.yaml")), sorted(large.glob("*.yaml"))
        cases = committed + generated
        rows = []
        for path in cases:
            row = run_case(args.flowrun, path)
            if row["cpu"] >= TIME_LIMIT:
                row["problems"].append(f"CPU {row['cpu']:.2f} s ≥ {TIME_LIMIT:g} s")
            if args.wall and row["wall"] >= TIME_LIMIT:
                row["problems"].append(f"wall {row['wall']:.2f} s ≥ {TIME_LIMIT:g} s")
            if row["rss"] >= MEMORY_LIMIT_MB:
                row["problems"].append(f"peak {row['rss']:.1f} MiB ≥ {MEMORY_LIMIT_MB:g} MB")
            rows.append(row)
            if not args.markdown:
                print(f"{row['name']:40} {row['wall']:8.3f} s {row['cpu']:8.3f} s {row['rss']:8.1f} MiB"
                      + ("  ✗ " + "; ".join(row["problems"]) if row["problems"] else ""), flush=True)

    if args.markdown:
        print("| case | wall (s) | CPU (s) | peak RSS (MiB) | |")
        print("|---|---:|---:|---:|---|")
        for row in rows:
            flag = "✗ " + "; ".join(row["problems"]) if row["problems"] else ""
            print(f"| {row['name']} | {row['wall']:.3f} | {row['cpu']:.3f} | {row['rss']:.1f} | {flag} |")
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"
    slowest = max(rows, key=lambda r: r["cpu"])
    largest = max(rows, key=lambda r: r["rss"])
    failed = [row for row in rows if row["problems"]]
    print()
    print(f"{len(rows)} cases ({len(committed)} in Tests/Hostile, {len(generated)} large), "
          f"total CPU {sum(r['cpu'] for r in rows):.1f} s, wall {sum(r['wall'] for r in rows):.1f} s; "
          f"load average {load}")
    print(f"slowest: {slowest['name']} {slowest['cpu']:.2f} s CPU ({slowest['wall']:.2f} s wall); "
          f"largest: {largest['name']} {largest['rss']:.1f} MiB")
    print(f"limits: {TIME_LIMIT:g} s of CPU, {MEMORY_LIMIT_MB:g} MB of peak memory: "
          + (f"{len(failed)} case(s) flagged: " + ", ".join(r["name"] for r in failed) if failed else "every case within"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
