#!/usr/bin/env bash
# Builds flowrun's benchmark suite and the OpenCombine peer, runs W1-W5 on both in one go and
# prints events/s, the ratio flowrun/OpenCombine and the peak RSS of each (/usr/bin/time -v),
# then the other checks of the performance issue.
#
#   Benchmarks/compare.sh [reps]        (from anywhere; default 5 repetitions, medians)
#
# Needs python3 and GNU time (/usr/bin/time); the peer sources are in ../shared/bench-peers.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
REPS="${1:-5}"
PEERS="${PEERS:-$ROOT/../shared/bench-peers}"
DATA="$ROOT/.build-benchdata"
cd "$ROOT"

echo "# building (release)" >&2
swift build -c release >&2
# SwiftPM can keep a stale file list of the path dependency (files added to flowrun are
# then missing from the build, and the suite can keep objects compiled against an older
# layout of its types): drop the cached build manifest and the suite's objects first.
rm -rf .build-bench/release.yaml .build-bench/*/release/FlowrunBench.build
swift build -c release --package-path Benchmarks --scratch-path .build-bench >&2
swift build -c release --package-path "$PEERS/ocbench" --scratch-path .build-peers >&2
[ -f "$DATA/.complete" ] && [ -f "$DATA/chain-200k-cycle.yaml" ] \
  || { python3 Benchmarks/generate.py "$DATA" && touch "$DATA/.complete"; }

FB="$ROOT/.build-bench/release/FlowrunBench"
OC="$ROOT/.build-peers/release/OCBench"
FLOWRUN="$ROOT/.build/release/flowrun"
LOG="$ROOT/.build-benchdata/logs"
mkdir -p "$LOG"

# run NAME CMD...: runs under /usr/bin/time -v, keeps the RESULT line and the peak RSS (MiB).
run() {
  local name="$1"; shift
  /usr/bin/time -v "$@" >"$LOG/$name.out" 2>"$LOG/$name.time" || { cat "$LOG/$name.out" "$LOG/$name.time" >&2; exit 1; }
}
field() { grep RESULT "$LOG/$1.out" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
rss() { awk '/Maximum resident/ { printf "%.1f", $6 / 1024 }' "$LOG/$1.time"; }
wall() { sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$LOG/$1.time"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr); $(swift --version 2>&1 | head -1)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); reps: $REPS (medians); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '| %-8s | %16s | %16s | %8s | %12s | %12s | %10s |\n' workload "flowrun ev/s" "OpenCombine ev/s" ratio "flowrun RSS" "OC RSS" "load (s)"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' ---------- ------------------ ------------------ ---------- -------------- -------------- ------------
for w in W1 W2 W3 W4 W5; do
  run "flowrun-$w" "$FB" "$w" "$DATA" "$REPS"
  run "oc-$w" "$OC" "$w" "$REPS"
  f=$(field "flowrun-$w" events_per_s_median); o=$(field "oc-$w" events_per_s_median)
  load=$(field "flowrun-$w" load_s); load=${load:-"(timed)"}
  if [ "$w" = W5 ]; then
    f="$(field "flowrun-$w" median) s"; o="$(field "oc-$w" median) s"
    ratio=$(awk -v a="$(field "flowrun-$w" median)" -v b="$(field "oc-$w" median)" 'BEGIN { printf "%.2f× time", a / b }')
  else
    ratio=$(awk -v a="$f" -v b="$o" 'BEGIN { printf "%.2f×", a / b }')
  fi
  printf '| %-8s | %16s | %16s | %8s | %8s MiB | %8s MiB | %10s |\n' "$w" "$f" "$o" "$ratio" "$(rss "flowrun-$w")" "$(rss "oc-$w")" "$load"
done
echo
echo "W1-W4: events/s of ScenarioRunner.run (graph, run, recording, comparison with the full expected"
echo "marble) on the loaded scenario, against the peer's timed region; 'load' is the one YAML load"
echo "before the runs. W5: seconds for 2,000 scenarios, YAML parsing included, both sides (ratio < 1: flowrun faster)."
echo

run load "$FB" load "$DATA/load-10mb.yaml" "$REPS"
run graph "$FB" graph "$DATA/graph-10k.yaml" 3
echo "load a $(du -m "$DATA/load-10mb.yaml" | cut -f1) MB scenario: $(field load median) s (median)"
echo "graph of 10,000 nodes, load + run: $(field graph median) s (median)"
run files "$FLOWRUN" --jobs 2 "$DATA/files-2000"
echo "flowrun --jobs 2 on 2,000 files: $(wall files) wall, $(rss files) MiB"
best=9; for i in 1 2 3 4 5; do
  t=$( { /usr/bin/time -f %e "$FLOWRUN" --version >/dev/null; } 2>&1 ); best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (a < b ? a : b) }')
done
echo "flowrun --version: ${best} s (best of 5)"
best=9; for i in 1 2 3 4 5; do
  t=$( { /usr/bin/time -f %e "$FLOWRUN" "$DATA/files-2000/login-0000.yaml" >/dev/null; } 2>&1 ); best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (a < b ? a : b) }')
done
echo "one small scenario end to end: ${best} s (best of 5)"
# Reference chains: the run passes (exit 0); with the cycle the load fails (exit 1).
for c in chain-20k chain-200k chain-20k-cycle chain-200k-cycle; do
  /usr/bin/time -v "$FLOWRUN" "$DATA/$c.yaml" >"$LOG/$c.out" 2>"$LOG/$c.time" || true
  grep -q "Exit status: $([ "${c%-cycle}" = "$c" ] && echo 0 || echo 1)" "$LOG/$c.time" \
    || { cat "$LOG/$c.out" "$LOG/$c.time" >&2; exit 1; }
done
echo "reference chain (load + run): 20k names $(wall chain-20k) $(rss chain-20k) MiB," \
  "200k names $(wall chain-200k) $(rss chain-200k) MiB"
echo "reference chain with a cycle (load): 20k names $(wall chain-20k-cycle) $(rss chain-20k-cycle) MiB," \
  "200k names $(wall chain-200k-cycle) $(rss chain-200k-cycle) MiB"
run silent-100k "$FLOWRUN" "$DATA/silent-100k.yaml"
run silent-10m "$FLOWRUN" "$DATA/silent-10m.yaml"
echo "recording nothing: 100k events $(rss silent-100k) MiB, 10M events $(rss silent-10m) MiB" \
  "(ratio $(awk -v a="$(rss silent-10m)" -v b="$(rss silent-100k)" 'BEGIN { printf "%.2f", a / b }'))"
