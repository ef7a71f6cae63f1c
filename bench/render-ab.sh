#!/bin/sh
# render-ab.sh - bench/render.mjs on two versions of the page, alternated, so
# that both see the same machine: this VM's speed drifts by a third over
# minutes, more than most changes to the page. REF is a git revision whose
# static/ is the reference; the other side is the working tree's static/.
# Both are served by the same build/swizzlescope (make first).
# Usage: bench/render-ab.sh REF [ROUNDS, default 3] [N changes, default 40] [CHANGES, default preset,first,match,step]
# Prints one line per run; compare the lines of one round.
set -eu
cd "$(dirname "$0")/.."
REF=${1:?usage: bench/render-ab.sh REF [ROUNDS] [N] [CHANGES]}
ROUNDS=${2:-3}; N=${3:-40}; CHANGES=${4:-preset,first,match,step}
. bench/serve.sh
bench_needs
TMP=$(mktemp -d)
trap 'kill $PIDS 2>/dev/null || true; rm -rf "$TMP"' EXIT INT TERM
git archive "$REF" static | tar -x -C "$TMP"
run() {   # run DIR NAME: one bench run of the page in DIR, on one line
    serve "$1"
    printf '%-10s' "$2"
    SWZ_BENCH_ROWS=64 SWZ_BENCH_CHANGES=$CHANGES node bench/render.mjs "$URL" "$N" 300 |
        awk '$1 == 64 { printf "  %s ready %s/%s work %s/%s", $2, $3, $5, $9, $11 }'
    echo
    kill "$SERVED"; wait "$SERVED" 2>/dev/null || true
}
echo "render A/B at 64 rows, ms median/p95: $REF's static/ against the working tree's, $N changes each, $ROUNDS rounds"
for r in $(seq 1 "$ROUNDS"); do
    run "$TMP/static" "$(git rev-parse --short "$REF")"
    run static "tree"
done
