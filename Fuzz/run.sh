#!/usr/bin/env bash
# Builds one libFuzzer target (release, -sanitize=fuzzer,address) and runs it.
#   Fuzz/run.sh <yaml|marbles|expressions|scenario> <seconds> [extra libFuzzer flags…]
# Seeds come from Fuzz/Corpus/<target>/ (committed); what libFuzzer finds goes to
# .build/corpus/<target>/, crashes to .build/artifacts/<target>/.
set -euo pipefail
target=${1:?usage: Fuzz/run.sh <yaml|marbles|expressions|scenario> <seconds>}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
cd "$(dirname "$0")"
swift build -c release --product "$target" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld 1>&2
binary=$(swift build -c release --show-bin-path)/$target
mkdir -p ".build/corpus/$target" ".build/artifacts/$target"
dict=()
[[ -f "Dictionaries/$target.dict" ]] && dict=(-dict="Dictionaries/$target.dict")
exec "$binary" ".build/corpus/$target" "Corpus/$target" \
  -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix=".build/artifacts/$target/" -print_final_stats=1 "${dict[@]}" "$@"
