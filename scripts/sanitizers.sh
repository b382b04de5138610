#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and ThreadSanitizer (README.md, "Hardening").
#   scripts/sanitizers.sh            # both
#   scripts/sanitizers.sh thread     # one
# Each sanitizer builds into its own scratch path so the normal .build stays as it is.
# ThreadSanitizer matters for the parallel runner: the CLI tests run flowrun with --jobs > 1,
# and FLOWRUN_TSAN_JOBS (default 4) is exported for tests that pick a job count.
set -uo pipefail
cd "$(dirname "$0")/.."
sanitizers=("$@")
[[ ${#sanitizers[@]} -eq 0 ]] && sanitizers=(address thread)
status=0
for sanitizer in "${sanitizers[@]}"; do
  case "$sanitizer" in
    address) scratch=.build-asan; export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} ;;
    thread) scratch=.build-tsan; export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0} ;;
    *) echo "unknown sanitizer: $sanitizer (address or thread)" >&2; exit 64 ;;
  esac
  echo "== swift test --sanitize=$sanitizer --scratch-path $scratch" >&2
  export FLOWRUN_TSAN_JOBS=${FLOWRUN_TSAN_JOBS:-4}
  if ! swift test --sanitize="$sanitizer" --scratch-path "$scratch" --skip HostileInputTests; then
    echo "== $sanitizer: FAILED" >&2
    status=1
  else
    echo "== $sanitizer: passed" >&2
  fi
done
exit $status
