#!/usr/bin/env bash
# Builds BindingBench (release) and runs it: flowrun's scheduler against combine-schedulers'
# TestScheduler on the login and search view models of Examples/.
#
#   Benchmarks/bindingbench.sh [events] [reps] [login|search|explore][:flowrun|:peer]
#                              (from anywhere; default 100000 events, 3 repetitions, all three)
#
# SwiftPM can keep a stale file list of the path dependency (files added to or removed from
# flowrun are then missing from the build or still expected by it) and objects compiled
# against an older layout of flowrun's types: the cached build manifest and BindingBench's
# objects are dropped first (the libraries rebuild incrementally).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
rm -rf .build-bench/release.yaml .build-bench/*/release/BindingBench.build
swift build -c release --package-path Benchmarks --scratch-path .build-bench --product BindingBench >&2
exec .build-bench/release/BindingBench "$@"
