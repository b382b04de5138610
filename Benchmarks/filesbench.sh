#!/usr/bin/env bash
# The 2,000 W5 files (Benchmarks/generate.py's files-2000) run by two flowrun binaries and the
# OpenCombine peer's W5, alternating round by round; prints the medians of wall-clock and CPU
# time (user + system, children included, from /usr/bin/time).
#
#   Benchmarks/filesbench.sh BEFORE AFTER [rounds] [DIR]
#
# DIR defaults to .build-benchdata/files-2000 (written by generate.py when missing); the peer
# is built as compare.sh builds it (.build-peers/release/OCBench).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BEFORE="$1"
AFTER="$2"
ROUNDS="${3:-7}"
DIR="${4:-$ROOT/.build-benchdata/files-2000}"
OC="$ROOT/.build-peers/release/OCBench"
[ -d "$DIR" ] || python3 "$ROOT/Benchmarks/generate.py" "$(dirname "$DIR")"
RAW="$(mktemp)"
trap 'rm -f "$RAW"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq 1 "$ROUNDS"); do
  for side in before after; do
    binary="$BEFORE"
    [ "$side" = after ] && binary="$AFTER"
    for jobs in 2 1; do
      /usr/bin/time -f "$side --jobs $jobs: %e %U %S" "$binary" --jobs "$jobs" "$DIR" >/dev/null 2>>"$RAW" || true
    done
  done
  "$OC" W5 1 | sed -nE 's/.* median=([0-9.]+) .*/OpenCombine W5: \1 0 0/p' >>"$RAW"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$RAW" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    if ": " not in line:
        continue
    name, numbers = line.rsplit(": ", 1)
    wall, user, system = map(float, numbers.split())
    rows[name].append((wall, user + system))
for name, runs in rows.items():
    walls = [w for w, _ in runs]
    print("%-22s wall %.3f s (%.2f-%.2f), CPU %.3f s" % (
        name, statistics.median(walls), min(walls), max(walls), statistics.median(c for _, c in runs)))
PY
