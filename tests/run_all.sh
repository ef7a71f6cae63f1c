#!/bin/bash
# run_all.sh - run every test suite given on the command line, then the fuzz
# corpora, the census, the include rule, the generators, the node tier of the
# page's modules, the browser test and the GPU suite; print each suite's own
# summary and its time and, last, the total as "N passed, N failed".  Exits
# non-zero if anything failed or did not run.
#
# Suites that time something (deadlines, timeouts, a process's life) run
# last, side by side, once the browsers are done, beside only what is left of
# the niced group (TIMED below).  The browser
# test runs as BROWSER_SHARDS shards at once (default 2: each its own server
# and Chromium; a third on two CPUs added a browser's start and the switching
# between three, 266 and 271 s against 275 s the same hour, 2026-11-29), and
# beside them the other suites TEST_JOBS at a time (default: the CPU count, at
# least 2) under nice, so that the browsers keep the CPUs they ask for.
# Each suite's output is printed whole, in the order given, once it is done.
set -u
TIMED="test_http test_measure test_proc test_stream test_framing test_contract test_main"
# Suites with long property sweeps: TEST_SMALL=1 under the sanitizers, and
# whole on the plain build (build/plain/NAME, which the Makefile builds).
SWEEPS="test_recommend test_stream_answers test_access"
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$jobs" -ge 2 ] 2>/dev/null || jobs=2
passed=0
failed=0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
names=()

tally() {   # $1 = suite name: its output, exit status and time are in $out
    local name=$1 rc line p f
    rc=$(cat "$out/$name.rc" 2>/dev/null || echo 1)
    cat "$out/$name"
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$out/$name" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$name: no summary line (exit $rc): counted as 1 failure"
        failed=$((failed + 1))
        return
    fi
    p=$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')
    f=$(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$name: exited $rc with no failed check: counted as 1 failure"
        failed=$((failed + 1))
    fi
}
suite() {   # $1 = suite name, then its command: run it into $out, timed
    local name=$1 t0 rc
    shift
    t0=$(date +%s%N)
    "$@" >"$out/$name" 2>&1
    rc=$?
    echo "$rc" >"$out/$name.rc"
    awk -v n="$name" -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%s: %.1f s\n", n, (b - a) / 1e9 }' \
        >"$out/$name.time"
}
parallel=()     # "name|command..." of the suites that may share the CPUs
serial=()
add() {         # $1 = name, then the command
    names+=("$1")
    case " $TIMED " in
        *" $1 "*) serial+=("$*") ;;
        *) parallel+=("$*") ;;
    esac
}

for t in "$@"; do
    name=$(basename "$t")
    case " $SWEEPS " in
        *" $name "*) add "$name" env TEST_SMALL=1 "$t"
                     add "${name}_plain" "build/plain/$name" ;;
        *) add "$name" "$t" ;;
    esac
done
for c in api expr layout; do   # the fuzz targets replay their committed corpus
    add "fuzz_$c" build/fuzz-replay/fuzz_$c tests/fuzz/corpus_$c
done
# issue 36's census: every pattern pair on the plain build, its crash view under ASan
add census build/plain/test_census
add census_asan env CENSUS_FIXED=1 CENSUS_VIEWS=0 build/test/test_census
add layers python3 tests/layers.py
add calib sh tests/calib/check_generated.sh    # each generated file matches its generator
add node node tests/node/run.mjs               # the page's pure modules (node --test)
shards=${BROWSER_SHARDS:-2}
browsers=()
if [ -f tests/browser/run.sh ]; then
    for i in $(seq 1 "$shards"); do
        names+=("browser_$i")
        browsers+=("browser_$i env SWZ_SHARD=$i/$shards SWZ_BIN=build/asan/swizzlescope sh tests/browser/run.sh")
    done
fi
add gpu sh tests/gpu/run.sh
add ptx_gpu python3 tests/gpu/ptx_check.py       # issue 38's corpus on a GPU, else skipped

# The browser shards (the longest) first, the parallel group beside them;
# then the timed suites.
start() {   # $1 = "name command...", $2 = what to run it under ("" or nice)
    local name=${1%% *} cmd=${1#* }
    # shellcheck disable=SC2086  # the command and the prefix are words
    suite "$name" $2 $cmd &
}
bpids=()
for entry in "${browsers[@]}"; do
    start "$entry" ""
    bpids+=($!)
done
# The parallel group, JOBS at a time under nice, dispatched from a subshell
# so that this shell can start the timed suites as soon as the browsers end.
(
    running=()
    for entry in "${parallel[@]}"; do
        while [ "${#running[@]}" -ge "$jobs" ]; do
            wait -n "${running[@]}"
            alive=()
            for p in "${running[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p"); done
            running=("${alive[@]}")
        done
        start "$entry" "nice -n 10"
        running+=($!)
    done
    wait
) &
group=$!
[ "${#bpids[@]}" -gt 0 ] && wait "${bpids[@]}"
# The timed suites together once the browsers are done: each mostly waits (on
# a deadline, a child, a socket), about 12 CPU-s in 14 s for all seven, so side
# by side they still find a CPU when they ask (one after another they took
# 37 s).  The rest of the parallel group may still run beside them, but
# under nice: a timed suite that asks for a CPU gets it (alone after the
# group they left the second CPU idle for most of their 14 s).
for entry in "${serial[@]}"; do
    start "$entry" ""
done
wait "$group"
wait

for name in "${names[@]}"; do
    tally "$name"
done
echo "times (wall, $jobs at a time; timed suites together, last):"
for name in "${names[@]}"; do
    cat "$out/$name.time" 2>/dev/null
done | sort -t: -k2 -rn | head -n 8 | sed 's/^/  /'
skipped=$(grep -oE '[0-9]+ skipped' "$out/gpu" 2>/dev/null | grep -oE '[0-9]+' | tail -n 1)
echo "$passed passed, $failed failed, ${skipped:-0} skipped"
[ "$failed" -eq 0 ]
