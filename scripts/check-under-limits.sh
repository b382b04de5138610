#!/usr/bin/env bash
# Runs the hostile corpus (Tests/Hostile) and scenarios/ under the resource limits of CI
# containers and sandboxes, and checks that every run ends with its exit code and diagnostics:
#
#   address   ulimit -v 1048576   1 GiB of address space: a worker's 512 MiB stack may not fit
#   stack     ulimit -s 1024      a 1 MiB stack for the main thread (an eighth of the usual)
#   processes ulimit -u 1         no thread and no child process can start (run as the user
#                                 nobody when root, whom the kernel exempts from this limit)
#
# A hostile case must exit 1 with its expected first diagnostic (`<case>.expected`); a number
# after "limit of" is not compared, since a run on a smaller stack scales its depth and nesting
# limits. `scenarios/` must print what it prints without limits (the durations aside) and exit
# with the same code, with --jobs 1 and 2. `flowrun lsp` must answer and exit 0. Under the
# address-space limit each hostile case runs alone (each process start is a chance for the
# workers' stacks not to fit); under the others the corpus runs in one invocation.
#
# Nothing is timed: the checks are exit codes and text. A run still going after HANG_GUARD
# seconds (default 600, far beyond the slowest case) is killed and reported as a hang, so that
# a hang fails the check instead of stalling it.
#
#   scripts/check-under-limits.sh FLOWRUN [address|stack|processes ...]
set -uo pipefail
FLOWRUN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
MODES=("$@")
[ ${#MODES[@]} -gt 0 ] || MODES=(address stack processes)
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
HANG_GUARD="${HANG_GUARD:-600}"
JOBS="${CHECK_JOBS:-2}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/flowrun-limits.XXXXXX")"
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
# Everything runs from a world-readable copy, so that the user nobody can read it whatever the
# checkout's permissions.
mkdir -p "$WORK/tree/Tests"
cp -R "$ROOT/scenarios" "$WORK/tree/scenarios"
cp -R "$ROOT/Tests/Hostile" "$WORK/tree/Tests/Hostile"
cp "$FLOWRUN" "$WORK/tree/flowrun"
FLOWRUN="$WORK/tree/flowrun"
chmod -R a+rX "$WORK/tree"
cd "$WORK/tree"

# limited MODE CMD...: runs CMD with MODE's limit, standard error to standard output.
limited() {
  local mode="$1"; shift
  local -a prefix=()
  case "$mode" in
    address) prefix=(bash -c 'ulimit -v 1048576 && exec "$@"' limited) ;;
    stack) prefix=(bash -c 'ulimit -s 1024 && exec "$@"' limited) ;;
    processes)
      prefix=(bash -c 'ulimit -u 1 && exec "$@"' limited)
      [ "$(id -u)" = 0 ] && prefix=(setpriv --reuid=65534 --regid=65534 --clear-groups -- "${prefix[@]}")
      ;;
    none) ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
  esac
  timeout --signal=KILL "$HANG_GUARD" "${prefix[@]}" "$@" 2>&1
}
export -f limited
export FLOWRUN HANG_GUARD ROOT WORK

# first_diagnostic NAME FILE: the first diagnostic of NAME.yaml in a run's output (or the
# output's first line when it has none), its "limit of N" numbers left out.
first_diagnostic() {
  { grep -m1 -E "^ *$1\.yaml(:[0-9]+)*: (error|warning): " "$2" || head -1 "$2"; } | cut -c1-2000 \
    | sed -E 's/limit of [0-9]+/limit of N/g'
}
export -f first_diagnostic

# expect_diagnostic LABEL NAME FILE: a failure line unless NAME's first diagnostic in the
# output FILE holds its expected text.
expect_diagnostic() {
  local expected first
  expected="$(tr -d '\n' <"Tests/Hostile/$2.expected" | sed -E 's/limit of [0-9]+/limit of N/g')"
  first="$(first_diagnostic "$2" "$3")"
  case "$first" in
    *"$expected"*) ;;
    *) echo "$1 $2: first diagnostic '$(head -c 400 <<<"$first")', expected '$expected'" ;;
  esac
}
export -f expect_diagnostic

