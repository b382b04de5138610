#!/usr/bin/env bash
# The graph fuzzer's long run: random valid scenarios over the whole step table
# (Sources/FlowrunTestSupport/GraphGenerator.swift), run through a flowrun built with
# AddressSanitizer, by seed.
#   Fuzz/graphs.sh <count> [first seed]
# A crashing file and what the crash printed (`graph-<seed>.yaml`, `graph-<seed>.log`) are kept
# in .build-asan/graph-crashes/; a file that does not load is reported as a generator bug.
# The same run, smaller and against the plain debug build, is part of `swift test`
# (GraphFuzzTests).
set -euo pipefail
count=${1:?usage: Fuzz/graphs.sh <count> [first seed]}
seed=${2:-1}
cd "$(dirname "$0")/.."
swift build -c debug --sanitize=address --scratch-path .build-asan --product flowrun 1>&2
swift build --build-tests 1>&2
crashes=.build-asan/graph-crashes
mkdir -p "$crashes"
# ASan's report goes to standard error, where the test reads the crash's reason. Without
# detect_stack_use_after_return=0 locals live on ASan's fake stack, where the engine's stack
# guard (FlowrunCore/Engine/ThreadStack.swift) cannot read the depth; then only the counted nesting
# limit (100,000 calls) bounds it, which ASan's larger frames overflow on a 512 MiB stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0}
FLOWRUN_GRAPH_FUZZ_EXECUTABLE="$PWD/.build-asan/debug/flowrun" \
FLOWRUN_GRAPH_FUZZ_SEED="$seed" FLOWRUN_GRAPH_FUZZ_COUNT="$count" \
FLOWRUN_GRAPH_FUZZ_CRASHES="$PWD/$crashes" \
  swift test --skip-build --filter GraphFuzzTests/graphsLoadAndRunWithoutCrashing
