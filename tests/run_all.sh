#!/bin/sh
# run_all.sh - run every test suite given on the command line, then the node
# tier of the page's modules and the browser test; print each suite's own
# summary and, last, the total as "N passed, N failed".  Exits non-zero if
# anything failed or did not run.
set -u
passed=0
failed=0
tally() {   # $1 = suite name, $2 = its output file, $3 = its exit status
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$1: no summary line (exit $3): counted as 1 failure"
        failed=$((failed + 1))
        return
    fi
    p=$(echo "$line" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+')
    f=$(echo "$line" | grep -oE '[0-9]+ failed' | grep -oE '[0-9]+')
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$1: exited $3 with no failed check: counted as 1 failure"
        failed=$((failed + 1))
    fi
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {     # $1 = suite name, then its command: run it, show and tally its output
    name=$1
    shift
    "$@" >"$out/$name" 2>&1
    rc=$?
    cat "$out/$name"
    tally "$name" "$out/$name" "$rc"
}
for t in "$@" build/fuzz-replay/fuzz_api build/fuzz-replay/fuzz_expr build/fuzz-replay/fuzz_layout; do
    name=$(basename "$t")
    corpus=""   # the fuzz targets replay their committed corpus
    case "$name" in fuzz_*) corpus="tests/fuzz/corpus_${name#fuzz_}" ;; esac
    run "$name" "$t" $corpus
done
# The calibration suites: each generated file matches its generator.
run calib sh tests/calib/check_generated.sh
# The include rule between the server's folders (tests/layers.py).
run layers python3 tests/layers.py
# The node tier: the page's pure modules (node --test, tests/node).
run node node tests/node/run.mjs
if [ -f tests/browser/run.sh ]; then
    run browser env SWZ_BIN=build/asan/swizzlescope sh tests/browser/run.sh
fi
run gpu sh tests/gpu/run.sh
skipped=$(grep -oE '[0-9]+ skipped' "$out/gpu" | grep -oE '[0-9]+' | tail -n 1)
echo "$passed passed, $failed failed, ${skipped:-0} skipped"
[ "$failed" -eq 0 ]