# check_case MODE JOBS NAME: one hostile case in a run of its own; prints a failure line, or
# nothing.
check_case() {
  local mode="$1" jobs="$2" name="$3" output="$WORK/$1-$2-$3.out" status
  (cd Tests/Hostile && limited "$mode" "$FLOWRUN" --color never --jobs "$jobs" "$name.yaml") >"$output"
  status=$?
  if [ $status = 137 ]; then
    echo "$mode --jobs $jobs $name: hung (killed after $HANG_GUARD s)"
  elif [ $status != 1 ]; then
    echo "$mode --jobs $jobs $name: exit $status, expected 1: $(head -c 600 "$output")"
  else
    expect_diagnostic "$mode --jobs $jobs" "$name" "$output"
  fi
  rm -f "$output"
}
export -f check_case

failures="$WORK/failures"
: >"$failures"
chmod 666 "$failures"
# The durations in the report are the only text that may change from run to run.
normalise() { sed -E 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/T/g'; }
baseline="$WORK/baseline.out"
limited none "$FLOWRUN" --color never --jobs 1 scenarios/ | normalise >"$baseline"
baseline_status=${PIPESTATUS[0]}
cases=$(cd Tests/Hostile && ls *.yaml | sed 's/\.yaml$//')
output="$WORK/run.out"
count=0
for mode in "${MODES[@]}"; do
  for jobs in 1 2; do
    limited "$mode" "$FLOWRUN" --color never --jobs "$jobs" scenarios/ >"$output"
    status=$?
    if [ $status != "$baseline_status" ]; then
      echo "$mode --jobs $jobs scenarios/: exit $status, without limits $baseline_status" >>"$failures"
    fi
    # Notes on standard error say what could not start; the rest is the report.
    if ! diff <(grep -v '^note: ' "$output" | normalise) "$baseline" >"$WORK/diff"; then
      echo "$mode --jobs $jobs scenarios/: the report differs from the one without limits:" >>"$failures"
      head -40 "$WORK/diff" >>"$failures"
    fi
    count=$((count + 1))
  done
  if [ "$mode" = address ]; then
    # A run of its own for each case: each process start is a chance for its workers' stacks
    # not to fit.
    printf '%s\n' $cases | xargs -P "$JOBS" -I{} bash -c 'check_case "$@"' _ "$mode" 2 {} >>"$failures"
    count=$((count + $(wc -w <<<"$cases")))
  else
    # The whole corpus in one run.
    # shellcheck disable=SC2046
    (cd Tests/Hostile && limited "$mode" "$FLOWRUN" --color never --jobs 2 $(printf '%s.yaml ' $cases)) >"$output"
    status=$?
    if [ $status != 1 ]; then echo "$mode --jobs 2 Tests/Hostile: exit $status, expected 1" >>"$failures"; fi
    for name in $cases; do expect_diagnostic "$mode --jobs 2" "$name" "$output" >>"$failures"; done
    count=$((count + 1))
  fi
done
# The language server under each limit: it opens a broken file, publishes its diagnostics and
# exits 0 after shutdown and exit, also when its reader thread cannot start.
lsp_message() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }
{
  lsp_message '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
  lsp_message '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/x.yaml","languageId":"yaml","version":1,"text":"flowrun: 1\nname: x\nsignals:\n  s: { just: [1 }\n"}}}'
  lsp_message '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
  lsp_message '{"jsonrpc":"2.0","method":"exit"}'
} >"$WORK/lsp.in"
for mode in "${MODES[@]}"; do
  limited "$mode" "$FLOWRUN" lsp <"$WORK/lsp.in" >"$output"
  status=$?
  if [ $status != 0 ] || ! grep -q 'textDocument/publishDiagnostics' "$output"; then
    echo "$mode flowrun lsp: exit $status, expected 0 and published diagnostics: $(head -c 600 "$output")" >>"$failures"
  fi
  count=$((count + 1))
done
if [ -s "$failures" ]; then
  cat "$failures"
  echo "check-under-limits: $(wc -l <"$failures") failures in $count runs (${MODES[*]})"
  exit 1
fi
echo "check-under-limits: $count runs passed (${MODES[*]})"
