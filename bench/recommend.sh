#!/bin/bash
# recommend.sh - how long one GET /api/recommend search takes, against issue
# 26's target (under 50 ms for a 32-row view): bench/recommend_bench.c runs
# rec_plan + rec_search (every distinct valid Swizzle<B,M,S> of the tile over
# every step of both patterns, the F2 optimizer, padding, lane schedules) on
# five views, REC_RUNS times each (default 30), and prints median and max.
# The core without HTTP or JSON (the route caches its answers, so timing it
# by curl would time the cache); built from source, -O2, no server libraries.
# A time on a shared VM is no pass/fail (DESIGN.md 5: absolute times come
# from the GPU machine).
#   bash bench/recommend.sh
set -eu
cd "$(dirname "$0")/.."
CORE="recommend/recommend recommend/recommend_code model/presets model/pattern model/access model/atomic model/instr model/swizzle linear/linear linear/linear_opt linear/linear_conv linear/linear_hw linear/f2 base/error"
src=""
for f in $CORE; do src="$src server/$f.c"; done
mkdir -p build/bench
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Iserver -o build/bench/recommend_bench bench/recommend_bench.c $src -lm
build/bench/recommend_bench "${REC_RUNS:-30}"
