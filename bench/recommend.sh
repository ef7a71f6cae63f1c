#!/bin/bash
# recommend.sh - how long one GET /api/recommend search takes, against issue
# 26's target (under 50 ms for a 32-row view): bench/recommend_bench.c runs
# rec_plan + rec_search (every distinct valid Swizzle<B,M,S> of the tile over
# every step of both patterns, the F2 optimizer, padding, lane schedules) on
# five views, REC_RUNS times each (default 30), and prints median and max.
# The core without HTTP or JSON (the route caches its answers, so timing it
# by curl would time the cache).  A time on this VM is no pass/fail.
#   bash bench/recommend.sh
set -eu
cd "$(dirname "$0")/.."
make -s build/swizzlescope >/dev/null
objs=$(ls build/obj/*.o | grep -v -e '/main.o$' -e '/api' -e '/http.o$' -e '/files.o$' -e '/addr.o$' \
       -e '/framing.o$' -e '/watch.o$' -e '/stream.o$' -e '/proc.o$' -e '/measure.o$')
mkdir -p build/bench
cc -std=c11 -O2 -Wall -Wextra -o build/bench/recommend_bench bench/recommend_bench.c $objs -lm
build/bench/recommend_bench "${REC_RUNS:-30}"
